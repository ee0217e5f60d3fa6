//! Arrow engines change how a column is carried between batches (Utf8, Utf8View, a dictionary,
//! nested nullability) while the logical types stay the same. One [`Encoder`] fed the batches in
//! turn must write exactly what a fresh encoder writes for each batch, for the generated and the
//! dynamic encoders, keep at most `PLANS_KEPT` plans, and still refuse a type the sink's logical
//! type does not accept.
use std::sync::Arc;

use arrow_array::builder::*;
use arrow_array::types::{Int32Type, Int8Type};
use arrow_array::*;
use arrow_schema::{DataType as ArrowType, Field, Schema};
use kjson_arrow::runtime::{Compatibility, KeyValueSlabs, SinkSpec, Slab};
use kjson_arrow::Encoder;
use kjson_arrow::PLANS_KEPT;

const NAMES: [Option<&str>; 4] = [Some("a\"b"), None, Some("é☃\u{1}"), Some("a\"b")];

/// How the string column and the list's items are carried in one batch.
#[derive(Debug, Clone, Copy)]
enum Strings {
    Utf8,
    Utf8View,
    LargeUtf8,
    DictionaryUtf8,
    DictionaryLargeUtf8,
}

const ALL_STRINGS: [Strings; 5] =
    [Strings::Utf8, Strings::Utf8View, Strings::LargeUtf8, Strings::DictionaryUtf8, Strings::DictionaryLargeUtf8];

fn strings(how: Strings) -> ArrayRef {
    match how {
        Strings::Utf8 => Arc::new(StringArray::from(NAMES.to_vec())),
        Strings::Utf8View => Arc::new(StringViewArray::from(NAMES.to_vec())),
        Strings::LargeUtf8 => Arc::new(LargeStringArray::from(NAMES.to_vec())),
        Strings::DictionaryUtf8 => Arc::new(NAMES.into_iter().collect::<DictionaryArray<Int32Type>>()),
        Strings::DictionaryLargeUtf8 => {
            let keys = Int8Array::from(vec![Some(1), None, Some(0), Some(1)]);
            let values = LargeStringArray::from(vec!["é☃\u{1}", "a\"b"]);
            Arc::new(DictionaryArray::<Int8Type>::try_new(keys, Arc::new(values)).unwrap())
        }
    }
}

/// `tags ARRAY<STRING>`: [x, y], null, [], [z]; items never null, so both item nullabilities fit.
fn tags(view_items: bool, items_nullable: bool) -> ArrayRef {
    let rows: [Option<&[&str]>; 4] = [Some(&["x", "y"]), None, Some(&[]), Some(&["z"])];
    fn fill<B: ArrayBuilder>(mut list: ListBuilder<B>, rows: &[Option<&[&str]>], push: fn(&mut B, &str)) -> ListArray {
        for row in rows {
            match row {
                Some(items) => {
                    items.iter().for_each(|s| push(list.values(), s));
                    list.append(true);
                }
                None => list.append(false),
            }
        }
        list.finish()
    }
    if view_items {
        let field = Field::new("item", ArrowType::Utf8View, items_nullable);
        Arc::new(fill(ListBuilder::new(StringViewBuilder::new()).with_field(field), &rows, |b, s| b.append_value(s)))
    } else {
        let field = Field::new("item", ArrowType::Utf8, items_nullable);
        Arc::new(fill(ListBuilder::new(StringBuilder::new()).with_field(field), &rows, |b, s| b.append_value(s)))
    }
}

fn batch(columns: Vec<(&str, ArrayRef, bool)>) -> RecordBatch {
    let fields: Vec<Field> = columns.iter().map(|(n, a, null)| Field::new(*n, a.data_type().clone(), *null)).collect();
    let arrays = columns.into_iter().map(|(_, a, _)| a).collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

/// One side's records; `None` is a null key or a tombstone.
type Records = Vec<Option<Vec<u8>>>;

/// One owned copy of an encode call's output.
fn owned(slabs: &KeyValueSlabs) -> (Records, Records) {
    let records = |s: &Slab| (0..s.len()).map(|r| s.record(r).map(<[u8]>::to_vec)).collect();
    (records(slabs.keys()), records(slabs.values()))
}

/// Encodes `batches` in turn with one encoder and checks each output against a fresh encoder's.
fn assert_one_encoder_matches_fresh_ones(
    open: &dyn Fn() -> Encoder,
    batches: &[RecordBatch],
    kinds: Option<&Int8Array>,
) {
    let mut encoder = open();
    let first = owned(open().encode(&batches[0], kinds).expect("first batch encodes"));
    for (i, batch) in batches.iter().enumerate() {
        let fresh = owned(open().encode(batch, kinds).unwrap_or_else(|e| panic!("batch {i} alone: {e}")));
        let reused = owned(encoder.encode(batch, kinds).unwrap_or_else(|e| panic!("batch {i} after others: {e}")));
        assert_eq!(reused, fresh, "batch {i}: {:?}", batch.schema());
        assert_eq!(fresh, first, "batch {i} holds the same rows, so the same bytes");
        assert!(encoder.plans_kept() <= PLANS_KEPT);
    }
    assert_eq!(encoder.plans_kept(), PLANS_KEPT, "more encodings than plans kept: the oldest were dropped");
}

/// Every encoding twice, in an order that revisits kept plans and re-plans dropped ones.
fn order<T: Copy>(items: &[T]) -> Vec<T> {
    let mut out: Vec<T> = items.to_vec();
    out.extend(items.iter().rev().copied());
    out.extend(items.iter().copied());
    out
}

fn q0_spec() -> SinkSpec {
    let ddl = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schemas/q0.sql")).unwrap();
    SinkSpec::from_ddl(&ddl).unwrap()
}

fn q0_batch(extra: Strings, nullable: bool) -> RecordBatch {
    let ints = |base: i64| -> ArrayRef { Arc::new(Int64Array::from_iter_values((0..4).map(|i| base + i))) };
    let times = TimestampMillisecondArray::from(vec![0, 1_700_000_000_123, -1, 86_400_000]);
    batch(vec![
        ("auction", ints(1000), nullable),
        ("bidder", ints(-5), nullable),
        ("price", ints(i64::MAX - 3), nullable),
        ("dateTime", Arc::new(times), nullable),
        ("extra", strings(extra), true),
    ])
}

#[test]
fn generated_and_dynamic_q0_replan_on_string_encoding_and_nullability_changes() {
    let batches: Vec<RecordBatch> =
        order(&ALL_STRINGS).into_iter().enumerate().map(|(i, s)| q0_batch(s, i % 3 == 0)).collect();
    let generated = || Encoder::open(q0_spec(), Compatibility::default()).unwrap();
    assert!(generated().kind().is_generated(), "this build has q0's generated encoder");
    assert_one_encoder_matches_fresh_ones(&generated, &batches, None);
    let dynamic = || Encoder::open_dynamic(q0_spec(), Compatibility::default()).unwrap();
    assert_one_encoder_matches_fresh_ones(&dynamic, &batches, None);
}

const UPSERT: &str = "CREATE TABLE t (id BIGINT NOT NULL, name STRING, tags ARRAY<STRING>, \
    PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 't', \
    'properties.bootstrap.servers' = 'localhost:9092', 'key.format' = 'json', 'value.format' = 'json')";

fn upsert_batch(name: Strings, view_items: bool, items_nullable: bool) -> RecordBatch {
    batch(vec![
        ("id", Arc::new(Int64Array::from(vec![1, 2, 3, 4])), false),
        ("name", strings(name), true),
        ("tags", tags(view_items, items_nullable), true),
    ])
}

#[test]
fn upsert_keys_values_and_tombstones_replan_on_nested_encoding_changes() {
    let shapes: Vec<(Strings, bool, bool)> =
        ALL_STRINGS.iter().enumerate().map(|(i, &s)| (s, i % 2 == 1, i % 3 != 1)).collect();
    let batches: Vec<RecordBatch> = order(&shapes).into_iter().map(|(s, v, n)| upsert_batch(s, v, n)).collect();
    let kinds = Int8Array::from(vec![0, 3, 2, 1]);
    let open = || Encoder::open(SinkSpec::from_ddl(UPSERT).unwrap(), Compatibility::default()).unwrap();
    assert_one_encoder_matches_fresh_ones(&open, &batches, Some(&kinds));
}

#[test]
fn a_type_the_logical_type_refuses_is_an_error_between_good_batches() {
    let mut encoder = Encoder::open(q0_spec(), Compatibility::default()).unwrap();
    let good = owned(encoder.encode(&q0_batch(Strings::Utf8, true), None).unwrap());
    let mut wrong = q0_batch(Strings::Utf8View, true).columns().to_vec();
    wrong[4] = Arc::new(Int32Array::from(vec![1, 2, 3, 4]));
    let schema = Schema::new(
        q0_batch(Strings::Utf8, true)
            .schema()
            .fields()
            .iter()
            .zip(&wrong)
            .map(|(f, a)| Field::new(f.name(), a.data_type().clone(), true))
            .collect::<Vec<_>>(),
    );
    let wrong = RecordBatch::try_new(Arc::new(schema), wrong).unwrap();
    for _ in 0..2 {
        let error = encoder.encode(&wrong, None).unwrap_err();
        assert!(error.message().starts_with("column `extra`: expected Flink type STRING"), "{error}");
        let view = owned(encoder.encode(&q0_batch(Strings::Utf8View, true), None).unwrap());
        assert_eq!(view, good);
    }
    assert_eq!(encoder.plans_kept(), 2, "the refused encoding keeps no plan");
}
