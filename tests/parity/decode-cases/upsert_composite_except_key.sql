-- purpose: upsert-kafka, composite PRIMARY KEY out of schema order, key prefix, value EXCEPT_KEY, ignore-parse-errors on the value
-- known-differences: 3 (as json_ignore_parse_errors: where the converters lose their place after a nesting-depth error under ignore-parse-errors)
CREATE TABLE upsert_composite_except_key (
  k_tenant STRING,
  amount DECIMAL(20, 4),
  k_id INT,
  note STRING,
  attrs MAP<STRING, STRING>,
  PRIMARY KEY (k_id, k_tenant) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'upsert_composite_except_key',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields-prefix' = 'k_',
  'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY',
  'value.json.ignore-parse-errors' = 'true'
);
