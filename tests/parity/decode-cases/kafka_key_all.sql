-- purpose: key.format json with value.fields-include ALL: the key fields are read from the key and again from the value; metadata and computed columns present
CREATE TABLE kafka_key_all (
  id INT,
  name STRING,
  ts TIMESTAMP(3),
  event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  part INT METADATA FROM 'partition' VIRTUAL,
  name_len AS CHAR_LENGTH(name)
) WITH (
  'connector' = 'kafka',
  'topic' = 'kafka_key_all',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'key.format' = 'json',
  'key.fields' = 'id',
  'key.json.ignore-parse-errors' = 'true',
  'value.format' = 'json'
);
