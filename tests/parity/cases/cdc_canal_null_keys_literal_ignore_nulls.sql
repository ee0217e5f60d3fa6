-- purpose: canal-json with LITERAL null keys at the default literal 'null' and ignore-null-fields (nested nulls dropped inside the data array)
CREATE TABLE cdc_canal_null_keys_literal_ignore_nulls (
  id INT,
  m MAP<STRING, STRING>,
  r ROW<x INT, y STRING, z ROW<p DOUBLE, q MAP<STRING, INT>>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_canal_null_keys_literal_ignore_nulls',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'canal-json',
  'canal-json.map-null-key.mode' = 'LITERAL',
  'canal-json.encode.ignore-null-fields' = 'true'
);
