-- purpose: metadata (writable and VIRTUAL) and computed columns are not physical: never in the Arrow input nor the JSON
CREATE TABLE kafka_metadata_computed (
  id BIGINT,
  event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  part INT METADATA FROM 'partition' VIRTUAL,
  name STRING,
  name_len AS CHAR_LENGTH(name),
  price DOUBLE
) WITH (
  'connector' = 'kafka',
  'topic' = 'kafka_metadata_computed',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'id',
  'value.format' = 'json'
);
