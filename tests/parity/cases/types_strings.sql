-- purpose: CHAR/VARCHAR/STRING over every escape class (quotes, backslash, C0, DEL, U+2028, supplementary), nested
CREATE TABLE types_strings (
  c1 CHAR(1),
  c10 CHAR(10),
  vc1 VARCHAR(1),
  vc300 VARCHAR(300),
  s STRING,
  s_nn STRING NOT NULL,
  s_arr ARRAY<STRING>,
  s_map MAP<STRING, STRING>,
  s_row ROW<a CHAR(3), b VARCHAR(40)>
) WITH (
  'connector' = 'kafka',
  'topic' = 'types_strings',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
