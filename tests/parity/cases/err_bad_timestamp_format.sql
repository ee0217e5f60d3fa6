-- purpose: timestamp-format.standard is case-sensitive: 'iso-8601' is rejected
-- expect: error
CREATE TABLE err_bad_timestamp_format (
  ts TIMESTAMP(3)
) WITH (
  'topic' = 'err_bad_timestamp_format',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'format' = 'json',
  'json.timestamp-format.standard' = 'iso-8601'
);
