-- purpose: ROW / ARRAY / MAP / MULTISET nested to depth 3, NOT NULL inside, kafka json value only
CREATE TABLE json_nested (
  id BIGINT,
  r ROW<a INT, b ROW<c STRING, d ARRAY<ROW<e DOUBLE, f BOOLEAN>>>, g MAP<STRING, ARRAY<INT>>>,
  arr ARRAY<ARRAY<ARRAY<BIGINT>>>,
  arr_nn ARRAY<INT NOT NULL>,
  m MAP<STRING, MAP<STRING, ROW<x DECIMAL(12, 3), y TIMESTAMP(3)>>>,
  ms MULTISET<STRING>,
  r_nn ROW<p STRING NOT NULL, q ARRAY<BYTES>> NOT NULL
) WITH (
  'connector' = 'kafka',
  'topic' = 'json_nested',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'format' = 'json'
);
