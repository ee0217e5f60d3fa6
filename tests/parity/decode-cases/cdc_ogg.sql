-- purpose: ogg-json with defaults: op_type I / U / D with before / after, a json key
CREATE TABLE cdc_ogg (
  id INT,
  name STRING,
  score FLOAT,
  ltz TIMESTAMP_LTZ(3),
  m MAP<STRING, STRING>
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_ogg',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'key.format' = 'json',
  'key.fields' = 'id',
  'value.format' = 'ogg-json'
);
