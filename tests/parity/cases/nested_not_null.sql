-- purpose: NOT NULL nested types (elements, map values, row fields, whole columns) next to nullable ones
CREATE TABLE nested_not_null (
  arr ARRAY<INT NOT NULL> NOT NULL,
  arr_nullable ARRAY<INT NOT NULL>,
  m MAP<STRING NOT NULL, BIGINT NOT NULL>,
  r ROW<a INT NOT NULL, b STRING> NOT NULL,
  rr ARRAY<ROW<x DOUBLE NOT NULL, y ARRAY<STRING NOT NULL>> NOT NULL>
) WITH (
  'connector' = 'kafka',
  'topic' = 'nested_not_null',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
