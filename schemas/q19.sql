-- Nexmark q19 (top-10 bids per auction): an updating result, written to Kafka as upserts keyed
-- by (auction, rank_number) (retractions become tombstones).
-- Columns as upstream nexmark-flink queries/q19.sql; the Kafka options as the StreamFusion
-- NexmarkMatrixBenchmark harness sets them. That harness types `dateTime` as TIMESTAMP_LTZ(3),
-- whose SQL-format values end in 'Z'; upstream's TIMESTAMP(3) is kept here.
CREATE TABLE nexmark_q19 (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel VARCHAR,
  url VARCHAR,
  `dateTime` TIMESTAMP(3),
  extra VARCHAR,
  rank_number BIGINT,
  PRIMARY KEY (auction, rank_number) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'nexmark_q19',
  'properties.bootstrap.servers' = 'localhost:9092',
  'properties.batch.size' = '524288',
  'properties.linger.ms' = '20',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = 'nexmark-q19',
  'key.format' = 'json',
  'value.format' = 'json'
);
