//! The two carriages kjson's JVM writer uses where plain Arrow types fall short: TIMESTAMP as
//! Flink's `TimestampData` parts (a nanosecond `Timestamp` covers only 1677..2262), and strings as
//! marked WTF-8 (a Java `String` may hold unpaired surrogates, which UTF-8 cannot). Each must write
//! what the plain carriage writes for the same value, and the values only it can carry as Flink
//! writes them (the JVM suite compares those with the real Flink serializer).
use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, BinaryArray, DurationSecondArray, Int32Array, Int64Array, ListArray, RecordBatch, StructArray,
    TimestampNanosecondArray, TimestampSecondArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Fields, Schema};
use kjson_arrow::runtime::encode::WTF8_METADATA;
use kjson_arrow::Encoder;
use kjson_runtime::{Compatibility, KjsonError, SinkParts, SinkSpec};

const WITH: &str =
    "'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json'";

fn open(columns: &str, dynamic: bool) -> Encoder {
    let spec = SinkSpec::from_ddl(&format!("CREATE TABLE t ({columns}) WITH ({WITH})")).unwrap();
    if dynamic {
        Encoder::open_dynamic(spec, Compatibility::default()).unwrap()
    } else {
        Encoder::open(spec, Compatibility::default()).unwrap()
    }
}

fn encode(columns: &str, fields: Vec<Field>, arrays: Vec<ArrayRef>) -> Result<Vec<Option<String>>, KjsonError> {
    let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap();
    let mut encoder = open(columns, true);
    let slabs = encoder.encode(&batch, None)?;
    Ok((0..slabs.values().len())
        .map(|r| slabs.values().record(r).map(|b| String::from_utf8(b.to_vec()).unwrap()))
        .collect())
}

fn parts_fields() -> Fields {
    Fields::from(vec![
        Field::new("epoch_millis", DataType::Int64, false),
        Field::new("nano_of_milli", DataType::Int32, false),
    ])
}

fn parts(millis: Vec<i64>, nanos: Vec<i32>, nulls: Option<NullBuffer>) -> ArrayRef {
    let columns: Vec<ArrayRef> = vec![Arc::new(Int64Array::from(millis)), Arc::new(Int32Array::from(nanos))];
    Arc::new(StructArray::try_new(parts_fields(), columns, nulls).unwrap())
}

fn field(name: &str, array: &ArrayRef) -> Field {
    Field::new(name, array.data_type().clone(), true)
}

fn wtf8(field: Field) -> Field {
    let (key, value) = WTF8_METADATA;
    field.with_metadata(HashMap::from([(key.to_string(), value.to_string())]))
}

#[test]
fn timestamp_parts_write_what_nanosecond_timestamps_write() {
    let nanos: Vec<i64> = vec![i64::MIN, -1, 0, 1, 1_704_164_645_123_456_789, i64::MAX];
    let plain: ArrayRef = Arc::new(TimestampNanosecondArray::from(nanos.clone()));
    let split: ArrayRef = parts(
        nanos.iter().map(|v| v.div_euclid(1_000_000)).collect(),
        nanos.iter().map(|v| v.rem_euclid(1_000_000) as i32).collect(),
        None,
    );
    for columns in ["ts TIMESTAMP(9)", "ts TIMESTAMP_LTZ(9)"] {
        let expected = encode(columns, vec![field("ts", &plain)], vec![plain.clone()]).unwrap();
        assert_eq!(encode(columns, vec![field("ts", &split)], vec![split.clone()]).unwrap(), expected, "{columns}");
    }
}

/// Years a nanosecond `Timestamp` cannot reach, at depth (an ARRAY of them) and with a null.
#[test]
fn timestamp_parts_reach_years_0000_to_9999_at_depth() {
    let items = parts(vec![-62_135_596_800_000, 253_402_300_799_999, 0], vec![0, 999_999, 5], None);
    let list: ArrayRef = Arc::new(
        ListArray::try_new(
            Arc::new(Field::new("element", items.data_type().clone(), true)),
            OffsetBuffer::new(vec![0, 2, 3].into()),
            items,
            Some(NullBuffer::from(vec![true, true])),
        )
        .unwrap(),
    );
    let top = parts(vec![-9_223_372_036_855, 0], vec![0, 0], Some(NullBuffer::from(vec![true, false])));
    let values = encode(
        "a ARRAY<TIMESTAMP(9)>, lz TIMESTAMP_LTZ(7)",
        vec![field("a", &list), field("lz", &top)],
        vec![list, top],
    )
    .unwrap();
    assert_eq!(
        values,
        vec![
            Some(
                r#"{"a":["0001-01-01 00:00:00","9999-12-31 23:59:59.999999999"],"lz":"1677-09-21 00:12:43.145Z"}"#
                    .into()
            ),
            Some(r#"{"a":["1970-01-01 00:00:00.000000005"],"lz":null}"#.into()),
        ]
    );
}

#[test]
fn timestamp_parts_refuse_nanos_outside_a_millisecond() {
    for bad in [-1, 1_000_000] {
        let ts = parts(vec![0, 0], vec![0, bad], None);
        let error = encode("ts TIMESTAMP(9)", vec![field("ts", &ts)], vec![ts]).unwrap_err();
        assert!(matches!(error, KjsonError::Value { .. }), "{error}");
        assert!(error.to_string().contains("column `ts`") && error.to_string().contains(&bad.to_string()), "{error}");
    }
    // Under a null the nanos are not a value.
    let ts = parts(vec![0, 0], vec![0, -7], Some(NullBuffer::from(vec![true, false])));
    assert!(encode("ts TIMESTAMP(9)", vec![field("ts", &ts)], vec![ts]).is_ok());
}

/// Seconds whose milliseconds overflow a `long` are past Flink's range: refused, not wrapped.
#[test]
fn seconds_past_flinks_range_are_refused() {
    let ts: ArrayRef = Arc::new(TimestampSecondArray::from(vec![0, i64::MAX / 1000 + 1]));
    let error = encode("ts TIMESTAMP(0)", vec![field("ts", &ts)], vec![ts]).unwrap_err();
    assert!(matches!(error, KjsonError::Value { .. }) && error.to_string().contains("column `ts`"), "{error}");
    let ok: ArrayRef = Arc::new(TimestampSecondArray::from(vec![i64::MIN / 1000, i64::MAX / 1000]));
    assert!(encode("ts TIMESTAMP(0)", vec![field("ts", &ok)], vec![ok]).is_ok());

    let interval: ArrayRef = Arc::new(DurationSecondArray::from(vec![i64::MIN / 1000 - 1]));
    let options =
        [("connector", "kafka"), ("topic", "t"), ("properties.bootstrap.servers", "x:9092"), ("format", "json")];
    let spec = SinkSpec::from_parts(&SinkParts::new([("i", "INTERVAL DAY TO SECOND(3)")], options)).unwrap();
    let batch = RecordBatch::try_new(Arc::new(Schema::new(vec![field("i", &interval)])), vec![interval]).unwrap();
    let error = Encoder::open(spec, Compatibility::default()).unwrap().encode(&batch, None).map(|_| ()).unwrap_err();
    assert!(matches!(error, KjsonError::Value { .. }) && error.to_string().contains("column `i`"), "{error}");
}

/// WTF-8 strings: plain UTF-8 as a Utf8 column writes it, surrogates as Jackson escapes them,
/// other invalid bytes as Java's decoder replaces them; in map keys too, where two keys that are
/// the same Java string are one key.
#[test]
fn wtf8_strings_write_java_strings() {
    let texts: [&[u8]; 5] = [b"plain", b"caf\xC3\xA9 \"q\"", b"a\xED\xA0\x80b", b"\xED\xB0\x80", b"a\xC3("];
    let marked: ArrayRef = Arc::new(BinaryArray::from_iter_values(texts));
    let values = encode("s STRING", vec![wtf8(field("s", &marked))], vec![marked.clone()]).unwrap();
    let expected = [r#""plain""#, r#""café \"q\"""#, r#""a\uD800b""#, r#""\uDC00""#, "\"a\u{FFFD}(\""];
    for (value, text) in values.iter().zip(expected) {
        assert_eq!(value.as_deref(), Some(format!("{{\"s\":{text}}}").as_str()));
    }
    // Unmarked, the same bytes are Java's decoding of bytes: the surrogates become U+FFFD.
    let lossy = encode("s STRING", vec![field("s", &marked)], vec![marked]).unwrap();
    assert_eq!(lossy[2].as_deref(), Some("{\"s\":\"a\u{FFFD}b\"}"));
}

#[test]
fn wtf8_map_keys_merge_as_java_strings() {
    let keys: ArrayRef = Arc::new(BinaryArray::from_iter_values([b"\xED\xA0\x80" as &[u8], b"k", b"\xED\xA0\x80"]));
    let values: ArrayRef = Arc::new(Int32Array::from(vec![1, 2, 3]));
    let entry_fields = Fields::from(vec![
        wtf8(Field::new("key", DataType::Binary, false)),
        Field::new("value", DataType::Int32, true),
    ]);
    let entries = StructArray::try_new(entry_fields.clone(), vec![keys, values], None).unwrap();
    let entries_field = Arc::new(Field::new("entries", DataType::Struct(entry_fields), false));
    let map: ArrayRef = Arc::new(
        arrow_array::MapArray::try_new(entries_field, OffsetBuffer::new(vec![0, 3].into()), entries, None, false)
            .unwrap(),
    );
    let out = encode("m MAP<STRING, INT>", vec![field("m", &map)], vec![map]).unwrap();
    assert_eq!(out, vec![Some(r#"{"m":{"\uD800":3,"k":2}}"#.into())]);
}

/// The mark is part of how a column is carried: a later batch without it is planned afresh
/// (`kjson_arrow::Encoder`) rather than read with the first batch's rules.
#[test]
fn the_wtf8_mark_is_part_of_the_plan() {
    let bytes: ArrayRef = Arc::new(BinaryArray::from_iter_values([b"a\xED\xA0\x80" as &[u8]]));
    let mut encoder = open("s STRING", false);
    let mut run = |f: Field| {
        let batch = RecordBatch::try_new(Arc::new(Schema::new(vec![f])), vec![bytes.clone()]).unwrap();
        let slabs = encoder.encode(&batch, None).unwrap();
        String::from_utf8(slabs.values().record(0).unwrap().to_vec()).unwrap()
    };
    assert_eq!(run(wtf8(field("s", &bytes))), r#"{"s":"a\uD800"}"#);
    assert_eq!(run(field("s", &bytes)), "{\"s\":\"a\u{FFFD}\"}");
    assert_eq!(run(wtf8(field("s", &bytes))), r#"{"s":"a\uD800"}"#);
}
