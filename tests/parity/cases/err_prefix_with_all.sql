-- purpose: key.fields-prefix together with value.fields-include ALL is rejected by the kafka factory
-- expect: error
CREATE TABLE err_prefix_with_all (
  k_id BIGINT,
  v STRING
) WITH (
  'topic' = 'err_prefix_with_all',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'key.format' = 'json',
  'key.fields' = 'k_id',
  'key.fields-prefix' = 'k_',
  'value.format' = 'json',
  'value.fields-include' = 'ALL'
);
