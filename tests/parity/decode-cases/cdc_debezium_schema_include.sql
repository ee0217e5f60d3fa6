-- purpose: debezium-json with schema-include = true: the envelope is inside {"schema":...,"payload":...}; a json key with prefix
-- known-differences: 2 (Jackson's name cache: a short field name with an invalid UTF-8 byte can read as a name seen in an earlier record of the JVM; kjson refuses that record)
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
