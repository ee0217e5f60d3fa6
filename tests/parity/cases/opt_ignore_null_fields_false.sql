-- purpose: json.encode.ignore-null-fields = false stated explicitly: null fields written as null everywhere
CREATE TABLE opt_ignore_null_fields_false (
  a INT,
  r ROW<x INT, z ROW<p DOUBLE, q BOOLEAN>>,
  arr ARRAY<ROW<x INT, y STRING>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'opt_ignore_null_fields_false',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.encode.ignore-null-fields' = 'false'
);
