-- purpose: two bad booleans of maxwell-json: Flink reads the format's options in its HashSet order, so one of them is reported
-- expect: error
CREATE TABLE err_cdc_bad_boolean_order (
  id BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_cdc_bad_boolean_order',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'maxwell-json',
  'maxwell-json.ignore-parse-errors' = 'maybe',
  'maxwell-json.encode.ignore-null-fields' = 'perhaps'
);
