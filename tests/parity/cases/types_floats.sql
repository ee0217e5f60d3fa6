-- purpose: FLOAT and DOUBLE spellings (NaN/Infinity quoted, subnormals, 1e7 boundary, JDK 17 vs 19+ digits), nested
CREATE TABLE types_floats (
  f1 FLOAT,
  f2 FLOAT,
  f_nn FLOAT NOT NULL,
  d1 DOUBLE,
  d2 DOUBLE,
  d_nn DOUBLE NOT NULL,
  f_arr ARRAY<FLOAT>,
  d_arr ARRAY<DOUBLE NOT NULL>,
  fd_map MAP<STRING, ROW<f FLOAT, d DOUBLE>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'types_floats',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
