-- purpose: all json options at once: ISO-8601, plain decimals, ignore-null-fields, LITERAL null keys (value.format spelling)
CREATE TABLE opt_all_combined (
  id BIGINT,
  amount DECIMAL(12, 4),
  at_ts TIMESTAMP_LTZ(3),
  local_at TIMESTAMP(6),
  tags MAP<STRING, STRING>,
  detail ROW<note STRING, price DECIMAL(8, 2), seen TIMESTAMP(3)>
) WITH (
  'connector' = 'kafka',
  'topic' = 'opt_all_combined',
  'properties.bootstrap.servers' = 'localhost:9092',
  'value.format' = 'json',
  'value.json.timestamp-format.standard' = 'ISO-8601',
  'value.json.encode.decimal-as-plain-number' = 'true',
  'value.json.encode.ignore-null-fields' = 'true',
  'value.json.map-null-key.mode' = 'LITERAL',
  'value.json.map-null-key.literal' = '<null>'
);
