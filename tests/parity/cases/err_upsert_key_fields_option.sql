-- purpose: upsert-kafka does not accept the key.fields option (the key is the PRIMARY KEY)
-- expect: error
CREATE TABLE err_upsert_key_fields_option (
  id BIGINT,
  v STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'topic' = 'err_upsert_key_fields_option',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'upsert-kafka',
  'key.format' = 'json',
  'key.fields' = 'id',
  'value.format' = 'json'
);
