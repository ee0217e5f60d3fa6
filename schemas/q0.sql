-- Nexmark q0 (pass-through): every bid, append-only, written to Kafka as JSON.
-- Columns as upstream nexmark-flink queries/q0.sql; the Kafka options as the StreamFusion
-- NexmarkMatrixBenchmark harness sets them. That harness types `dateTime` as TIMESTAMP_LTZ(3),
-- whose SQL-format values end in 'Z'; upstream's TIMESTAMP(3) is kept here.
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
  'properties.batch.size' = '524288',
  'properties.linger.ms' = '20',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = 'nexmark-q0',
  'format' = 'json'
);
