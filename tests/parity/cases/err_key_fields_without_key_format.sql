-- purpose: key.fields without key.format is rejected
-- expect: error
CREATE TABLE err_key_fields_without_key_format (
  id BIGINT,
  v STRING
) WITH (
  'topic' = 'err_key_fields_without_key_format',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'key.fields' = 'id',
  'value.format' = 'json'
);
