-- purpose: canal-json value format with ignore-null-fields, ISO-8601, LITERAL null keys, plain decimals; json key with its own options
CREATE TABLE cdc_canal_options (
  id BIGINT,
  name STRING,
  amount DECIMAL(12, 4),
  tiny DECIMAL(5, 5),
  at_ts TIMESTAMP_LTZ(3),
  local_at TIMESTAMP(6),
  d DATE,
  t TIME(3),
  f DOUBLE,
  tags MAP<STRING, STRING>,
  items ARRAY<ROW<sku STRING, qty INT, price DECIMAL(8, 2)>>,
  detail ROW<note STRING, seen TIMESTAMP(3), inner_row ROW<m MAP<STRING, ARRAY<BIGINT>>, b BYTES>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_canal_options',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'name;id;d',
  'key.json.encode.ignore-null-fields' = 'true',
  'value.format' = 'canal-json',
  'value.canal-json.encode.ignore-null-fields' = 'true',
  'value.canal-json.timestamp-format.standard' = 'ISO-8601',
  'value.canal-json.map-null-key.mode' = 'LITERAL',
  'value.canal-json.map-null-key.literal' = '<null>',
  'value.canal-json.encode.decimal-as-plain-number' = 'true'
);
