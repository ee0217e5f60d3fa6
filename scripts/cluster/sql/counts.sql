-- A changelog: a count per key, kept only while it is not a multiple of 3, so the upsert sink
-- receives inserts, updates and deletes (tombstones). Per key the sequence of changes depends only
-- on how many rows the key gets, never on the order they arrive in.
CREATE TEMPORARY TABLE count_numbers (id BIGINT) WITH (
  'connector' = 'datagen',
  'rows-per-second' = '@UPSERT_RATE@',
  'fields.id.kind' = 'sequence',
  'fields.id.start' = '1',
  'fields.id.end' = '@UPSERT_ROWS@'
);

CREATE TEMPORARY VIEW counts AS
SELECT k, n, CONCAT('count "', CAST(n AS STRING), '"') AS label, CAST(n AS DOUBLE) / 3 AS third
FROM (SELECT id % @KEYS@ AS k, COUNT(*) AS n FROM count_numbers GROUP BY id % @KEYS@)
WHERE n % 3 <> 0;
