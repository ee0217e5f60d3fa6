-- purpose: Nexmark q19 top-10 bids sink as upsert-kafka with PRIMARY KEY (auction, rank_number)
CREATE TABLE nexmark_q19 (
  auction BIGINT,
  bidder BIGINT,
  price BIGINT,
  channel VARCHAR,
  url VARCHAR,
  `dateTime` TIMESTAMP(3),
  extra VARCHAR,
  rank_number BIGINT,
  PRIMARY KEY (auction, rank_number) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'nexmark_q19',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'value.format' = 'json'
);
