-- purpose: column and nested field names that need JSON escaping (quote, backslash, tab, non-ASCII, emoji, backtick)
CREATE TABLE field_names_escapes (
  `q"uote` INT,
  `back\slash` STRING,
  `tab	in` BOOLEAN,
  `é` DOUBLE,
  `😀` BIGINT,
  `back``tick` INT,
  `with space/and slash` STRING,
  `nested "row"` ROW<`ü\"` INT, `🎉 x` ARRAY<ROW<`a"b` STRING>>>,
  `line sep nbsp` STRING
) WITH (
  'connector' = 'kafka',
  'topic' = 'field_names_escapes',
  'properties.bootstrap.servers' = 'localhost:9092',
  'format' = 'json'
);
