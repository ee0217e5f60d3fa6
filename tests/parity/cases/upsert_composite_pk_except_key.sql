-- purpose: upsert-kafka with composite PK declared out of schema order (k_b, k_a), key prefix 'k_', value EXCEPT_KEY, tombstones
CREATE TABLE upsert_composite_pk_except_key (
  k_a INT,
  payload STRING,
  k_b STRING,
  nested ROW<x INT, y ARRAY<DECIMAL(6, 2)>>,
  PRIMARY KEY (k_b, k_a) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'upsert_composite_pk_except_key',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields-prefix' = 'k_',
  'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY'
);
