-- A float-heavy sink: IoT readings, 8 DOUBLE and 2 FLOAT columns per row, appended to Kafka as
-- JSON. Benchmarks the Java float spellings (`kjson bench --query sensor`).
CREATE TABLE sensor (
  id BIGINT,
  temperature DOUBLE,
  humidity DOUBLE,
  pressure DOUBLE,
  voltage DOUBLE,
  current_a DOUBLE,
  power_w DOUBLE,
  latitude DOUBLE,
  longitude DOUBLE,
  battery FLOAT,
  signal_dbm FLOAT
) WITH (
  'connector' = 'kafka',
  'topic' = 'sensor',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
