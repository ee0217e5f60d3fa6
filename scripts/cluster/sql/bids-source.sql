-- The bid stream read back from a topic written by bids-sink.sql (the same columns, key and value
-- formats), from the earliest offset up to the end offsets found at the start, so the job ends.
-- FETCH_MIN_BYTES and FETCH_WAIT_MS can slow the reader down: with a minimum above what one fetch
-- may return (16 KB per partition), the broker answers every fetch only after FETCH_WAIT_MS, so a
-- kill or a savepoint lands while the source is mid-topic. Fetch sizes do not change the records.
CREATE TEMPORARY TABLE @TABLE@ (
  id BIGINT,
  auction BIGINT,
  bidder STRING,
  price DECIMAL(12, 2),
  ratio DOUBLE,
  channel STRING,
  url STRING,
  date_time TIMESTAMP(3),
  even BOOLEAN
) WITH (
  'connector' = '@CONNECTOR@',
  'topic' = '@TOPIC@',
  'properties.bootstrap.servers' = '@BOOTSTRAP@',
  'properties.group.id' = '@GROUP@',
  'properties.isolation.level' = 'read_committed',
  'properties.max.partition.fetch.bytes' = '16384',
  'properties.fetch.min.bytes' = '@FETCH_MIN_BYTES@',
  'properties.fetch.max.wait.ms' = '@FETCH_WAIT_MS@',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'json',
  'key.fields' = 'id',
  'value.format' = 'json'
);
