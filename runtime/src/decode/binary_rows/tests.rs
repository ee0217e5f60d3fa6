//! Shapes here, a few nested values in `nested_tests` against bytes of the real Flink jars; the
//! bytes of every type are judged by Flink's own writers in the JVM tests (`BinaryRowParityTest`).
use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, ListArray, RecordBatch, StringArray};
use arrow_schema::{Field, Schema};

use super::cells::java_byte_length;
use super::*;

fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    let fields: Vec<Field> = columns.iter().map(|(n, c)| Field::new(*n, c.data_type().clone(), true)).collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns.into_iter().map(|(_, c)| c).collect()).unwrap()
}

#[test]
fn rows_are_aligned_and_sized_by_their_variable_parts() {
    let ids: ArrayRef = Arc::new(Int64Array::from(vec![Some(1), None, Some(3)]));
    let names: ArrayRef = Arc::new(StringArray::from(vec![Some("short"), Some("a longer string"), None]));
    let batch = batch(vec![("id", ids), ("name", names)]);
    let rows = BinaryRows::of(&batch, &[0, 2, 3]).unwrap();
    // 8 bytes of header and null bits, two slots; row 1's 15 string bytes padded to 16.
    assert_eq!(rows.sizes(), vec![24, 40, 24]);
    assert_eq!(rows.offsets(), vec![0, 24, 64]);
    let data = rows.to_vec();
    assert_eq!(data.len(), 88);
    assert_eq!([data[0], data[24], data[64]], [0, 2, 3], "the header byte is the RowKind");
    assert_eq!(data[24 + 1], 0b01, "row 1: field 0 null");
    assert_eq!(data[64 + 1], 0b10, "row 2: field 1 null");
    assert!(rows.write_into_zeroed(&mut [0; 80]).is_err(), "a slab of another length is refused");
}

#[test]
fn nested_columns_are_written() {
    let list: ArrayRef =
        Arc::new(ListArray::from_iter_primitive::<arrow_array::types::Int32Type, _, _>(vec![Some(vec![Some(1)])]));
    let batch = batch(vec![("tags", list)]);
    assert_eq!(binary_rows_refusal(&batch.schema()), None);
    assert!(BinaryRows::of(&batch, &[0]).is_ok());
}

#[test]
fn decimal_byte_lengths_follow_java_big_integer() {
    for (value, len) in
        [(0i128, 1), (127, 1), (128, 2), (-1, 1), (-128, 1), (-129, 2), (i128::MAX, 16), (i128::MIN, 16)]
    {
        assert_eq!(java_byte_length(value), len, "{value}");
    }
}
