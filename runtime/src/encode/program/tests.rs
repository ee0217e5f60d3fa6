//! Top-level column programs against a ROW's: the same columns written as top-level fields and
//! as the fields of a ROW column must give the same object, whatever the segment
//! layout (a nested field between scalar runs, names too long for a fixed-size chunk or only
//! fitting the wider one, nulls skipped or written).
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray, StructArray};
use arrow_schema::{Field, Fields, Schema};

use crate::encode::EncoderCore;
use crate::options::Compatibility;
use crate::spec::SinkSpec;

const LONG: &str = "a_field_name_too_long_for_the_thirty_two_byte_chunk";
/// `,"name":` of 24 bytes: past the 16-byte chunk, within the 32-byte one.
const MID: &str = "a_twenty_byte_name__";

fn spec(skip_nulls: bool, name: &str) -> SinkSpec {
    let ddl = format!(
        "CREATE TABLE t (n BIGINT, `{name}` STRING, d DOUBLE, r ROW<n BIGINT, `{name}` STRING, d DOUBLE>, \
         s STRING) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'h:1', \
         'format' = 'json', 'json.encode.ignore-null-fields' = '{skip_nulls}')"
    );
    SinkSpec::from_ddl(&ddl).unwrap()
}

fn batch(name: &str) -> RecordBatch {
    let n: ArrayRef = Arc::new(Int64Array::from(vec![Some(1), None, Some(-3), None]));
    let long: ArrayRef = Arc::new(StringArray::from(vec![Some("x\"y"), Some("plain"), None, None]));
    let d: ArrayRef = Arc::new(Float64Array::from(vec![Some(0.5), None, Some(1e300), None]));
    let s: ArrayRef = Arc::new(StringArray::from(vec![Some("tail"), None, Some(""), None]));
    let inner = Fields::from(vec![
        Field::new("n", n.data_type().clone(), true),
        Field::new(name, long.data_type().clone(), true),
        Field::new("d", d.data_type().clone(), true),
    ]);
    let r: ArrayRef = Arc::new(StructArray::new(inner.clone(), vec![n.clone(), long.clone(), d.clone()], None));
    let schema = Schema::new(vec![
        Field::new("n", n.data_type().clone(), true),
        Field::new(name, long.data_type().clone(), true),
        Field::new("d", d.data_type().clone(), true),
        Field::new("r", r.data_type().clone(), true),
        Field::new("s", s.data_type().clone(), true),
    ]);
    RecordBatch::try_new(Arc::new(schema), vec![n, long, d, r, s]).unwrap()
}

#[test]
fn top_level_fields_write_what_the_same_row_field_writes() {
    for (skip_nulls, name) in [(false, LONG), (true, LONG), (false, MID), (true, MID)] {
        let mut encoder = EncoderCore::open_dynamic(spec(skip_nulls, name), Compatibility::default()).unwrap();
        let slabs = encoder.encode(&batch(name), None).unwrap();
        assert_eq!(slabs.values.len(), 4);
        for row in 0..slabs.values.len() {
            let record = String::from_utf8(slabs.values.record(row).unwrap().to_vec()).unwrap();
            // `{<fields>,"r":{<fields>}...}`: the top-level run before `"r"` and the ROW's object.
            let (head, rest) = record.split_once("\"r\":").unwrap();
            let top = head.trim_end_matches(',');
            let nested_end = rest.find('}').unwrap() + 1;
            assert_eq!(format!("{top}}}"), &rest[..nested_end], "skip_nulls {skip_nulls}, {name}, row {row}: {record}");
        }
    }
}
