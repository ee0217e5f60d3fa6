-- purpose: kafka (not upsert) with json value format and a PRIMARY KEY is rejected
-- expect: error
CREATE TABLE err_kafka_json_with_pk (
  id BIGINT,
  v STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'topic' = 'err_kafka_json_with_pk',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'key.format' = 'json',
  'key.fields' = 'id',
  'value.format' = 'json'
);
