-- purpose: canal-json with defaults: data arrays of 1..3 rows, INSERT / UPDATE (old gives the before image) / DELETE, DDL messages
CREATE TABLE cdc_canal (
  id BIGINT,
  name STRING,
  weight DOUBLE,
  dt DATE,
  ts TIMESTAMP(3)
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_canal',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'canal-json'
);
