-- purpose: TIMESTAMP(3) WITH TIME ZONE is not supported
-- expect: error
CREATE TABLE err_timestamp_with_time_zone (
  id INT,
  tz TIMESTAMP(3) WITH TIME ZONE
) WITH (
  'topic' = 'err_timestamp_with_time_zone',
  'properties.bootstrap.servers' = 'localhost:9092',
  'connector' = 'kafka',
  'format' = 'json'
);
