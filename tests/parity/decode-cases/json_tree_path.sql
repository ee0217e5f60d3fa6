-- purpose: json.decode.json-parser.enabled = false selects the JsonNode (tree) path on 2.x; 1.20 has no such option
-- expect: error on 1.20
CREATE TABLE json_tree_path (
  id INT,
  s STRING,
  f FLOAT,
  d DOUBLE,
  dc DECIMAL(10, 2),
  ts TIMESTAMP(3),
  r ROW<a INT, b STRING>,
  arr ARRAY<STRING>,
  m MAP<STRING, INT>
) WITH (
  'connector' = 'kafka',
  'topic' = 'json_tree_path',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json',
  'json.decode.json-parser.enabled' = 'false'
);
