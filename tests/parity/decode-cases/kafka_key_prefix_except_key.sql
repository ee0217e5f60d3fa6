-- purpose: key.format json with key.fields and key.fields-prefix, value.fields-include EXCEPT_KEY: key and value decoded separately and joined
CREATE TABLE kafka_key_prefix_except_key (
  k_id BIGINT,
  name STRING,
  k_region STRING,
  score DOUBLE,
  tags ARRAY<STRING>
) WITH (
  'connector' = 'kafka',
  'topic' = 'kafka_key_prefix_except_key',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'key.format' = 'json',
  'key.fields' = 'k_region;k_id',
  'key.fields-prefix' = 'k_',
  'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY'
);
