-- purpose: MULTISET of a non-string element type cannot be encoded by the json format
-- expect: error
CREATE TABLE err_non_string_multiset (
  ms MULTISET<INT>
) WITH (
  'topic' = 'err_non_string_multiset',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'format' = 'json'
);
