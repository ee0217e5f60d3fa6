-- purpose: EXCEPT_KEY with every column in the key: the value JSON is {}
CREATE TABLE kafka_except_key_empty_value (
  id BIGINT,
  name STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'kafka_except_key_empty_value',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'name;id',
  'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY'
);
