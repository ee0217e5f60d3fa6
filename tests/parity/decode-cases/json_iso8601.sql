-- purpose: json.timestamp-format.standard = 'ISO-8601' for DATE, TIME, TIMESTAMP(0..9), TIMESTAMP_LTZ(3, 9); the map-null-key options only matter when writing
CREATE TABLE json_iso8601 (
  dt DATE,
  tm0 TIME(0),
  tm3 TIME(3),
  ts0 TIMESTAMP(0),
  ts3 TIMESTAMP(3),
  ts6 TIMESTAMP(6),
  ts9 TIMESTAMP(9),
  ltz3 TIMESTAMP_LTZ(3),
  ltz9 TIMESTAMP_LTZ(9),
  m MAP<STRING, TIMESTAMP(3)>
) WITH (
  'connector' = 'kafka',
  'topic' = 'json_iso8601',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json',
  'json.timestamp-format.standard' = 'ISO-8601',
  'json.map-null-key.mode' = 'LITERAL',
  'json.map-null-key.literal' = 'null'
);
