-- The README's Flink SQL example as scripts/quickstart.sh runs it (@...@ is filled in by the
-- script): the same sink table, on CONNECTOR. The README's random datagen source becomes its five
-- columns computed from one datagen sequence, so that the 'kafka' and the 'kjson-kafka' run write
-- the same rows and their records can be compared; the source is not rate-limited.
SET 'parallelism.default' = '1';
SET 'table.dml-sync' = 'false';
SET 'pipeline.name' = '@JOB@';

CREATE TEMPORARY TABLE bid_numbers (id BIGINT) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '100000000',
  'fields.id.kind' = 'sequence',
  'fields.id.start' = '1',
  'fields.id.end' = '@ROWS@'
);

CREATE TEMPORARY VIEW bid AS SELECT
  id % 10007 AS auction,
  id * 7919 % 100003 AS bidder,
  id % 100000 AS price,
  CAST(TO_TIMESTAMP_LTZ(1767225600000 + id * 37, 3) AS TIMESTAMP(3)) AS `dateTime`,
  CONCAT('bid ', CAST(id AS STRING), ' "extra" ', REPEAT('abcdefghij', 8)) AS extra
FROM bid_numbers;

CREATE TABLE nexmark_q0 (auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3), extra STRING)
WITH (
  'connector' = '@CONNECTOR@',
  'topic' = '@TOPIC@',
  'properties.bootstrap.servers' = '@BOOTSTRAP@',
  'properties.batch.size' = '524288',
  'properties.linger.ms' = '20',
  'properties.transaction.timeout.ms' = '900000',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '@TOPIC@',
  'format' = 'json'
);

SET 'execution.checkpointing.interval' = '10 s';
INSERT INTO nexmark_q0 SELECT * FROM bid;
