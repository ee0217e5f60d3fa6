-- purpose: nested TIMESTAMP_LTZ/TIMESTAMP with ISO-8601 standard, which must reach every nesting depth
CREATE TABLE nested_ltz_iso (
  r ROW<ltz TIMESTAMP_LTZ(3), ts TIMESTAMP(3)>,
  arr ARRAY<ROW<at_ts TIMESTAMP_LTZ(6), plain TIMESTAMP(9)>>,
  m MAP<STRING, ARRAY<TIMESTAMP_LTZ(3)>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'nested_ltz_iso',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.timestamp-format.standard' = 'ISO-8601'
);
