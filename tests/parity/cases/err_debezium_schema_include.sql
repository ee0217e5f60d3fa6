-- purpose: debezium-json.schema-include = 'true' is refused for sinks (the message names 'debezium-json.schema-include' even under value.)
-- expect: error
CREATE TABLE err_debezium_schema_include (
  id BIGINT,
  v STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_debezium_schema_include',
  'properties.bootstrap.servers' = 'localhost:9092',
  'value.format' = 'debezium-json',
  'value.debezium-json.schema-include' = 'true'
);
