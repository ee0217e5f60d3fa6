-- purpose: ogg-json value format, all four row kinds, defaults spelled out (ogg-json.encode.ignore-null-fields false), nested types
CREATE TABLE cdc_ogg_defaults (
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
  'topic' = 'cdc_ogg_defaults',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'ogg-json',
  'ogg-json.encode.ignore-null-fields' = 'false',
  'ogg-json.ignore-parse-errors' = 'false'
);
