CREATE TEMPORARY TABLE @TABLE@ (
  k BIGINT,
  n BIGINT,
  label STRING,
  third DOUBLE,
  PRIMARY KEY (k) NOT ENFORCED
) WITH (
  'connector' = '@UPSERT_CONNECTOR@',
  'topic' = '@TOPIC@',
  'properties.bootstrap.servers' = '@BOOTSTRAP@',
  'properties.transaction.timeout.ms' = '600000',
  'key.format' = 'json',
  'value.format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '@PREFIX@'
);
