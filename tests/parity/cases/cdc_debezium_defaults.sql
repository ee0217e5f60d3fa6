-- purpose: debezium-json value format, all four row kinds, defaults spelled out (debezium-json.encode.ignore-null-fields false); schema-include false and a decode option accepted, nested types
CREATE TABLE cdc_debezium_defaults (
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
  'topic' = 'cdc_debezium_defaults',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'debezium-json',
  'debezium-json.encode.ignore-null-fields' = 'false',
  'debezium-json.schema-include' = 'false',
  'debezium-json.ignore-parse-errors' = 'true'
);
