//! Nested values against the bytes of the real Flink jars: each expected row was printed by a
//! throwaway Java program that built the same value as `GenericRowData` / `GenericArrayData` /
//! `GenericMapData` (a map over a `HashMap`, as Flink's JSON deserializer builds it) and hex-printed `RowDataSerializer.toBinaryRow` of it, run against
//! flink-table-runtime 2.2.1 and 1.20.3 (the same bytes on both).
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, Int8Builder, ListBuilder, MapBuilder, StringBuilder};
use arrow_array::types::Int16Type;
use arrow_array::{
    ArrayRef, BooleanArray, Decimal128Array, Int32Array, Int64Array, ListArray, RecordBatch, StringArray, StructArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType as ArrowType, Field, Schema};

use super::BinaryRows;
use crate::decode::arrow_out::timestamp_parts;

/// The one-column, one-row batch's row (RowKind INSERT) in hex.
fn row_hex(column: ArrayRef) -> String {
    let schema = Schema::new(vec![Field::new("c", column.data_type().clone(), true)]);
    let batch = RecordBatch::try_new(Arc::new(schema), vec![column]).unwrap();
    let rows = BinaryRows::of(&batch, &[0]).unwrap();
    rows.to_vec().iter().map(|b| format!("{b:02x}")).collect()
}

/// A list of one entry holding all of `values`.
fn one_list(values: ArrayRef) -> ArrayRef {
    let field = Arc::new(Field::new("element", values.data_type().clone(), true));
    Arc::new(ListArray::new(field, OffsetBuffer::from_lengths([values.len()]), values, None))
}

#[test]
fn arrays_of_fixed_width_elements() {
    let ints = one_list(Arc::new(Int32Array::from(vec![Some(1), None, Some(3)])));
    // ARRAY<INT> [1, NULL, 3]: count 3, null bit 1, three 4-byte slots padded to 24 bytes.
    assert_eq!(row_hex(ints), "00000000000000001800000010000000030000000200000001000000000000000300000000000000");
    let shorts = Arc::new(ListArray::from_iter_primitive::<Int16Type, _, _>(vec![Some(vec![Some(1), None, Some(-1)])]));
    assert_eq!(row_hex(shorts), "00000000000000001000000010000000030000000200000001000000ffff0000");
    let empty = one_list(Arc::new(BooleanArray::from(Vec::<bool>::new())));
    assert_eq!(row_hex(empty), "000000000000000008000000100000000000000000000000");
}

#[test]
fn the_null_bits_of_an_array_grow_by_4_byte_words() {
    let mut values = vec![None; 32];
    values.push(Some(7));
    let ints = one_list(Arc::new(Int32Array::from(values)));
    let expected = format!("0000000000000000900000001000000021000000ffffffff00000000{}07000000", "0".repeat(256));
    assert_eq!(row_hex(ints), expected);
}

#[test]
fn arrays_of_variable_elements() {
    let strings = one_list(Arc::new(StringArray::from(vec![Some("ab"), None, Some("a longer string")])));
    assert_eq!(
        row_hex(strings),
        "000000000000000030000000100000000300000002000000616200000000008200000000000000000f000000200000006120\
         6c6f6e67657220737472696e6700"
    );
    // DECIMAL(20, 0) [-129, NULL]: the bytes of -129 in 16 reserved bytes, nothing for the null.
    let decimals = Decimal128Array::from(vec![Some(-129), None]).with_precision_and_scale(20, 0).unwrap();
    assert_eq!(
        row_hex(one_list(Arc::new(decimals))),
        "00000000000000002800000010000000020000000200000002000000180000000000000000000000ff7f0000000000000000000000000000"
    );
    // TIMESTAMP(6) [1234 ms + 5000 ns, NULL]: the millis in 8 bytes, the nanos in the slot.
    let parts: Vec<ArrayRef> =
        vec![Arc::new(Int64Array::from(vec![1234, 0])), Arc::new(Int32Array::from(vec![5000, 0]))];
    let timestamps = StructArray::new(timestamp_parts(), parts, Some(NullBuffer::from(vec![true, false])));
    assert_eq!(
        row_hex(one_list(Arc::new(timestamps))),
        "00000000000000002000000010000000020000000200000088130000180000000000000000000000d204000000000000"
    );
}

#[test]
fn a_map_is_its_key_array_then_its_value_array() {
    let mut map = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
    map.keys().append_value("k");
    map.values().append_value(5);
    map.keys().append_value("n");
    map.values().append_null();
    map.append(true).unwrap();
    // MAP<STRING, INT> {k: 5, n: NULL} (the Java program put the entries into a HashMap, as
    // Flink's deserializer does; its order is n, k): 44 bytes (4 + 24 + 16), padded to 48.
    assert_eq!(
        row_hex(Arc::new(map.finish())),
        "00000000000000002c000000100000001800000002000000000000006e000000000000816b0000000000008102000000\
         01000000000000000500000000000000"
    );
}

#[test]
fn rows_nest_with_header_byte_zero() {
    let fields = vec![Field::new("s", ArrowType::Utf8, true), Field::new("l", ArrowType::Int64, true)];
    let columns: Vec<ArrayRef> = vec![Arc::new(StringArray::from(vec!["x"])), Arc::new(Int64Array::from(vec![None]))];
    let inner: ArrayRef = Arc::new(StructArray::new(fields.into(), columns, None));
    let schema =
        Schema::new(vec![Field::new("i", ArrowType::Int32, true), Field::new("r", inner.data_type().clone(), true)]);
    let batch = RecordBatch::try_new(Arc::new(schema), vec![Arc::new(Int32Array::from(vec![5])), inner]).unwrap();
    let hex: String = BinaryRows::of(&batch, &[0]).unwrap().to_vec().iter().map(|b| format!("{b:02x}")).collect();
    // ROW(5, ROW('x', NULL)).
    assert_eq!(hex, "000000000000000005000000000000001800000018000000000200000000000078000000000000810000000000000000");
}

#[test]
fn arrays_of_rows_and_of_arrays() {
    let row_fields = vec![Field::new("i", ArrowType::Int32, true)];
    let rows = StructArray::new(
        row_fields.into(),
        vec![Arc::new(Int32Array::from(vec![9, 0]))],
        Some(NullBuffer::from(vec![true, false])),
    );
    // ARRAY<ROW<INT>> [ROW(9), NULL].
    assert_eq!(
        row_hex(one_list(Arc::new(rows))),
        "0000000000000000280000001000000002000000020000001000000018000000000000000000000000000000000000000900000000000000"
    );
    let mut arrays = ListBuilder::new(ListBuilder::new(Int8Builder::new()));
    arrays.values().values().append_value(1);
    arrays.values().append(true);
    arrays.values().append(false);
    arrays.append(true);
    // ARRAY<ARRAY<TINYINT>> [[1], NULL].
    assert_eq!(
        row_hex(Arc::new(arrays.finish())),
        "0000000000000000280000001000000002000000020000001000000018000000000000000000000001000000000000000100000000000000"
    );
}
