-- purpose: upsert-kafka refuses a key format that is not insert-only (ogg-json), checked before the value format
-- expect: error
CREATE TABLE err_upsert_cdc_key_format (
  id BIGINT,
  v STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'err_upsert_cdc_key_format',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'ogg-json',
  'value.format' = 'maxwell-json'
);
