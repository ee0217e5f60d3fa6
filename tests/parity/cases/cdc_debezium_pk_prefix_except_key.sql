-- purpose: kafka + debezium-json accepts a PRIMARY KEY (not insert-only); key prefix 'k_', value EXCEPT_KEY, composite key out of schema order
CREATE TABLE cdc_debezium_pk_prefix_except_key (
  k_region STRING,
  payload ROW<n INT, tags ARRAY<STRING>, m MAP<STRING, DOUBLE>>,
  k_id BIGINT,
  amount DECIMAL(20, 6),
  seen TIMESTAMP_LTZ(6),
  PRIMARY KEY (k_id, k_region) NOT ENFORCED
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_debezium_pk_prefix_except_key',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'k_id;k_region',
  'key.fields-prefix' = 'k_',
  'value.format' = 'debezium-json',
  'value.fields-include' = 'EXCEPT_KEY'
);
