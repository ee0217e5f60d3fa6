-- purpose: key.json.* and value.json.* options differ (ignore-null-fields, timestamp standard, plain decimals, null-key mode)
CREATE TABLE kafka_key_value_options_differ (
  k_ts TIMESTAMP_LTZ(3),
  k_amount DECIMAL(10, 4),
  k_opt STRING,
  v_ts TIMESTAMP(6),
  v_amount DECIMAL(10, 4),
  v_map MAP<STRING, INT>,
  v_row ROW<a INT, b STRING>
) WITH (
  'connector' = 'kafka',
  'topic' = 'kafka_key_value_options_differ',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'k_opt;k_ts;k_amount',
  'key.json.encode.ignore-null-fields' = 'true',
  'key.json.timestamp-format.standard' = 'ISO-8601',
  'key.json.encode.decimal-as-plain-number' = 'true',
  'value.format' = 'json',
  'value.fields-include' = 'ALL',
  'value.json.encode.ignore-null-fields' = 'false',
  'value.json.timestamp-format.standard' = 'SQL',
  'value.json.encode.decimal-as-plain-number' = 'false',
  'value.json.map-null-key.mode' = 'DROP'
);
