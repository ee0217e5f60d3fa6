-- purpose: Nexmark q9 winning-bids sink as upsert-kafka with PRIMARY KEY (id), LTZ times as in the StreamFusion harness
CREATE TABLE nexmark_q9 (
  id BIGINT,
  itemName VARCHAR,
  description VARCHAR,
  initialBid BIGINT,
  reserve BIGINT,
  `dateTime` TIMESTAMP_LTZ(3),
  expires TIMESTAMP_LTZ(3),
  seller BIGINT,
  category BIGINT,
  extra VARCHAR,
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  bid_dateTime TIMESTAMP_LTZ(3),
  bid_extra VARCHAR,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'nexmark_q9',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'value.format' = 'json',
  'properties.batch.size' = '524288',
  'properties.linger.ms' = '20'
);
