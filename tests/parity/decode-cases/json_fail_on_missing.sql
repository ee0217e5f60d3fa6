-- purpose: json.fail-on-missing-field = true: a record lacking a field fails (parser path on 2.x)
CREATE TABLE json_fail_on_missing (
  id INT,
  name STRING,
  r ROW<a INT, b STRING>,
  tags ARRAY<STRING>
) WITH (
  'connector' = 'kafka',
  'topic' = 'json_fail_on_missing',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json',
  'json.fail-on-missing-field' = 'true'
);
