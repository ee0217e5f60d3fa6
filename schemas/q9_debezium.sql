-- Nexmark q9 (winning bid per auction) as a changelog: the same columns as q9.sql through the
-- plain `kafka` connector with a `debezium-json` value, so updates and retractions travel as
-- Debezium envelopes ({"before":null,"after":{...},"op":"c"} / {"before":{...},"after":null,
-- "op":"d"}) instead of upsert tombstones. Keyed by the auction id.
CREATE TABLE nexmark_q9_debezium (
  id BIGINT,
  itemName VARCHAR,
  description VARCHAR,
  initialBid BIGINT,
  reserve BIGINT,
  `dateTime` TIMESTAMP(3),
  expires TIMESTAMP(3),
  seller BIGINT,
  category BIGINT,
  extra VARCHAR,
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  bid_dateTime TIMESTAMP(3),
  bid_extra VARCHAR,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'kafka',
  'topic' = 'nexmark_q9_debezium',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.fields' = 'id',
  'value.format' = 'debezium-json'
);
