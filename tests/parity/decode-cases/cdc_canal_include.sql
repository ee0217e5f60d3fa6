-- purpose: canal-json database.include / table.include (regular expressions) filter messages; ignore-parse-errors
CREATE TABLE cdc_canal_include (
  id INT,
  name STRING,
  qty INT
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_canal_include',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'canal-json',
  'canal-json.database.include' = 'inventory',
  'canal-json.table.include' = 'orders|t.*',
  'canal-json.ignore-parse-errors' = 'true'
);
