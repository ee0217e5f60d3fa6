-- purpose: the json format refuses a map (or multiset) whose key is not a string, at source creation
-- expect: error
CREATE TABLE err_non_string_map_key (
  m MAP<INT, STRING>
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_non_string_map_key',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json'
);
