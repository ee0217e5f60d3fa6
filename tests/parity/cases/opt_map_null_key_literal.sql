-- purpose: map-null-key.mode LITERAL with a literal holding quotes, backslash, a real newline and an emoji; collisions with real keys
CREATE TABLE opt_map_null_key_literal (
  m MAP<STRING, INT>,
  m_row MAP<STRING, ROW<a INT, b STRING>>,
  nested ROW<mm MAP<STRING, ARRAY<STRING>>>,
  ms MULTISET<STRING>
) WITH (
  'connector' = 'kafka',
  'topic' = 'opt_map_null_key_literal',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.map-null-key.mode' = 'LITERAL',
  'json.map-null-key.literal' = 'nu"ll\k''ey
😀'
);
