-- purpose: every INTERVAL resolution (YEAR-MONTH as Int32 months, DAY-TIME as Int64 millis), top level and nested
-- oracle: table-api
CREATE TABLE types_intervals (
  y INTERVAL YEAR,
  y4 INTERVAL YEAR(4),
  ym INTERVAL YEAR TO MONTH,
  mo INTERVAL MONTH,
  d INTERVAL DAY,
  dh INTERVAL DAY TO HOUR,
  dm INTERVAL DAY TO MINUTE,
  ds INTERVAL DAY(3) TO SECOND(3),
  h INTERVAL HOUR,
  hm INTERVAL HOUR TO MINUTE,
  hs INTERVAL HOUR TO SECOND,
  mi INTERVAL MINUTE,
  ms INTERVAL MINUTE TO SECOND(6),
  sec INTERVAL SECOND(3),
  ym_arr ARRAY<INTERVAL YEAR TO MONTH>,
  ds_row ROW<a INTERVAL DAY TO SECOND(3), b INTERVAL MONTH NOT NULL>
) WITH (
  'connector' = 'kafka',
  'topic' = 'types_intervals',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
