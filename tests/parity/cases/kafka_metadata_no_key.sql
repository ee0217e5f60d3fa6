-- purpose: a writable metadata column without key format: the connector projects the value row (physical columns only)
CREATE TABLE kafka_metadata_no_key (
  headers MAP<STRING, BYTES> METADATA,
  a INT,
  b STRING,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'
) WITH (
  'connector' = 'kafka',
  'topic' = 'kafka_metadata_no_key',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
