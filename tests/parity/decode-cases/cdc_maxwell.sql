-- purpose: maxwell-json with defaults: insert / update (old) / delete, nested columns
CREATE TABLE cdc_maxwell (
  id INT,
  name STRING,
  price DECIMAL(12, 4),
  ts TIMESTAMP(3),
  tags ARRAY<STRING>,
  r ROW<a INT, b STRING>
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_maxwell',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'maxwell-json'
);
