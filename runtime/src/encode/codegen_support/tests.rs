//! The generated-encoder driver with hand-written rows in the shape kjson-codegen emits: CDC
//! envelopes around the value object, upsert tombstones, and the generic fallback for a batch
//! with nulls in a NOT NULL column. (Generated code itself is tested in the root crate.)
use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, Int32Array, Int8Array, RecordBatch, StringArray};
use arrow_schema::{Field, Schema};

use super::*;
use crate::encode::slab::KeyValueSlabs;
use crate::spec::Format;
use crate::types::RowKind;

/// Rows of `(id INT NOT NULL, name STRING, amt DOUBLE)`; `SKIP_NULLS` as with
/// `encode.ignore-null-fields`.
struct Sample<const SKIP_NULLS: bool>;

struct SampleRows<'a, const SKIP_NULLS: bool> {
    id: Ints<'a, i32>,
    name: Strings<'a>,
    amt: Floats64<'a>,
}

impl<const SKIP_NULLS: bool> GeneratedSchema for Sample<SKIP_NULLS> {
    const FINGERPRINT: u64 = 0;
    const CANONICAL_SPEC: &'static str = "";
    const NOT_NULL_COLUMNS: &'static [usize] = &[0];
    type Rows<'a> = SampleRows<'a, SKIP_NULLS>;

    fn bind<'a>(columns: &'a [BoundColumn<'a>]) -> Result<SampleRows<'a, SKIP_NULLS>> {
        Ok(SampleRows {
            id: BindColumn::bind(column(columns, 0)?)?,
            name: BindColumn::bind(column(columns, 1)?)?,
            amt: BindColumn::bind(column(columns, 2)?)?,
        })
    }
}

impl<const SKIP_NULLS: bool> RowWriter for SampleRows<'_, SKIP_NULLS> {
    fn write_key(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        out.extend_from_slice(b"{\"id\":");
        self.id.write(out, row, cx);
        out.push(b'}');
        Ok(())
    }

    fn write_value(&mut self, cx: &WriteContext, out: &mut Vec<u8>, row: usize) -> WriteResult {
        out.extend_from_slice(b"{\"id\":");
        self.id.write(out, row, cx);
        if !self.name.is_null(row) {
            out.extend_from_slice(b",\"name\":");
            self.name.write(out, row, cx);
        } else if !SKIP_NULLS {
            out.extend_from_slice(b",\"name\":null");
        }
        if !self.amt.is_null(row) {
            out.extend_from_slice(b",\"amt\":");
            self.amt.write(out, row, cx);
        } else if !SKIP_NULLS {
            out.extend_from_slice(b",\"amt\":null");
        }
        out.push(b'}');
        Ok(())
    }
}

fn spec(connector_options: &str, value_format: &str, skip_nulls: bool) -> SinkSpec {
    let ddl = format!(
        "CREATE TABLE t (id INT NOT NULL, name STRING, amt DOUBLE{connector_options}) WITH ('topic' = 't', \
         'properties.bootstrap.servers' = 'x:1', 'value.json.encode.ignore-null-fields' = '{skip_nulls}', \
         'key.format' = 'json', 'value.format' = 'json', {})",
        if connector_options.is_empty() {
            "'connector' = 'kafka', 'key.fields' = 'id'"
        } else {
            "'connector' = 'upsert-kafka'"
        }
    );
    let mut spec = SinkSpec::from_ddl(&ddl).unwrap();
    spec.value.format = Format::from_name(value_format).unwrap();
    spec
}

fn batch(ids: Vec<Option<i32>>) -> RecordBatch {
    let rows = ids.len();
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int32Array::from(ids)),
        Arc::new(StringArray::from((0..rows).map(|i| (i % 2 == 0).then_some("a")).collect::<Vec<_>>())),
        Arc::new(Float64Array::from(vec![None::<f64>; rows])),
    ];
    let fields: Vec<Field> =
        ["id", "name", "amt"].iter().zip(&columns).map(|(n, c)| Field::new(*n, c.data_type().clone(), true)).collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap()
}

fn records(slabs: &KeyValueSlabs) -> Vec<(Option<String>, Option<String>)> {
    let text = |r: Option<&[u8]>| r.map(|r| String::from_utf8_lossy(r).into_owned());
    (0..slabs.num_rows()).map(|row| (text(slabs.keys.record(row)), text(slabs.values.record(row)))).collect()
}

/// Runs `S` (skipping the fingerprint check: the rows are hand-written) and the dynamic encoder.
fn both<S: GeneratedSchema>(
    spec: SinkSpec,
    batch: &RecordBatch,
    kinds: Option<&Int8Array>,
) -> Vec<(Option<String>, Option<String>)> {
    let compatibility = Compatibility::default();
    let mut generated = EncoderCore::open_with::<Specialized<S>>(spec.clone(), compatibility).unwrap();
    let mut dynamic = EncoderCore::open_dynamic(spec, compatibility).unwrap();
    let expected = records(dynamic.encode(batch, kinds).unwrap());
    assert_eq!(records(generated.encode(batch, kinds).unwrap()), expected);
    expected
}

fn kinds(kinds: &[RowKind]) -> Int8Array {
    Int8Array::from(kinds.iter().map(|&k| k as i8).collect::<Vec<_>>())
}

/// `(id=1, name='a', amt=NULL)` in each envelope, as Flink 1.20.3 and 2.3.0 write it.
#[test]
fn debezium_envelopes_wrap_the_generated_object() {
    let kinds = kinds(&[RowKind::Insert, RowKind::Delete, RowKind::UpdateAfter, RowKind::UpdateBefore]);
    let b = batch(vec![Some(1), Some(1), Some(2), Some(2)]);
    let got = both::<Sample<false>>(spec("", "debezium-json", false), &b, Some(&kinds));
    let key = |id: i32| Some(format!("{{\"id\":{id}}}"));
    assert_eq!(
        got,
        vec![
            (key(1), Some("{\"before\":null,\"after\":{\"id\":1,\"name\":\"a\",\"amt\":null},\"op\":\"c\"}".into())),
            (key(1), Some("{\"before\":{\"id\":1,\"name\":null,\"amt\":null},\"after\":null,\"op\":\"d\"}".into())),
            (key(2), Some("{\"before\":null,\"after\":{\"id\":2,\"name\":\"a\",\"amt\":null},\"op\":\"c\"}".into())),
            (key(2), Some("{\"before\":{\"id\":2,\"name\":null,\"amt\":null},\"after\":null,\"op\":\"d\"}".into())),
        ]
    );
    let got = both::<Sample<true>>(spec("", "debezium-json", true), &b, Some(&kinds));
    assert_eq!(got[0].1.as_deref(), Some("{\"after\":{\"id\":1,\"name\":\"a\"},\"op\":\"c\"}"));
    assert_eq!(got[1].1.as_deref(), Some("{\"before\":{\"id\":1},\"op\":\"d\"}"));
    for format in ["canal-json", "maxwell-json", "ogg-json"] {
        both::<Sample<false>>(spec("", format, false), &b, Some(&kinds));
    }
}

#[test]
fn upsert_retractions_become_tombstones() {
    let kinds = kinds(&[RowKind::Insert, RowKind::UpdateBefore, RowKind::UpdateAfter, RowKind::Delete]);
    let got = both::<Sample<false>>(
        spec(", PRIMARY KEY (id) NOT ENFORCED", "json", false),
        &batch(vec![Some(1); 4]),
        Some(&kinds),
    );
    let values: Vec<Option<&str>> = got.iter().map(|(_, v)| v.as_deref()).collect();
    assert_eq!(values[1], None);
    assert_eq!(values[3], None);
    assert_eq!(values[2], Some("{\"id\":1,\"name\":\"a\",\"amt\":null}"));
    assert!(got.iter().all(|(k, _)| k.as_deref() == Some("{\"id\":1}")));
}

#[test]
fn nulls_in_a_not_null_column_take_the_generic_writers() {
    // The generated rows would skip the null check on `id`; the batch goes the dynamic way.
    let got = both::<Sample<false>>(spec("", "json", false), &batch(vec![Some(1), None]), None);
    assert_eq!(got[1].1.as_deref(), Some("{\"id\":null,\"name\":null,\"amt\":null}"));
    // And the next batch without nulls is specialized again (same bytes either way).
    both::<Sample<false>>(spec("", "json", false), &batch(vec![Some(3)]), None);
}

#[test]
fn open_checks_the_fingerprint_and_canonical_spec() {
    let error = open_generated::<Sample<false>>(spec("", "json", false), Compatibility::default());
    let message = error.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("is not the generated encoder's 0x0000000000000000"), "{message}");
}

#[test]
fn day_time_intervals_read_int64_milliseconds_as_the_dynamic_integers_do() {
    let values = [90_061_001i64, -5, 0];
    let column = BoundColumn::I64(crate::encode::bind::Prim { values: &values, nulls: None });
    let mut intervals: Intervals<'_> = BindColumn::bind(&column).unwrap();
    let mut ints: Ints<'_, i64> = BindColumn::bind(&column).unwrap();
    let cx = WriteContext::new(Default::default(), Default::default());
    for (row, value) in values.iter().enumerate() {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        intervals.write(&mut a, row, &cx);
        ints.write(&mut b, row, &cx);
        assert!(!intervals.is_null(row));
        assert_eq!(a, value.to_string().into_bytes());
        assert_eq!(a, b);
    }
}

/// One timestamp accessor serving a key in one standard and a value in the other (its cached
/// text switches spelling), for every unit, against the writer of a single value.
#[test]
fn timestamps_keep_each_sides_spelling_for_every_unit() {
    use crate::options::{JsonOptions, TimestampFormat};
    use crate::spelling::temporal::{write_timestamp_json, SecondCache};
    use arrow_schema::TimeUnit;

    let values = [1_704_164_645_123_456i64, 1_704_164_645_123_456, -1, 0, 0, 86_400_000_001];
    let options = |timestamp_format| JsonOptions { timestamp_format, ..Default::default() };
    let sql = WriteContext::new(options(TimestampFormat::Sql), Default::default());
    let iso = WriteContext::new(options(TimestampFormat::Iso8601), Default::default());
    for unit in [TimeUnit::Second, TimeUnit::Millisecond, TimeUnit::Microsecond, TimeUnit::Nanosecond] {
        for ltz in [false, true] {
            let values = crate::encode::bind::TimestampValues::Unit(&values, unit);
            let column = BoundColumn::Timestamp { values, nulls: None, ltz };
            let mut timestamps: Timestamps<'_> = BindColumn::bind(&column).unwrap();
            for row in 0..6 {
                let (millis, nanos) = values.parts(row);
                for cx in [&sql, &iso, &sql] {
                    let format = cx.options.timestamp_format;
                    let mut expected = Vec::new();
                    write_timestamp_json(&mut expected, &mut SecondCache::new(), millis, nanos, format, ltz);
                    let (mut typed, mut dynamic) = (Vec::new(), Vec::new());
                    match (format, ltz) {
                        (TimestampFormat::Sql, false) => timestamps.write_local::<Sql>(&mut typed, row, cx),
                        (TimestampFormat::Sql, true) => timestamps.write_ltz::<Sql>(&mut typed, row, cx),
                        (_, false) => timestamps.write_local::<Iso8601>(&mut typed, row, cx),
                        (_, true) => timestamps.write_ltz::<Iso8601>(&mut typed, row, cx),
                    }
                    timestamps.write(&mut dynamic, row, cx);
                    assert_eq!(typed, expected, "{unit:?} ltz {ltz} row {row} {format:?}");
                    assert_eq!(dynamic, expected, "{unit:?} ltz {ltz} row {row} {format:?}");
                }
            }
        }
    }
}
