-- purpose: key.fields naming a column that does not exist is rejected
-- expect: error
CREATE TABLE err_unknown_key_field (
  id BIGINT,
  v STRING
) WITH (
  'topic' = 'err_unknown_key_field',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'key.format' = 'json',
  'key.fields' = 'nope',
  'value.format' = 'json'
);
