-- purpose: key.fields-prefix strips 'k_' from key JSON names; key.fields out of schema order; value EXCEPT_KEY keeps the rest in schema order
CREATE TABLE kafka_key_prefix_except_key (
  k_region STRING,
  amount DECIMAL(10, 2),
  k_id BIGINT,
  payload ROW<k_inner INT, note STRING>,
  k_day DATE
) WITH (
  'connector' = 'kafka',
  'topic' = 'kafka_key_prefix_except_key',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'k_id;k_region;k_day',
  'key.fields-prefix' = 'k_',
  'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY'
);
