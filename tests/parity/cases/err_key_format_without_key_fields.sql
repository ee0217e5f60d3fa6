-- purpose: key.format without key.fields is rejected for the kafka connector
-- expect: error
CREATE TABLE err_key_format_without_key_fields (
  id BIGINT,
  v STRING
) WITH (
  'topic' = 'err_key_format_without_key_fields',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'key.format' = 'json',
  'value.format' = 'json'
);
