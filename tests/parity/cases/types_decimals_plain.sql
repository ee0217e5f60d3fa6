-- purpose: DECIMAL(p,s) across precisions and scales with encode.decimal-as-plain-number = true (declared scale in 2.x, stripped in 1.20)
CREATE TABLE types_decimals_plain (
  d1_0 DECIMAL(1, 0),
  d1_1 DECIMAL(1, 1),
  d5_0 DECIMAL(5, 0),
  d10_0 DECIMAL(10, 0),
  d10_2 DECIMAL(10, 2),
  d10_8 DECIMAL(10, 8),
  d18_0 DECIMAL(18, 0),
  d18_9 DECIMAL(18, 9),
  d19_4 DECIMAL(19, 4),
  d38_0 DECIMAL(38, 0),
  d38_2 DECIMAL(38, 2),
  d38_12 DECIMAL(38, 12),
  d38_37 DECIMAL(38, 37),
  d38_38 DECIMAL(38, 38),
  d_nn DECIMAL(12, 3) NOT NULL,
  d_arr ARRAY<DECIMAL(20, 10)>,
  d_row ROW<a DECIMAL(9, 9), b DECIMAL(30, 0)>
) WITH (
  'connector' = 'kafka',
  'topic' = 'types_decimals_plain',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.encode.decimal-as-plain-number' = 'true'
);
