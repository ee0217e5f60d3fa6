-- purpose: Nexmark q0 pass-through sink (bid columns) as kafka json, append-only
CREATE TABLE nexmark_q0 (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  `dateTime` TIMESTAMP(3),
  extra VARCHAR
) WITH (
  'connector' = 'kafka',
  'topic' = 'nexmark_q0',
  'properties.bootstrap.servers' = 'localhost:9092',
  'sink.partitioner' = 'round-robin',
  'format' = 'json'
);
