-- purpose: upsert-kafka, composite PK, value ALL, key and value json options set separately (ignore-null, ISO, LITERAL)
CREATE TABLE upsert_all_options (
  tenant STRING,
  id BIGINT,
  attrs MAP<STRING, STRING>,
  seen TIMESTAMP_LTZ(6),
  info ROW<a INT, b STRING>,
  PRIMARY KEY (tenant, id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'upsert_all_options',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'key.json.encode.ignore-null-fields' = 'true',
  'value.format' = 'json',
  'value.fields-include' = 'ALL',
  'value.json.timestamp-format.standard' = 'ISO-8601',
  'value.json.encode.ignore-null-fields' = 'true',
  'value.json.map-null-key.mode' = 'LITERAL',
  'value.json.map-null-key.literal' = '∅'
);
