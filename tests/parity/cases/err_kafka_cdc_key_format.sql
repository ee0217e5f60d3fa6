-- purpose: kafka refuses a key format that is not insert-only (canal-json as key.format)
-- expect: error
CREATE TABLE err_kafka_cdc_key_format (
  id BIGINT,
  v STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_kafka_cdc_key_format',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'canal-json',
  'key.fields' = 'id',
  'value.format' = 'debezium-json'
);
