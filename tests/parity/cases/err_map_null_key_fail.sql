-- purpose: map-null-key.mode FAIL (default) with null keys in the data: Flink fails at runtime with a nested message chain
-- expect: error
-- oracle: null-map-keys
CREATE TABLE err_map_null_key_fail (
  id INT,
  r ROW<m MAP<STRING, INT>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_map_null_key_fail',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.map-null-key.mode' = 'FAIL'
);
