-- purpose: upsert-kafka without a PRIMARY KEY is rejected
-- expect: error
CREATE TABLE err_upsert_without_pk (
  id BIGINT,
  v STRING
) WITH (
  'topic' = 'err_upsert_without_pk',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'upsert-kafka',
  'key.format' = 'json',
  'value.format' = 'json'
);
