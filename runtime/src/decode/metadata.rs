//! The changelog formats' readable metadata (`value.*` columns of a Kafka table): the envelope
//! fields each key needs, read by the same tree converter as the envelope (Flink appends them
//! to the envelope's row type), and the value each key gives every row of the message.
//! Keys, types and conversions as Flink's `*JsonDecodingFormat.ReadableMetadata` declare them
//! (the same on 1.20 and 2.2).
use super::failure::Failure;
use super::flink_timestamp;
use super::value::Value;
use crate::error::{KjsonError, Result};
use crate::spec::Format;
use crate::types::{DataType, LogicalType, RowField};

/// One readable metadata key of a changelog format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MetaKey {
    pub key: &'static str,
    /// The envelope field it reads.
    pub field: &'static str,
    field_type: FieldType,
    /// Debezium: the field is in `payload` (not at the root) when `schema-include` is set.
    pub in_payload: bool,
    read: Read,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FieldType {
    String,
    BigInt,
    StringMap,
    IntMap,
    StringArray,
}

/// How the field's value becomes the column's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    AsIs,
    /// A BIGINT times the factor, as epoch milliseconds (TIMESTAMP_LTZ(3)).
    EpochMillis(i64),
    /// A property of a MAP<STRING, STRING> (STRING).
    Property(&'static str),
    /// A property parsed by `Long.parseLong`, as epoch milliseconds.
    PropertyMillis(&'static str),
    /// ogg's `current_ts`: `DateTimeUtils.parseTimestampData(text, "yyyy-MM-dd'T'HH:mm:ss.SSSSSS")`
    /// (TIMESTAMP_LTZ(6)); text it cannot read is null.
    OggPattern,
    /// ogg's `op_ts`: `DateTimeUtils.parseTimestampData(text)` (TIMESTAMP_LTZ(6)); text it cannot
    /// read fails the message.
    DefaultTimestamp,
}

const fn meta(key: &'static str, field: &'static str, field_type: FieldType, in_payload: bool, read: Read) -> MetaKey {
    MetaKey { key, field, field_type, in_payload, read }
}

const DEBEZIUM: &[MetaKey] = &[
    meta("schema", "schema", FieldType::String, false, Read::AsIs),
    meta("ingestion-timestamp", "ts_ms", FieldType::BigInt, true, Read::EpochMillis(1)),
    meta("source.timestamp", "source", FieldType::StringMap, true, Read::PropertyMillis("ts_ms")),
    meta("source.database", "source", FieldType::StringMap, true, Read::Property("db")),
    meta("source.schema", "source", FieldType::StringMap, true, Read::Property("schema")),
    meta("source.table", "source", FieldType::StringMap, true, Read::Property("table")),
    meta("source.properties", "source", FieldType::StringMap, true, Read::AsIs),
];

const CANAL: &[MetaKey] = &[
    meta("database", "database", FieldType::String, true, Read::AsIs),
    meta("table", "table", FieldType::String, true, Read::AsIs),
    meta("sql-type", "sqlType", FieldType::IntMap, true, Read::AsIs),
    meta("pk-names", "pkNames", FieldType::StringArray, true, Read::AsIs),
    meta("ingestion-timestamp", "ts", FieldType::BigInt, true, Read::EpochMillis(1)),
    meta("event-timestamp", "es", FieldType::BigInt, true, Read::EpochMillis(1)),
];

const MAXWELL: &[MetaKey] = &[
    meta("database", "database", FieldType::String, true, Read::AsIs),
    meta("table", "table", FieldType::String, true, Read::AsIs),
    meta("primary-key-columns", "primary_key_columns", FieldType::StringArray, true, Read::AsIs),
    // Maxwell's `ts` is in seconds; Flink multiplies (a Java long: it wraps).
    meta("ingestion-timestamp", "ts", FieldType::BigInt, true, Read::EpochMillis(1000)),
];

const OGG: &[MetaKey] = &[
    meta("table", "table", FieldType::String, true, Read::AsIs),
    meta("primary-keys", "primary_keys", FieldType::StringArray, true, Read::AsIs),
    meta("ingestion-timestamp", "current_ts", FieldType::String, true, Read::OggPattern),
    meta("event-timestamp", "op_ts", FieldType::String, true, Read::DefaultTimestamp),
];

/// The keys (without `value.`) for `format`, in the order of the row Flink produces; refused
/// with the key's name when the format has no such key.
pub(crate) fn keys(format: Format, keys: &[String]) -> Result<Vec<MetaKey>> {
    let (name, known) = match format {
        Format::DebeziumJson => ("debezium-json", DEBEZIUM),
        Format::CanalJson => ("canal-json", CANAL),
        Format::MaxwellJson => ("maxwell-json", MAXWELL),
        Format::OggJson => ("ogg-json", OGG),
        Format::Json => ("json", &[][..]),
    };
    keys.iter()
        .map(|key| {
            if let Some(found) = known.iter().find(|m| m.key == key) {
                return Ok(*found);
            }
            Err(KjsonError::option(format!(
                "metadata column FROM 'value.{key}': '{name}' has no readable metadata '{key}'"
            )))
        })
        .collect()
}

impl MetaKey {
    /// The column's type in the produced row.
    pub(crate) fn output_type(&self) -> DataType {
        match self.read {
            Read::AsIs => self.field_type(),
            Read::Property(_) => string(),
            Read::EpochMillis(_) | Read::PropertyMillis(_) => {
                DataType::nullable(LogicalType::TimestampLtz { precision: 3 })
            }
            Read::OggPattern | Read::DefaultTimestamp => DataType::nullable(LogicalType::TimestampLtz { precision: 6 }),
        }
    }

    fn field_type(&self) -> DataType {
        let nullable = DataType::nullable;
        match self.field_type {
            FieldType::String => string(),
            FieldType::BigInt => nullable(LogicalType::BigInt),
            FieldType::StringMap => nullable(LogicalType::Map { key: Box::new(string()), value: Box::new(string()) }),
            FieldType::IntMap => {
                nullable(LogicalType::Map { key: Box::new(string()), value: Box::new(nullable(LogicalType::Int)) })
            }
            FieldType::StringArray => nullable(LogicalType::Array(Box::new(string()))),
        }
    }

    /// The column's value from the converted envelope field.
    pub(crate) fn read(&self, field: &Value) -> std::result::Result<Value, Failure> {
        let millis = |millis: i64| Value::Timestamp { millis, nano_of_milli: 0 };
        Ok(match (self.read, field) {
            (_, Value::Null) => Value::Null,
            (Read::AsIs, value) => value.clone(),
            (Read::EpochMillis(factor), Value::Int(v)) => millis(v.wrapping_mul(factor)),
            (Read::Property(name), value) => property(value, name),
            (Read::PropertyMillis(name), value) => match property(value, name) {
                Value::Text(text) => millis(parse_long(&text)?),
                _ => Value::Null,
            },
            (Read::OggPattern, Value::Text(text)) => flink_timestamp::parse_with_ogg_pattern(&java_string(text))?,
            (Read::DefaultTimestamp, Value::Text(text)) => flink_timestamp::parse_default(&java_string(text))?,
            (_, other) => return Err(Failure::Fatal(format!("metadata '{}' read {other:?}", self.key))),
        })
    }
}

/// The envelope fields the keys `at` one level need (debezium's payload wrapper has two), each
/// once and after the `existing` ones.
pub(crate) fn envelope_fields(
    metadata: &[MetaKey],
    at: impl Fn(&MetaKey) -> bool,
    existing: &[RowField],
) -> Vec<RowField> {
    let mut fields: Vec<RowField> = Vec::new();
    for m in metadata.iter().filter(|m| at(m)) {
        if !existing.iter().chain(&fields).any(|f| f.name == m.field) {
            fields.push(RowField { name: m.field.to_string(), data_type: m.field_type(), description: None });
        }
    }
    fields
}

fn string() -> DataType {
    DataType::nullable(LogicalType::VarChar { length: crate::types::MAX_LENGTH })
}

/// `GenericMapData.get(key)` on a MAP<STRING, STRING>: null when absent.
fn property(map: &Value, name: &str) -> Value {
    match map {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| matches!(k, Value::Text(t) if t == name.as_bytes()))
            .map_or(Value::Null, |(_, v)| v.clone()),
        _ => Value::Null,
    }
}

/// `StringData.toString`: UTF-8 decoded, a malformed sequence replaced.
fn java_string(text: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(text)
}

/// `Long.parseLong`: an optional sign and ASCII digits, in range; else the format fails.
fn parse_long(text: &[u8]) -> std::result::Result<i64, Failure> {
    let text = String::from_utf8_lossy(text);
    text.parse::<i64>()
        .map_err(|_| Failure::Format(format!("java.lang.NumberFormatException: For input string: \"{text}\"")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked_per_format() {
        let names = |keys: &[&str]| keys.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let debezium = keys(Format::DebeziumJson, &names(&["source.table", "schema"])).unwrap();
        assert_eq!(debezium.iter().map(|m| m.key).collect::<Vec<_>>(), ["source.table", "schema"]);
        let ogg = keys(Format::OggJson, &names(&["event-timestamp", "ingestion-timestamp"])).unwrap();
        assert_eq!(ogg.iter().map(|m| m.field).collect::<Vec<_>>(), ["op_ts", "current_ts"]);
        let ltz6 = DataType::nullable(LogicalType::TimestampLtz { precision: 6 });
        assert!(ogg.iter().all(|m| m.output_type() == ltz6));
        let error = keys(Format::CanalJson, &names(&["schema"])).unwrap_err().to_string();
        assert!(error.contains("'canal-json' has no readable metadata 'schema'"), "{error}");
    }

    #[test]
    fn values_are_read_as_flink_converts_them() {
        let maxwell = keys(Format::MaxwellJson, &["ingestion-timestamp".to_string()]).unwrap()[0];
        assert_eq!(maxwell.read(&Value::Int(2)).ok(), Some(Value::Timestamp { millis: 2000, nano_of_milli: 0 }));
        let source = keys(Format::DebeziumJson, &["source.timestamp".to_string()]).unwrap()[0];
        let map = |v: &str| Value::Map(vec![(Value::Text(b"ts_ms".to_vec()), Value::Text(v.as_bytes().to_vec()))]);
        assert_eq!(source.read(&map("-7")).ok(), Some(Value::Timestamp { millis: -7, nano_of_milli: 0 }));
        assert!(matches!(source.read(&map(" 7")), Err(Failure::Format(_))));
        assert_eq!(source.read(&Value::Map(Vec::new())).ok(), Some(Value::Null));
    }

    fn decode(ddl: &str, keys: &[&str], messages: &[&str]) -> crate::decode::DecodedBatch {
        use crate::decode::{Decoder, OnError, RecordSide, TimestampLayout};
        let spec = crate::spec::SinkSpec::from_source_ddl(ddl).expect("ddl");
        let mut decoder = Decoder::open(spec, crate::options::Compatibility::default()).expect("open");
        decoder.set_on_error(OnError::Collect);
        decoder.set_timestamp_layout(TimestampLayout::AsFlinkRows).expect("layout");
        decoder.set_value_metadata(&keys.iter().map(|k| k.to_string()).collect::<Vec<_>>()).expect("keys");
        let data: Vec<u8> = messages.concat().into_bytes();
        let lengths: Vec<i32> = messages.iter().map(|m| m.len() as i32).collect();
        let offsets: Vec<i32> = lengths.iter().scan(0, |at, len| Some(std::mem::replace(at, *at + len))).collect();
        decoder.decode(None, RecordSide { data: &data, offsets: &offsets, lengths: &lengths }).expect("decode")
    }

    #[test]
    fn every_row_of_a_message_gets_its_metadata() {
        use arrow_array::cast::AsArray;
        use arrow_array::Array;
        let ddl = "CREATE TABLE t (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'format' = 'canal-json')";
        let batch = decode(
            ddl,
            &["table", "ingestion-timestamp"],
            &[
                r#"{"data":[{"id":1},{"id":2}],"type":"INSERT","table":"a","ts":5}"#,
                r#"{"data":[{"id":3}],"type":"DELETE"}"#,
                r#"{"data":null,"type":"CREATE","ts":7}"#,
            ],
        );
        assert!(batch.errors.is_empty(), "{:?}", batch.errors);
        assert_eq!(batch.batch.schema().field(1).name(), "value.table");
        let tables = batch.batch.column(1).as_string::<i32>();
        assert_eq!(
            (0..3).map(|r| tables.is_valid(r).then(|| tables.value(r))).collect::<Vec<_>>(),
            [Some("a"), Some("a"), None]
        );
        assert_eq!(batch.batch.column(2).null_count(), 1);
    }

    #[test]
    fn ogg_timestamps_are_read_as_flink_reads_them() {
        use arrow_array::cast::AsArray;
        use arrow_array::Array;
        let ddl = "CREATE TABLE t (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'format' = 'ogg-json')";
        let batch = decode(
            ddl,
            &["ingestion-timestamp", "event-timestamp"],
            &[
                r#"{"after":{"id":1},"op_type":"I","current_ts":"2020-05-13T15:40:06.123456","op_ts":"2020-05-13 15:40:06.654321"}"#,
                r#"{"after":{"id":2},"op_type":"I","current_ts":"2020-05-13 15:40:06.123456789","op_ts":null}"#,
                r#"{"after":{"id":3},"op_type":"I","current_ts":"2020-05-13T15:40:06"}"#,
                r#"{"after":{"id":4},"op_type":"I","op_ts":"2020-05-13T15:40:06"}"#,
            ],
        );
        assert_eq!(batch.errors.len(), 1, "op_ts in the ISO form fails its message");
        assert!(batch.errors[0].to_string().contains("DateTimeParseException"), "{:?}", batch.errors);
        // TIMESTAMP_LTZ(6) leaves as epoch milliseconds and nanoseconds of the millisecond.
        let parts = |column: usize, row: usize| {
            let parts = batch.batch.column(column).as_struct();
            parts.is_valid(row).then(|| {
                let millis = parts.column(0).as_primitive::<arrow_array::types::Int64Type>().value(row);
                (millis, parts.column(1).as_primitive::<arrow_array::types::Int32Type>().value(row))
            })
        };
        assert_eq!(
            (0..3).map(|r| parts(1, r)).collect::<Vec<_>>(),
            [Some((1589384406123, 0)), Some((1589384406123, 456789)), None]
        );
        assert_eq!((0..3).map(|r| parts(2, r)).collect::<Vec<_>>(), [Some((1589384406654, 0)), None, None]);
    }

    #[test]
    fn a_metadata_value_that_fails_drops_the_message_under_ignore_parse_errors() {
        let ddl = "CREATE TABLE t (id INT) WITH ('connector' = 'kafka', 'topic' = 't', 'format' = 'debezium-json', \
                   'debezium-json.ignore-parse-errors' = 'true')";
        let batch = decode(
            ddl,
            &["source.timestamp"],
            &[
                r#"{"after":{"id":1},"op":"c","source":{"ts_ms":"x"}}"#,
                r#"{"after":{"id":2},"op":"c","source":{"ts_ms":"3"},"ts_ms":"not read"}"#,
            ],
        );
        assert_eq!((batch.records, batch.errors.len()), (vec![1], 0));
    }
}
