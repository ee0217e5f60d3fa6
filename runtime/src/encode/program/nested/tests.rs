//! Nested column programs against the nested-value writers (`encode/write.rs`), which write the
//! same values by matching on the column per value: records of one nested column must be the same
//! bytes, and a failing value must fail with the same path of ROW fields. The data covers null
//! ROWs, ARRAYs, items and fields, a field name past the fixed-size name chunk, a repeated map
//! key (Jackson's merge, left to the writers), an empty map and a TIME outside one day.
use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, Int32Array, ListArray, MapArray, RecordBatch, StringArray, StructArray, Time32MillisecondArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};

use crate::encode::bind::bind;
use crate::encode::plan::plan_node;
use crate::encode::write::{write_nullable, ValueError, WriteContext};
use crate::encode::EncoderCore;
use crate::options::Compatibility;
use crate::spec::SinkSpec;

const LONG: &str = "a_row_field_name_longer_than_the_name_chunk";

fn spec(column_type: &str, skip_nulls: bool) -> SinkSpec {
    let ddl = format!(
        "CREATE TABLE t (c {column_type}) WITH ('connector' = 'kafka', 'topic' = 't', \
         'properties.bootstrap.servers' = 'h:1', 'format' = 'json', \
         'json.encode.ignore-null-fields' = '{skip_nulls}')"
    );
    SinkSpec::from_ddl(&ddl).unwrap()
}

/// ROWs `(t TIME(3), s STRING, <LONG> INT)`: one null, one of null fields, `t` as given.
fn rows(t: Vec<Option<i32>>) -> ArrayRef {
    let len = t.len();
    let t: ArrayRef = Arc::new(Time32MillisecondArray::from(t));
    let s: ArrayRef = Arc::new(StringArray::from(
        [Some("a\"b"), None, None, Some("x")].into_iter().cycle().take(len).collect::<Vec<_>>(),
    ));
    let n: ArrayRef =
        Arc::new(Int32Array::from([Some(1), None, Some(5), None].into_iter().cycle().take(len).collect::<Vec<_>>()));
    let fields = Fields::from(vec![
        Field::new("t", t.data_type().clone(), true),
        Field::new("s", s.data_type().clone(), true),
        Field::new(LONG, n.data_type().clone(), true),
    ]);
    let nulls = NullBuffer::from((0..len).map(|i| i % 4 != 1).collect::<Vec<_>>());
    Arc::new(StructArray::new(fields, vec![t, s, n], Some(nulls)))
}

/// `ARRAY<ROW<...>>` over `items`, with the list at `null_list` null.
fn lists(items: ArrayRef, lengths: &[usize], null_list: usize) -> ArrayRef {
    let field = Arc::new(Field::new("element", items.data_type().clone(), true));
    let nulls = NullBuffer::from((0..lengths.len()).map(|i| i != null_list).collect::<Vec<_>>());
    Arc::new(ListArray::new(field, OffsetBuffer::from_lengths(lengths.iter().copied()), items, Some(nulls)))
}

/// `MAP<STRING, ARRAY<ROW<...>>>`: `{k1: [row, null], k2: null}`, `{k: [..], k: [..]}`, null, `{}`.
fn maps() -> ArrayRef {
    let items = rows(vec![Some(1000), Some(0), None, Some(86_399_999)]);
    let values = lists(items, &[2, 0, 1, 1], 1);
    let keys: ArrayRef = Arc::new(StringArray::from(vec!["k1", "k2", "k", "k"]));
    let entries = Fields::from(vec![
        Field::new("key", ArrowType::Utf8, false),
        Field::new("value", values.data_type().clone(), true),
    ]);
    let entries = StructArray::new(entries.clone(), vec![keys, values], None);
    let field = Arc::new(Field::new("entries", entries.data_type().clone(), false));
    let offsets = OffsetBuffer::from_lengths([2, 2, 0, 0]);
    let nulls = NullBuffer::from(vec![true, true, false, true]);
    Arc::new(MapArray::new(field, offsets, entries, Some(nulls), false))
}

const MAP_TYPE: &str = "MAP<STRING, ARRAY<ROW<t TIME(3), s STRING, a_row_field_name_longer_than_the_name_chunk INT>>>";
const ARRAY_TYPE: &str = "ARRAY<ROW<t TIME(3), s STRING, a_row_field_name_longer_than_the_name_chunk INT>>";

/// Each record of column `c` as the nested-value writers write it (`None`: the column is null
/// and skipped), or their error's path.
fn reference(spec: &SinkSpec, column: &ArrayRef) -> Vec<Result<Vec<u8>, Vec<String>>> {
    let field = arrow_schema::Field::new("c", column.data_type().clone(), true);
    let node = plan_node("c", &spec.columns[0].data_type, &field).unwrap();
    let bound = bind(&node, column.as_ref()).unwrap();
    let cx = WriteContext::new(spec.value.options.clone(), Compatibility::default());
    (0..column.len())
        .map(|row| {
            if bound.is_null(row) && cx.options.ignore_null_fields {
                return Ok(b"{}".to_vec());
            }
            let mut out = b"{\"c\":".to_vec();
            match write_nullable(&cx, &mut out, &bound, row) {
                Ok(()) => {
                    out.push(b'}');
                    Ok(out)
                }
                // The encoder names the top-level field too.
                Err(error) => match error.within("c") {
                    ValueError::OutOfRange { path, .. } | ValueError::NullMapKey { path } => {
                        Err(path.into_iter().rev().collect())
                    }
                },
            }
        })
        .collect()
}

/// Each record of the dynamic encoder, one batch per row (so a failing row fails alone), or the
/// text of its error.
fn encoded(spec: &SinkSpec, column: &ArrayRef) -> Vec<Result<Vec<u8>, String>> {
    let schema = Arc::new(Schema::new(vec![Field::new("c", column.data_type().clone(), true)]));
    let mut encoder = EncoderCore::open_dynamic(spec.clone(), Compatibility::default()).unwrap();
    (0..column.len())
        .map(|row| {
            let batch = RecordBatch::try_new(schema.clone(), vec![column.slice(row, 1)]).unwrap();
            match encoder.encode(&batch, None) {
                Ok(slabs) => Ok(slabs.values.record(0).unwrap().to_vec()),
                Err(e) => Err(e.to_string()),
            }
        })
        .collect()
}

fn assert_same(column_type: &str, column: ArrayRef) {
    for skip_nulls in [false, true] {
        let spec = spec(column_type, skip_nulls);
        let expected = reference(&spec, &column);
        assert!(expected.iter().any(Result::is_ok), "{column_type}: no record to compare");
        for (row, (got, want)) in encoded(&spec, &column).into_iter().zip(expected).enumerate() {
            let at = format!("{column_type}, skip_nulls {skip_nulls}, row {row}");
            match (got, want) {
                (Ok(got), Ok(want)) => {
                    assert_eq!(String::from_utf8(got).unwrap(), String::from_utf8(want).unwrap(), "{at}")
                }
                (Err(got), Err(path)) => assert!(got.contains(&format!("field `{}`", path.join("."))), "{at}: {got}"),
                (got, want) => panic!("{at}: encoded {got:?}, the nested-value writers {want:?}"),
            }
        }
    }
}

#[test]
fn maps_of_arrays_of_rows_write_what_the_nested_value_writers_write() {
    assert_same(MAP_TYPE, maps());
}

#[test]
fn a_time_outside_one_day_in_a_row_in_an_array_fails_at_the_same_field() {
    let items = rows(vec![Some(1), Some(2), Some(90_000_000), Some(3)]);
    assert_same(ARRAY_TYPE, lists(items, &[1, 0, 3], 1));
}
