-- purpose: a key field that does not start with key.fields-prefix is rejected
-- expect: error
CREATE TABLE err_key_field_without_prefix (
  k_id BIGINT,
  region STRING,
  v STRING
) WITH (
  'topic' = 'err_key_field_without_prefix',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'key.format' = 'json',
  'key.fields' = 'k_id;region',
  'key.fields-prefix' = 'k_',
  'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY'
);
