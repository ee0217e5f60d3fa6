-- purpose: two bad booleans of json (fail-on-missing-field, encode.decimal-as-plain-number): which one Flink reports first
-- expect: error
CREATE TABLE err_json_bad_boolean_order (
  id BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_json_bad_boolean_order',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json',
  'json.fail-on-missing-field' = 'maybe',
  'json.encode.decimal-as-plain-number' = 'perhaps'
);
