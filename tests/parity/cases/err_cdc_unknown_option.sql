-- purpose: ogg-json has no schema-include: the left-over option is reported with the ogg-json option list
-- expect: error
CREATE TABLE err_cdc_unknown_option (
  id BIGINT
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_cdc_unknown_option',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'ogg-json',
  'ogg-json.schema-include' = 'false'
);
