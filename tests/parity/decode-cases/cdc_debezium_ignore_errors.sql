-- purpose: debezium-json with ignore-parse-errors and ISO-8601 timestamps, PRIMARY KEY allowed on kafka with a changelog format
CREATE TABLE cdc_debezium_ignore_errors (
  id INT,
  v STRING,
  ts TIMESTAMP(6),
  ltz TIMESTAMP_LTZ(3),
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_debezium_ignore_errors',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'debezium-json',
  'debezium-json.ignore-parse-errors' = 'true',
  'debezium-json.timestamp-format.standard' = 'ISO-8601'
);
