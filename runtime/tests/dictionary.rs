//! Dictionary-encoded strings, at the top level and inside lists, rows and map values, encode to
//! the same bytes as the plain string arrays they stand for (sliced batches and null keys too).
use std::sync::Arc;

use arrow_array::types::{Int16Type, Int8Type};
use arrow_array::{
    Array, ArrayRef, DictionaryArray, Int32Array, ListArray, MapArray, RecordBatch, StringArray, StructArray,
};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};
use kjson_runtime::{Compatibility, EncoderCore, SinkSpec};

const DDL: &str = "CREATE TABLE t (s STRING, a ARRAY<STRING>, r ROW<x INT, y STRING>, m MAP<STRING, STRING>) \
    WITH ('connector' = 'kafka', 'topic' = 't', 'format' = 'json')";

const WORDS: [Option<&str>; 6] = [Some("a\"b"), None, Some("é"), Some(""), Some("a\"b"), None];

/// The same strings as a plain array or as a dictionary (with an Int8 or Int16 key).
fn strings(dictionary: bool, key16: bool) -> ArrayRef {
    match (dictionary, key16) {
        (false, _) => Arc::new(StringArray::from(WORDS.to_vec())),
        (true, false) => Arc::new(WORDS.iter().copied().collect::<DictionaryArray<Int8Type>>()),
        (true, true) => Arc::new(WORDS.iter().copied().collect::<DictionaryArray<Int16Type>>()),
    }
}

fn batch(dictionary: bool) -> RecordBatch {
    let s = strings(dictionary, false);
    let items = strings(dictionary, true);
    let item = Arc::new(Field::new("element", items.data_type().clone(), true));
    // Six rows: [w0, w1], null, [], [w2, w3, w4], [w5], [].
    let offsets = OffsetBuffer::new(vec![0, 2, 2, 2, 5, 6, 6].into());
    let a = ListArray::new(item, offsets.clone(), items, Some(vec![true, false, true, true, true, true].into()));
    let y = strings(dictionary, false);
    let fields =
        Fields::from(vec![Field::new("x", ArrowType::Int32, true), Field::new("y", y.data_type().clone(), true)]);
    let x: ArrayRef = Arc::new(Int32Array::from(vec![Some(1), None, Some(3), Some(4), None, Some(6)]));
    let r = StructArray::new(fields, vec![x, y], Some(vec![true, true, false, true, true, true].into()));
    let keys: ArrayRef = Arc::new(StringArray::from(vec!["k0", "k1", "k2", "k3", "k4", "k5"]));
    let values = strings(dictionary, false);
    let entry_fields = Fields::from(vec![
        Field::new("key", ArrowType::Utf8, false),
        Field::new("value", values.data_type().clone(), true),
    ]);
    let entries = StructArray::new(entry_fields.clone(), vec![keys, values], None);
    let entry = Arc::new(Field::new("entries", ArrowType::Struct(entry_fields), false));
    let m = MapArray::new(entry, offsets, entries, None, false);
    let columns: Vec<ArrayRef> = vec![s, Arc::new(a), Arc::new(r), Arc::new(m)];
    let schema = Schema::new(
        ["s", "a", "r", "m"]
            .iter()
            .zip(&columns)
            .map(|(n, c)| Field::new(*n, c.data_type().clone(), true))
            .collect::<Vec<_>>(),
    );
    RecordBatch::try_new(Arc::new(schema), columns).unwrap()
}

fn encode(batch: &RecordBatch) -> Vec<String> {
    let spec = SinkSpec::from_ddl(DDL).unwrap();
    let mut encoder = EncoderCore::open_dynamic(spec, Compatibility::default()).unwrap();
    let slabs = encoder.encode(batch, None).unwrap();
    (0..slabs.values().len()).map(|i| String::from_utf8(slabs.values().record(i).unwrap().to_vec()).unwrap()).collect()
}

#[test]
fn dictionaries_at_any_depth_encode_as_their_strings() {
    let plain = batch(false);
    let dictionary = batch(true);
    assert!(matches!(dictionary.column(0).data_type(), ArrowType::Dictionary(..)));
    let expected = encode(&plain);
    assert_eq!(expected[0], r#"{"s":"a\"b","a":["a\"b",null],"r":{"x":1,"y":"a\"b"},"m":{"k0":"a\"b","k1":null}}"#);
    assert_eq!(encode(&dictionary), expected);
    for (offset, len) in [(1, 5), (2, 3), (5, 1), (0, 0)] {
        assert_eq!(encode(&dictionary.slice(offset, len)), encode(&plain.slice(offset, len)), "slice {offset}+{len}");
    }
}
