-- purpose: an unknown json.* option is rejected by option validation
-- expect: error
CREATE TABLE err_unknown_json_option (
  id BIGINT
) WITH (
  'topic' = 'err_unknown_json_option',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'format' = 'json',
  'json.encode.no-such-option' = 'true'
);
