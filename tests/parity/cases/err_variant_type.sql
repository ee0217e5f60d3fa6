-- purpose: VARIANT (Flink 2.1+; unknown type in 1.20) cannot be encoded by the json format
-- expect: error
-- message-lines: 2.2 2.3 (Flink 1.20's SQL parser stops earlier: Unknown identifier 'VARIANT'; kjson parses every line's types alike)
-- message-elsewhere: Not support to parse type: VARIANT
CREATE TABLE err_variant_type (
  id INT,
  v VARIANT
) WITH (
  'topic' = 'err_variant_type',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'format' = 'json'
);
