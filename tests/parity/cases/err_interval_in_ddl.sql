-- purpose: Flink's SQL parser has no INTERVAL column types in CREATE TABLE (types_intervals covers the encoder via the Table API)
-- expect: error
CREATE TABLE err_interval_in_ddl (
  id INT,
  ym INTERVAL YEAR TO MONTH
) WITH (
  'connector' = 'kafka',
  'topic' = 'err_interval_in_ddl',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
