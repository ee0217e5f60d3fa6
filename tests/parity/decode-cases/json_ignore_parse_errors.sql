-- purpose: json.ignore-parse-errors = true: bad fields become null, unparsable messages are dropped
CREATE TABLE json_ignore_parse_errors (
  b BOOLEAN,
  i INT,
  bi BIGINT,
  dbl DOUBLE,
  dc DECIMAL(8, 3),
  s STRING,
  bin BYTES,
  dt DATE,
  tm TIME(3),
  ts TIMESTAMP(6),
  ltz TIMESTAMP_LTZ(3),
  r ROW<a INT, b ARRAY<INT>>,
  m MAP<STRING, BIGINT>
) WITH (
  'connector' = 'kafka',
  'topic' = 'json_ignore_parse_errors',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json',
  'json.ignore-parse-errors' = 'true'
);
