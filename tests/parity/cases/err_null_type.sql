-- purpose: Flink's DDL grammar has no NULL column type (the json encoder would also refuse NULL fields)
-- expect: error
CREATE TABLE err_null_type (
  id INT,
  nothing NULL
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_null_type',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
