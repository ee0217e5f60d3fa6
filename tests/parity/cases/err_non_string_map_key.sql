-- purpose: MAP with a non-string key type cannot be encoded by the json format
-- expect: error
CREATE TABLE err_non_string_map_key (
  id INT,
  m MAP<INT, STRING>
) WITH (
  'topic' = 'err_non_string_map_key',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'format' = 'json'
);
