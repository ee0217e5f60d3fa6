-- purpose: every scalar type a DDL can declare, at top level (nullable and NOT NULL), kafka json without key (INTERVAL: see types_intervals)
CREATE TABLE types_scalars (
  b BOOLEAN,
  b_nn BOOLEAN NOT NULL,
  ti TINYINT,
  si SMALLINT,
  i INT,
  i_nn INT NOT NULL,
  bi BIGINT,
  f FLOAT,
  d DOUBLE,
  dec_10_2 DECIMAL(10, 2),
  dec_38_18 DECIMAL(38, 18),
  dec_default DECIMAL,
  ch CHAR(5),
  vc VARCHAR(20),
  s STRING,
  s_nn STRING NOT NULL,
  bin BINARY(4),
  vbin VARBINARY(10),
  bytes_col BYTES,
  dt DATE,
  tm TIME,
  ts TIMESTAMP,
  ltz TIMESTAMP_LTZ
) WITH (
  'connector' = 'kafka',
  'topic' = 'types_scalars',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
