-- A decimal-heavy sink: ledger entries with five DECIMAL columns of various precision and scale,
-- appended to Kafka as JSON. Benchmarks decimal writing (`kjson bench --query ledger`).
CREATE TABLE ledger (
  id BIGINT,
  amount DECIMAL(12, 2),
  unit_price DECIMAL(18, 6),
  rate DECIMAL(7, 5),
  balance DECIMAL(38, 18),
  quantity DECIMAL(10, 0)
) WITH (
  'connector' = 'kafka',
  'topic' = 'ledger',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
