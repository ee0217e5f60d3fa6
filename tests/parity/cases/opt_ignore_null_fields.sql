-- purpose: json.encode.ignore-null-fields = true drops null ROW fields at every depth, never array elements or map values
CREATE TABLE opt_ignore_null_fields (
  a INT,
  b STRING,
  r ROW<x INT, y STRING, z ROW<p DOUBLE, q BOOLEAN>>,
  arr ARRAY<ROW<x INT, y STRING>>,
  m MAP<STRING, ROW<x INT, y STRING>>,
  arr_plain ARRAY<INT>,
  m_plain MAP<STRING, STRING>
) WITH (
  'connector' = 'kafka',
  'topic' = 'opt_ignore_null_fields',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.encode.ignore-null-fields' = 'true'
);
