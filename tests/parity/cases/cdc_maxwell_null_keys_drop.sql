-- purpose: maxwell-json with map-null-key.mode DROP (lower case) and nested maps/multisets, ignore-null-fields off
CREATE TABLE cdc_maxwell_null_keys_drop (
  id INT NOT NULL,
  m MAP<STRING, INT>,
  ms MULTISET<STRING>,
  r ROW<mm MAP<STRING, MAP<STRING, BOOLEAN>>, arr ARRAY<MAP<STRING, BIGINT>>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_maxwell_null_keys_drop',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'maxwell-json',
  'maxwell-json.map-null-key.mode' = 'drop'
);
