-- purpose: upsert-kafka rejects a value format that is not insert-only (debezium-json)
-- expect: error
CREATE TABLE err_upsert_cdc_value_format (
  id BIGINT,
  v STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'topic' = 'err_upsert_cdc_value_format',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'upsert-kafka',
  'key.format' = 'json',
  'value.format' = 'debezium-json'
);
