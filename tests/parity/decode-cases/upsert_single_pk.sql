-- purpose: upsert-kafka with PRIMARY KEY (id), value ALL: a tombstone becomes -D for its key, other records +U
CREATE TABLE upsert_single_pk (
  id BIGINT,
  name STRING,
  score DOUBLE,
  updated TIMESTAMP(3),
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'upsert_single_pk',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'value.format' = 'json'
);
