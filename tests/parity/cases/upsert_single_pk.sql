-- purpose: upsert-kafka, PRIMARY KEY (id), value ALL (key columns repeated in the value); -U/-D rows become tombstones
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
