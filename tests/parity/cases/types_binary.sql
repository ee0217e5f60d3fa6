-- purpose: BINARY(n) as FixedSizeBinary, VARBINARY(n) and BYTES as Binary, Base64 with padding, nested
CREATE TABLE types_binary (
  b1 BINARY(1),
  b2 BINARY(2),
  b3 BINARY(3),
  b16 BINARY(16),
  b_nn BINARY(5) NOT NULL,
  vb3 VARBINARY(3),
  vb40 VARBINARY(40),
  bytes_v BYTES,
  by_arr ARRAY<BYTES>,
  bin_map MAP<STRING, BINARY(7)>,
  bin_row ROW<x VARBINARY(9), y BINARY(4)>
) WITH (
  'connector' = 'kafka',
  'topic' = 'types_binary',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
