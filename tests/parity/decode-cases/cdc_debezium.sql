-- purpose: debezium-json value with defaults: c / r / u / d envelopes (u gives -U and +U), nested and temporal columns
CREATE TABLE cdc_debezium (
  id BIGINT,
  name STRING,
  price DECIMAL(10, 2),
  ts TIMESTAMP(3),
  ltz TIMESTAMP_LTZ(6),
  tags ARRAY<STRING>,
  attrs MAP<STRING, INT>,
  r ROW<a INT, b BOOLEAN>
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_debezium',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'debezium-json'
);
