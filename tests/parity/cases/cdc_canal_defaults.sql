-- purpose: canal-json value format, all four row kinds, defaults spelled out (canal-json.encode.ignore-null-fields false); decode-only database/table.include accepted, nested types
CREATE TABLE cdc_canal_defaults (
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
  'topic' = 'cdc_canal_defaults',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'canal-json',
  'canal-json.encode.ignore-null-fields' = 'false',
  'canal-json.database.include' = 'db',
  'canal-json.table.include' = 't.*'
);
