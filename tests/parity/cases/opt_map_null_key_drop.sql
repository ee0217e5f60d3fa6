-- purpose: json.map-null-key.mode = DROP removes null-key entries of maps and multisets at every depth
CREATE TABLE opt_map_null_key_drop (
  m MAP<STRING, INT>,
  m_nested ROW<inner_map MAP<VARCHAR(20), STRING>>,
  m_arr ARRAY<MAP<STRING, DOUBLE>>,
  ms MULTISET<STRING>,
  m_nn_key MAP<STRING NOT NULL, INT>
) WITH (
  'connector' = 'kafka',
  'topic' = 'opt_map_null_key_drop',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.map-null-key.mode' = 'DROP'
);
