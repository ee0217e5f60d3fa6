-- purpose: debezium-json with schema-include = true: the envelope is inside {"schema":...,"payload":...}; a json key with prefix
CREATE TABLE cdc_debezium_schema_include (
  k_id INT,
  name STRING,
  amount DOUBLE,
  dt DATE
) WITH (
  'connector' = 'kafka',
  'topic' = 'cdc_debezium_schema_include',
  'properties.bootstrap.servers' = 'localhost:9092',
  'scan.startup.mode' = 'earliest-offset',
  'key.format' = 'json',
  'key.fields' = 'k_id',
  'key.fields-prefix' = 'k_',
  'value.format' = 'debezium-json',
  'value.fields-include' = 'EXCEPT_KEY',
  'value.debezium-json.schema-include' = 'true'
);
