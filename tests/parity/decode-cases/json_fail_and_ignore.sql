-- purpose: json.fail-on-missing-field and json.ignore-parse-errors both true: the json factory refuses the pair
-- expect: error
CREATE TABLE json_fail_and_ignore (
  id INT
) WITH (
  'connector' = 'kafka',
  'topic' = 'json_fail_and_ignore',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json',
  'json.fail-on-missing-field' = 'true',
  'json.ignore-parse-errors' = 'true'
);
