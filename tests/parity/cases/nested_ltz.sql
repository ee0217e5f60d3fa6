-- purpose: TIMESTAMP_LTZ and TIMESTAMP nested in rows, arrays and map values (only the logical type tells them apart in Arrow)
CREATE TABLE nested_ltz (
  r ROW<ltz TIMESTAMP_LTZ(3), ts TIMESTAMP(3), ltz9 TIMESTAMP_LTZ(9)>,
  ltz_arr ARRAY<TIMESTAMP_LTZ(6)>,
  ts_arr ARRAY<TIMESTAMP(6)>,
  ltz_map MAP<STRING, TIMESTAMP_LTZ(0)>,
  deep MAP<STRING, ARRAY<ROW<at_ts TIMESTAMP_LTZ(3), plain TIMESTAMP(0)>>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'nested_ltz',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
