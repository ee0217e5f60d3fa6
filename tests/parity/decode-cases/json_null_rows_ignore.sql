-- purpose: json.ignore-parse-errors = true, messages that give Flink 2.x a null row (a top-level array element that is null or not an object, a truncated object): the rows before it stay, the rest of the message is dropped (the operator after the source throws inside the format's call)
CREATE TABLE json_null_rows_ignore (
  i INT,
  s STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'json_null_rows_ignore',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json',
  'json.ignore-parse-errors' = 'true'
);
