//! Rows whose expected bytes were produced by running the real Flink 2.3.0 JSON serializer:
//! field-name escaping, nested values, and null handling.
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, ListBuilder, MapBuilder, StringBuilder};
use arrow_array::{Array, ArrayRef, Int32Array, RecordBatch, StringArray, StructArray};
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};
use kjson_runtime::{
    Column, Compatibility, Connector, DataType, EncoderCore, JsonOptions, LogicalType, MapNullKeyMode, RowField,
    SideSpec, SinkSpec,
};

fn int() -> DataType {
    DataType::new(LogicalType::Int)
}
fn string() -> DataType {
    DataType::new(LogicalType::VarChar { length: kjson_runtime::types::MAX_LENGTH })
}
fn row_xy() -> DataType {
    DataType::new(LogicalType::Row(vec![
        RowField { name: "x".into(), data_type: int(), description: None },
        RowField { name: "y".into(), data_type: string(), description: None },
    ]))
}

fn spec(columns: Vec<(&str, DataType)>, options: JsonOptions) -> SinkSpec {
    let n = columns.len();
    SinkSpec {
        table_name: "t".into(),
        connector: Connector::Kafka,
        columns: columns.iter().map(|(n, t)| Column { name: n.to_string(), data_type: t.clone() }).collect(),
        ignored_columns: vec![],
        primary_key: vec![],
        key: None,
        value: SideSpec {
            projection: (0..n).collect(),
            field_names: columns.iter().map(|(n, _)| n.to_string()).collect(),
            format: kjson_runtime::Format::Json,
            options,
        },
    }
}

fn encode_values(spec: SinkSpec, batch: &RecordBatch) -> Vec<String> {
    let mut encoder = EncoderCore::open_dynamic(spec, Compatibility::default()).unwrap();
    let slabs = encoder.encode(batch, None).unwrap();
    (0..slabs.values().len()).map(|i| String::from_utf8(slabs.values().record(i).unwrap().to_vec()).unwrap()).collect()
}

fn xy_struct(x: Vec<Option<i32>>, y: Vec<Option<&str>>, nulls: Option<Vec<bool>>) -> StructArray {
    let fields = Fields::from(vec![Field::new("x", ArrowType::Int32, true), Field::new("y", ArrowType::Utf8, true)]);
    let columns: Vec<ArrayRef> = vec![Arc::new(Int32Array::from(x)), Arc::new(StringArray::from(y))];
    StructArray::new(fields, columns, nulls.map(Into::into))
}

/// Nulls: a=1, b=null, r=(null,null), arr=[null], m={k:null}; and a=null, b="v", r=(5,null), arr=null, m=null.
fn null_rows() -> (Vec<(&'static str, DataType)>, RecordBatch) {
    let arr_type = DataType::new(LogicalType::Array(Box::new(int())));
    let map_type = DataType::new(LogicalType::Map { key: Box::new(string()), value: Box::new(int()) });
    let columns = vec![("a", int()), ("b", string()), ("r", row_xy()), ("arr", arr_type), ("m", map_type)];
    let r = xy_struct(vec![None, Some(5)], vec![None, None], None);
    let mut arr = ListBuilder::new(Int32Builder::new());
    arr.values().append_null();
    arr.append(true);
    arr.append_null();
    let mut m = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
    m.keys().append_value("k");
    m.values().append_null();
    m.append(true).unwrap();
    m.append(false).unwrap();
    let (arr, m) = (arr.finish(), m.finish());
    let schema = Schema::new(vec![
        Field::new("a", ArrowType::Int32, true),
        Field::new("b", ArrowType::Utf8, true),
        Field::new("r", r.data_type().clone(), true),
        Field::new("arr", arr.data_type().clone(), true),
        Field::new("m", m.data_type().clone(), true),
    ]);
    let batch = RecordBatch::try_new(
        Arc::new(schema),
        vec![
            Arc::new(Int32Array::from(vec![Some(1), None])),
            Arc::new(StringArray::from(vec![None, Some("v")])),
            Arc::new(r),
            Arc::new(arr),
            Arc::new(m),
        ],
    )
    .unwrap();
    (columns, batch)
}

#[test]
fn nulls_without_ignore_null_fields() {
    let (columns, batch) = null_rows();
    let out = encode_values(spec(columns, JsonOptions::default()), &batch);
    assert_eq!(out[0], r#"{"a":1,"b":null,"r":{"x":null,"y":null},"arr":[null],"m":{"k":null}}"#);
    assert_eq!(out[1], r#"{"a":null,"b":"v","r":{"x":5,"y":null},"arr":null,"m":null}"#);
}

#[test]
fn nulls_with_ignore_null_fields() {
    let (columns, batch) = null_rows();
    let options = JsonOptions { ignore_null_fields: true, ..JsonOptions::default() };
    let out = encode_values(spec(columns, options), &batch);
    assert_eq!(out[0], r#"{"a":1,"r":{},"arr":[null],"m":{"k":null}}"#);
    assert_eq!(out[1], r#"{"b":"v","r":{"x":5}}"#);
}

fn map_batch(entries: &[(Option<&str>, i32)]) -> (Vec<(&'static str, DataType)>, RecordBatch) {
    let map_type = DataType::new(LogicalType::Map { key: Box::new(string()), value: Box::new(int()) });
    let m = nullable_key_map(entries);
    let schema = Schema::new(vec![Field::new("m", m.data_type().clone(), true)]);
    (vec![("m", map_type)], RecordBatch::try_new(Arc::new(schema), vec![Arc::new(m)]).unwrap())
}

/// One map row carried as a List of key/value structs, the carriage for null keys that arrow-rs
/// builds (its Map type forbids nullable keys).
fn nullable_key_map(entries: &[(Option<&str>, i32)]) -> arrow_array::ListArray {
    let fields =
        Fields::from(vec![Field::new("key", ArrowType::Utf8, true), Field::new("value", ArrowType::Int32, true)]);
    let keys: StringArray = entries.iter().map(|(k, _)| *k).collect();
    let values: Int32Array = entries.iter().map(|(_, v)| Some(*v)).collect();
    let entries_array = StructArray::new(fields.clone(), vec![Arc::new(keys), Arc::new(values)], None);
    let field = Arc::new(Field::new("entries", ArrowType::Struct(fields), false));
    let offsets = arrow_buffer::OffsetBuffer::new(vec![0i32, entries.len() as i32].into());
    arrow_array::ListArray::try_new(field, offsets, Arc::new(entries_array), None).unwrap()
}

#[test]
fn map_null_key_drop_and_literal() {
    let (columns, batch) = map_batch(&[(None, 1), (Some("k"), 2)]);
    let drop = JsonOptions { map_null_key_mode: MapNullKeyMode::Drop, ..JsonOptions::default() };
    assert_eq!(encode_values(spec(columns.clone(), drop), &batch)[0], r#"{"m":{"k":2}}"#);
    let literal = JsonOptions { map_null_key_mode: MapNullKeyMode::Literal, ..JsonOptions::default() };
    assert_eq!(encode_values(spec(columns, literal), &batch)[0], r#"{"m":{"null":1,"k":2}}"#);
}

#[test]
fn map_literal_collision_keeps_first_position_and_last_value() {
    let literal_k = JsonOptions {
        map_null_key_mode: MapNullKeyMode::Literal,
        map_null_key_literal: "k".into(),
        ..JsonOptions::default()
    };
    let (columns, batch) = map_batch(&[(None, 1), (Some("k"), 2)]);
    assert_eq!(encode_values(spec(columns, literal_k.clone()), &batch)[0], r#"{"m":{"k":2}}"#);
    let (columns, batch) = map_batch(&[(Some("k"), 2), (None, 1)]);
    assert_eq!(encode_values(spec(columns, literal_k), &batch)[0], r#"{"m":{"k":1}}"#);
}

#[test]
fn map_null_key_fail_names_the_option_and_field() {
    let (columns, batch) = map_batch(&[(None, 1)]);
    let mut encoder =
        EncoderCore::open_dynamic(spec(columns, JsonOptions::default()), Compatibility::default()).unwrap();
    let err = encoder.encode(&batch, None).unwrap_err().to_string();
    assert!(err.contains("map-null-key.mode"), "{err}");
    assert!(err.contains("field `m`"), "{err}");
}

#[test]
fn field_names_are_escaped_like_values() {
    let names = ["q\"uote", "back\\slash", "tab\tnl\n", "\u{e9}\u{1F600}"];
    let columns: Vec<(&str, DataType)> = names.iter().map(|n| (*n, int())).collect();
    let fields: Vec<Field> = names.iter().map(|n| Field::new(*n, ArrowType::Int32, true)).collect();
    let arrays: Vec<ArrayRef> = (3..7).map(|v| Arc::new(Int32Array::from(vec![v])) as ArrayRef).collect();
    let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap();
    let out = encode_values(spec(columns, JsonOptions::default()), &batch);
    assert_eq!(out[0], "{\"q\\\"uote\":3,\"back\\\\slash\":4,\"tab\\tnl\\n\":5,\"\u{e9}\\uD83D\\uDE00\":6}");
}

#[test]
fn zero_fields_is_an_empty_object_and_arrays_nest() {
    let nested = DataType::new(LogicalType::Array(Box::new(DataType::new(LogicalType::Array(Box::new(string()))))));
    let mut b = ListBuilder::new(ListBuilder::new(StringBuilder::new()));
    b.values().values().append_value("a");
    b.values().values().append_null();
    b.values().append(true);
    b.values().append_null();
    b.values().append(true);
    b.append(true);
    let arr = b.finish();
    let schema = Schema::new(vec![Field::new("v", arr.data_type().clone(), true)]);
    let batch = RecordBatch::try_new(Arc::new(schema), vec![Arc::new(arr)]).unwrap();
    assert_eq!(
        encode_values(spec(vec![("v", nested)], JsonOptions::default()), &batch)[0],
        r#"{"v":[["a",null],null,[]]}"#
    );
}
