-- purpose: an unknown map-null-key.mode value is rejected
-- expect: error
CREATE TABLE err_bad_map_null_key_mode (
  m MAP<STRING, INT>
) WITH (
  'topic' = 'err_bad_map_null_key_mode',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'format' = 'json',
  'json.map-null-key.mode' = 'IGNORE'
);
