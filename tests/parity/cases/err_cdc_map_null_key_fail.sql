-- purpose: debezium-json with map-null-key.mode FAIL (default) and null keys in the data: Flink fails at runtime inside the envelope
-- expect: error
-- oracle: null-map-keys
CREATE TABLE err_cdc_map_null_key_fail (
  id INT,
  r ROW<m MAP<STRING, INT>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_cdc_map_null_key_fail',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'debezium-json'
);
