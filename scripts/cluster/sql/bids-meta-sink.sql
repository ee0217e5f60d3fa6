-- The bid stream with writable metadata: the record timestamp and headers come from the row.
CREATE TEMPORARY TABLE @TABLE@ (
  id BIGINT,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  bidder STRING,
  headers MAP<STRING, BYTES> METADATA,
  price DECIMAL(12, 2)
) WITH (
  'connector' = '@CONNECTOR@',
  'topic' = '@TOPIC@',
  'properties.bootstrap.servers' = '@BOOTSTRAP@',
  'properties.transaction.timeout.ms' = '600000',
  'key.format' = 'json',
  'key.fields' = 'id',
  'value.format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '@PREFIX@'
);
