-- Every @EVERY@th bid into the metadata sink: the timestamp from the id (never null: a null one
-- would be the producer's send time), headers with bytes that are not text, an empty value, an
-- entry with a null value (left out) and, on every 7th row, no headers at all.
INSERT INTO @TABLE@
SELECT
  id,
  TO_TIMESTAMP_LTZ(1767225600000 + id * 37, 3),
  bidder,
  CASE WHEN id % 7 = 0 THEN CAST(NULL AS MAP<STRING, BYTES>)
       ELSE MAP[CAST('trace' AS STRING), CAST(CONCAT('trace-', CAST(id AS STRING)) AS BYTES),
                CAST('bin' AS STRING), CASE WHEN id % 3 = 0 THEN X'00ff' ELSE X'ff00' END,
                CAST('empty' AS STRING), CAST('' AS BYTES),
                CAST('none' AS STRING), CAST(NULL AS BYTES)] END,
  price
FROM bids
WHERE id % @EVERY@ = 1;
