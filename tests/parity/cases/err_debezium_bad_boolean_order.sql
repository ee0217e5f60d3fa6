-- purpose: bad schema-include and bad encode.decimal-as-plain-number of debezium-json: which one Flink reports first
-- expect: error
CREATE TABLE err_debezium_bad_boolean_order (
  id BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_debezium_bad_boolean_order',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'debezium-json',
  'debezium-json.schema-include' = 'yes',
  'debezium-json.encode.decimal-as-plain-number' = 'no'
);
