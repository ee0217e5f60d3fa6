//! Nested column programs: a failing value fails with the path of ROW fields Flink names, and a
//! key repeated within a map keeps the value Jackson ends with. The bytes themselves are judged
//! by the real Flink jars (`scripts/parity.sh`, the JVM differential tests) and, for generated
//! code, by `tests/generated.rs`; here one map is compared with another that Jackson would
//! write the same.
use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, Int32Array, ListArray, MapArray, RecordBatch, StringArray, StructArray, Time32MillisecondArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};

use crate::encode::EncoderCore;
use crate::options::Compatibility;
use crate::spec::SinkSpec;

fn spec(column_type: &str, skip_nulls: bool) -> SinkSpec {
    let ddl = format!(
        "CREATE TABLE t (c {column_type}) WITH ('connector' = 'kafka', 'topic' = 't', \
         'properties.bootstrap.servers' = 'h:1', 'format' = 'json', \
         'json.encode.ignore-null-fields' = '{skip_nulls}')"
    );
    SinkSpec::from_ddl(&ddl).unwrap()
}

/// Each record of the dynamic encoder, one batch per row (so a failing row fails alone), or the
/// text of its error.
fn encoded(spec: &SinkSpec, column: &ArrayRef) -> Vec<Result<String, String>> {
    let schema = Arc::new(Schema::new(vec![Field::new("c", column.data_type().clone(), true)]));
    let mut encoder = EncoderCore::open_dynamic(spec.clone(), Compatibility::default()).unwrap();
    (0..column.len())
        .map(|row| {
            let batch = RecordBatch::try_new(schema.clone(), vec![column.slice(row, 1)]).unwrap();
            match encoder.encode(&batch, None) {
                Ok(slabs) => Ok(String::from_utf8(slabs.values.record(0).unwrap().to_vec()).unwrap()),
                Err(e) => Err(e.to_string()),
            }
        })
        .collect()
}

/// ROWs `(t TIME(3), n INT, r ROW<x INT, y INT>)` from the given values.
fn rows(t: Vec<Option<i32>>, n: Vec<Option<i32>>, x: Vec<Option<i32>>, y: Vec<Option<i32>>) -> ArrayRef {
    let t: ArrayRef = Arc::new(Time32MillisecondArray::from(t));
    let n: ArrayRef = Arc::new(Int32Array::from(n));
    let (x, y): (ArrayRef, ArrayRef) = (Arc::new(Int32Array::from(x)), Arc::new(Int32Array::from(y)));
    let inner = Fields::from(vec![Field::new("x", ArrowType::Int32, true), Field::new("y", ArrowType::Int32, true)]);
    let r: ArrayRef = Arc::new(StructArray::new(inner, vec![x, y], None));
    let fields = Fields::from(vec![
        Field::new("t", t.data_type().clone(), true),
        Field::new("n", n.data_type().clone(), true),
        Field::new("r", r.data_type().clone(), true),
    ]);
    Arc::new(StructArray::new(fields, vec![t, n, r], None))
}

const ROW_TYPE: &str = "ROW<t TIME(3), n INT, r ROW<x INT, y INT>>";

/// One map per entry of `lengths`, keys `keys`, values `values` (`null_values` of them null).
fn maps(keys: Vec<&str>, values: ArrayRef, null_values: &[usize], lengths: &[usize]) -> ArrayRef {
    let values = match values.as_any().downcast_ref::<StructArray>() {
        Some(rows) if !null_values.is_empty() => {
            let nulls = NullBuffer::from((0..rows.len()).map(|i| !null_values.contains(&i)).collect::<Vec<_>>());
            let (fields, columns, _) = rows.clone().into_parts();
            Arc::new(StructArray::new(fields, columns, Some(nulls)))
        }
        _ => values,
    };
    let entries = Fields::from(vec![
        Field::new("key", ArrowType::Utf8, false),
        Field::new("value", values.data_type().clone(), true),
    ]);
    let entries = StructArray::new(entries, vec![Arc::new(StringArray::from(keys)), values], None);
    let field = Arc::new(Field::new("entries", entries.data_type().clone(), false));
    Arc::new(MapArray::new(field, OffsetBuffer::from_lengths(lengths.iter().copied()), entries, None, false))
}

#[test]
fn a_time_outside_one_day_in_a_row_in_an_array_fails_naming_its_fields() {
    let items = rows(vec![Some(1), Some(90_000_000)], vec![None; 2], vec![None; 2], vec![None; 2]);
    let field = Arc::new(Field::new("element", items.data_type().clone(), true));
    let lists: ArrayRef = Arc::new(ListArray::new(field, OffsetBuffer::from_lengths([1, 1]), items, None));
    for skip_nulls in [false, true] {
        let records = encoded(&spec(&format!("ARRAY<{ROW_TYPE}>"), skip_nulls), &lists);
        assert!(records[0].is_ok(), "{records:?}");
        let error = records[1].as_ref().unwrap_err();
        assert!(error.contains("field `c.t`") && error.contains("outside one day"), "{error}");
    }
}

/// Jackson stores every occurrence of a repeated key into one node: without
/// `encode.ignore-null-fields` the last value replaces the others; with it, the non-null ROWs
/// since the last null one merge (at every depth), each field at its first position.
#[test]
fn a_repeated_key_keeps_the_value_jackson_ends_with() {
    let map_type = format!("MAP<STRING, {ROW_TYPE}>");
    // {a: (n 1, r (x 1)), b: (t 5), a: (r (y 2)), a: null, c: (n 3), c: (n 4, r (x 9))}
    let repeated = maps(
        vec!["a", "b", "a", "a", "c", "c"],
        rows(
            vec![None, Some(5), None, None, None, None],
            vec![Some(1), None, None, None, Some(3), Some(4)],
            vec![Some(1), None, None, None, None, Some(9)],
            vec![None, None, Some(2), None, None, None],
        ),
        &[3],
        &[3, 1, 2],
    );
    for skip_nulls in [false, true] {
        // The same maps as Jackson leaves them: first one {a: merged or last, b}, then {a: null},
        // then {c: merged or last}.
        let a = if skip_nulls { (Some(1), Some(1), Some(2)) } else { (None, None, Some(2)) };
        let c = (Some(4), Some(9));
        let merged = maps(
            vec!["a", "b", "a", "c"],
            rows(
                vec![None, Some(5), None, None],
                vec![a.0, None, None, c.0],
                vec![a.1, None, None, c.1],
                vec![a.2, None, None, None],
            ),
            &[2],
            &[2, 1, 1],
        );
        let spec = spec(&map_type, skip_nulls);
        let records = encoded(&spec, &repeated);
        assert!(records.iter().all(Result::is_ok), "{records:?}");
        assert_eq!(records, encoded(&spec, &merged), "skip_nulls {skip_nulls}");
    }
}
