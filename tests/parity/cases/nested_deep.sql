-- purpose: nesting to depth >= 3 (ROW in ARRAY in MAP values, ARRAY of ARRAY of ARRAY, ROW in ROW in ROW, MAP in ARRAY)
CREATE TABLE nested_deep (
  id BIGINT NOT NULL,
  m_arr_row MAP<STRING, ARRAY<ROW<a INT, ts TIMESTAMP_LTZ(3), inner_row ROW<m MAP<STRING, ARRAY<DOUBLE>>, t TIME(3)>>>>,
  arr3 ARRAY<ARRAY<ARRAY<INT>>>,
  r3 ROW<r2 ROW<r1 ROW<x STRING, y DECIMAL(10, 3)>, d DATE>, b BOOLEAN>,
  arr_map ARRAY<MAP<STRING, ROW<k BIGINT, v VARBINARY(8)>>>,
  map_map MAP<STRING, MAP<STRING, MULTISET<STRING>>>,
  row_arr ROW<items ARRAY<ROW<name STRING, qty INT NOT NULL, tags ARRAY<STRING>>> NOT NULL, note STRING>
) WITH (
  'connector' = 'kafka',
  'topic' = 'nested_deep',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
