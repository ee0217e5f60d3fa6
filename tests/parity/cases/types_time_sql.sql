-- purpose: DATE, TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p) for every Arrow unit, SQL timestamp standard (default)
CREATE TABLE types_time_sql (
  dt DATE,
  t0 TIME(0),
  t3 TIME(3),
  t6 TIME(6),
  t9 TIME(9),
  ts0 TIMESTAMP(0),
  ts1 TIMESTAMP(1),
  ts3 TIMESTAMP(3),
  ts6 TIMESTAMP(6),
  ts9 TIMESTAMP(9),
  ltz0 TIMESTAMP_LTZ(0),
  ltz3 TIMESTAMP(3) WITH LOCAL TIME ZONE,
  ltz6 TIMESTAMP_LTZ(6),
  ltz9 TIMESTAMP_LTZ(9),
  ts3_nn TIMESTAMP(3) NOT NULL
) WITH (
  'connector' = 'kafka',
  'topic' = 'types_time_sql',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.timestamp-format.standard' = 'SQL'
);
