-- purpose: MULTISET<T> as Map<T, Int32> (element -> count), top level, NOT NULL elements, nested in ROW and ARRAY
CREATE TABLE types_multiset (
  ms MULTISET<STRING>,
  ms_nn MULTISET<VARCHAR(10) NOT NULL>,
  ms_char MULTISET<CHAR(2)> NOT NULL,
  ms_row ROW<tags MULTISET<STRING>, n INT>,
  ms_arr ARRAY<MULTISET<STRING>>
) WITH (
  'connector' = 'kafka',
  'topic' = 'types_multiset',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
