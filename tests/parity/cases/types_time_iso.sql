-- purpose: the same time types with json.timestamp-format.standard = ISO-8601 (T separator, LTZ with Z)
CREATE TABLE types_time_iso (
  dt DATE,
  t0 TIME(0),
  t3 TIME(3),
  t9 TIME(9),
  ts0 TIMESTAMP(0),
  ts3 TIMESTAMP(3),
  ts6 TIMESTAMP(6),
  ts9 TIMESTAMP(9),
  ltz0 TIMESTAMP_LTZ(0),
  ltz3 TIMESTAMP_LTZ(3),
  ltz6 TIMESTAMP_LTZ(6),
  ltz9 TIMESTAMP_LTZ(9),
  ts_arr ARRAY<TIMESTAMP(6)>,
  ltz_arr ARRAY<TIMESTAMP_LTZ(3)>
) WITH (
  'connector' = 'kafka',
  'topic' = 'types_time_iso',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.timestamp-format.standard' = 'ISO-8601'
);
