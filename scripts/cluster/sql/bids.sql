-- A Nexmark-like bid stream computed from one datagen sequence, so that every run (and every
-- connector) produces the same rows. Doubles, decimals, timestamps, nulls and characters that need
-- escaping are all present.
CREATE TEMPORARY TABLE bid_numbers (id BIGINT) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '@RATE@',
  'fields.id.kind' = 'sequence',
  'fields.id.start' = '1',
  'fields.id.end' = '@ROWS@'
);

CREATE TEMPORARY VIEW bids AS SELECT
  id,
  id % 10007 AS auction,
  CONCAT('bidder-', CAST(id * 7919 % 100003 AS STRING)) AS bidder,
  CAST(CAST(id % 100000 AS DECIMAL(12, 2)) / 100 AS DECIMAL(12, 2)) AS price,
  CAST(id AS DOUBLE) / 7 AS ratio,
  CASE WHEN id % 5 = 0 THEN 'Google' WHEN id % 5 = 1 THEN 'Facebook' WHEN id % 5 = 2 THEN 'Baidu' ELSE 'Apple' END AS channel,
  CASE WHEN id % 11 = 0 THEN CAST(NULL AS STRING)
       ELSE CONCAT('https://www.nexmark.com/', CAST(id % 97 AS STRING), '/item.htm?q="é\t', CAST(id % 13 AS STRING), '"') END AS url,
  -- 2026-01-01 00:00:00 UTC plus (id % 1000000) * 37 ms, in the session's time zone (Flink 1.20
  -- cannot add milliseconds with TIMESTAMPADD).
  CAST(TO_TIMESTAMP_LTZ(1767225600000 + id % 1000000 * 37, 3) AS TIMESTAMP(3)) AS date_time,
  id % 2 = 0 AS even
FROM bid_numbers;
