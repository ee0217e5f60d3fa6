-- purpose: ogg-json around an empty value row (EXCEPT_KEY, every column in the key), with ignore-null-fields dropping the envelope's null member
CREATE TABLE cdc_ogg_empty_value (
  a INT,
  b STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_ogg_empty_value',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'b;a',
  'value.format' = 'ogg-json',
  'value.fields-include' = 'EXCEPT_KEY',
  'value.ogg-json.encode.ignore-null-fields' = 'TRUE'
);
