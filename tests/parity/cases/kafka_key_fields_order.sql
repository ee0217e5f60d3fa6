-- purpose: kafka with key.format json and key.fields in non-schema order ('c;a'); value = all columns (ALL, default)
CREATE TABLE kafka_key_fields_order (
  a BIGINT,
  b STRING,
  c INT,
  d ROW<x DOUBLE, y ARRAY<STRING>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'kafka_key_fields_order',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'c;a',
  'value.format' = 'json'
);
