-- TIMESTAMP_LTZ inside rows, arrays and maps (Arrow cannot tell it from TIMESTAMP; only the
-- logical type adds the `Z`), with nested NOT NULL fields, a MULTISET, and the value side's
-- `encode.ignore-null-fields` and LITERAL null map keys. The key is the NOT NULL `id`.
CREATE TABLE nested (
  id INT NOT NULL,
  r ROW<ltz TIMESTAMP_LTZ(3), ts TIMESTAMP(3), n INT NOT NULL, s STRING>,
  ltz_arr ARRAY<TIMESTAMP_LTZ(6)>,
  ts_arr ARRAY<TIMESTAMP(6) NOT NULL>,
  ltz_map MAP<STRING, TIMESTAMP_LTZ(0)>,
  deep MAP<STRING, ARRAY<ROW<at_ts TIMESTAMP_LTZ(3), plain TIMESTAMP(0), tags ARRAY<STRING>>>>,
  words MULTISET<STRING>,
  note STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'nested',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'value.format' = 'json',
  'value.json.encode.ignore-null-fields' = 'true',
  'value.json.map-null-key.mode' = 'LITERAL',
  'value.json.map-null-key.literal' = 'null-key'
);
