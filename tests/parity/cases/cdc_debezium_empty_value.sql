-- purpose: debezium-json around an empty value row (EXCEPT_KEY, every column in the key), null envelope members kept
CREATE TABLE cdc_debezium_empty_value (
  a INT,
  b STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_debezium_empty_value',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'b;a',
  'value.format' = 'debezium-json',
  'value.fields-include' = 'EXCEPT_KEY'
);
