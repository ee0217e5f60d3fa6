-- purpose: json.ignore-parse-errors = true: bad fields become null, unparsable messages are dropped
-- known-differences: 3 (after a Jackson error inside a value under ignore-parse-errors, Flink's converters and kjson's can lose their place differently in hostile messages: nesting past 1000, numbers past 1000 digits)
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
