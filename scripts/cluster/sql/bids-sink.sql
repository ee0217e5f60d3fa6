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
  'properties.transaction.timeout.ms' = '600000',
  'key.format' = 'json',
  'key.fields' = 'id',
  'value.format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '@PREFIX@'
);
