-- purpose: mode given in lower case ('literal' is accepted case-insensitively) with the default literal "null"
CREATE TABLE opt_map_null_key_literal_default (
  m MAP<STRING, BIGINT>,
  ms MULTISET<VARCHAR(5)>
) WITH (
  'connector' = 'kafka',
  'topic' = 'opt_map_null_key_literal_default',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.map-null-key.mode' = 'literal'
);
