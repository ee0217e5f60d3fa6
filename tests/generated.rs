//! Generated encoders: the generator's output against checked-in golden files (which must
//! compile: they are included below), generated == dynamic byte for byte on random batches for
//! every schema in `schemas/`, Flink-derived fixtures, and the fallback to the dynamic encoder.
//!
//! Rewrite the golden files after a deliberate generator change with
//! `KJSON_UPDATE_GOLDEN=1 cargo test --release --test integration generated::golden`.
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::*;
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};
use kjson_arrow::runtime::codegen_support::open_generated;
use kjson_arrow::runtime::{
    Compatibility, EncoderCore, FlinkVersion, FloatSpelling, KeyValueSlabs, SinkParts, SinkSpec,
};
use kjson_arrow::{Encoder, EncoderKind};
use proptest::prelude::*;

use kjson_testkit::{random_batch, Rng, Shape};

/// The golden files, compiled: each must be valid Rust against the runtime it targets.
mod golden {
    pub mod ledger {
        include!("golden/ledger.rs");
    }
    pub mod nested {
        include!("golden/nested.rs");
    }
    pub mod q0 {
        include!("golden/q0.rs");
    }
    pub mod q19 {
        include!("golden/q19.rs");
    }
    pub mod q9 {
        include!("golden/q9.rs");
    }
    pub mod sensor {
        include!("golden/sensor.rs");
    }
    pub mod wide {
        include!("golden/wide.rs");
    }
}

/// One per distinct row layout, named after its first schema file (`q9_debezium.sql` is q9's).
const GOLDEN_MODULES: [&str; 7] = ["ledger", "nested", "q0", "q19", "q9", "sensor", "wide"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `(file stem, DDL)` of every schema in `schemas/`, in file-name order.
fn schema_files() -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("schemas"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

fn schema_spec(stem: &str) -> SinkSpec {
    SinkSpec::from_ddl(&std::fs::read_to_string(root().join(format!("schemas/{stem}.sql"))).unwrap()).unwrap()
}

fn all_compatibilities() -> Vec<Compatibility> {
    let mut all = Vec::new();
    for flink_version in [FlinkVersion::V1_20, FlinkVersion::V2_2, FlinkVersion::V2_3] {
        for float_spelling in [FloatSpelling::Jdk17, FloatSpelling::Jdk19] {
            all.push(Compatibility { flink_version, float_spelling });
        }
    }
    all
}

/// The generator's output for `schemas/`, one source per row layout: `(golden file stem, source)`.
fn generated_layouts() -> Vec<(String, kjson_codegen::GeneratedSource)> {
    let schemas: Vec<(String, SinkSpec)> = schema_files()
        .into_iter()
        .map(|(stem, ddl)| (format!("schemas/{stem}.sql"), SinkSpec::from_ddl(&ddl).unwrap()))
        .collect();
    let layouts = kjson_codegen::generate_layouts(&schemas).unwrap();
    let stem = |origin: &str| origin.trim_start_matches("schemas/").trim_end_matches(".sql").to_string();
    layouts.into_iter().map(|generated| (stem(&generated.origins[0]), generated)).collect()
}

#[test]
fn golden_sources_match_the_generator() {
    let update = std::env::var_os("KJSON_UPDATE_GOLDEN").is_some();
    for (stem, generated) in generated_layouts() {
        let path = root().join(format!("tests/golden/{stem}.rs"));
        if update {
            std::fs::write(&path, &generated.code).unwrap();
            continue;
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            golden == generated.code,
            "{} differs from what kjson-codegen generates for {}; if the change is intended, run \
             KJSON_UPDATE_GOLDEN=1 cargo test --release --test integration generated::golden",
            path.display(),
            generated.origins.join(", ")
        );
    }
}

#[test]
fn every_layout_has_a_compiled_golden_module_and_no_other_file() {
    let stems: Vec<String> = generated_layouts().into_iter().map(|(stem, _)| stem).collect();
    assert_eq!(stems, GOLDEN_MODULES, "add a `mod` for each golden file to tests/generated.rs");
    let mut files: Vec<String> = std::fs::read_dir(root().join("tests/golden"))
        .unwrap()
        .map(|e| e.unwrap().path())
        // tests/golden/decode/ holds the decoders' goldens (tests/generated_decode.rs).
        .filter(|path| path.is_file())
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, GOLDEN_MODULES, "tests/golden holds a file of no layout");
}

#[test]
fn every_schema_opens_its_generated_encoder() {
    for (stem, _) in schema_files() {
        let encoder = Encoder::open(schema_spec(&stem), Compatibility::default()).unwrap();
        match encoder.kind() {
            EncoderKind::Generated { origin, .. } => {
                assert!(origin.split(", ").any(|o| o == format!("schemas/{stem}.sql")), "{stem}: {origin}")
            }
            other => panic!("schemas/{stem}.sql: {other}"),
        }
    }
}

/// q9 (upsert-kafka, json) and q9_debezium (kafka, debezium-json) differ only in what the run
/// time decides (tombstones, envelope): one generated encoder serves both.
#[test]
fn schemas_of_one_row_layout_share_one_generated_encoder() {
    let json = Encoder::open(schema_spec("q9"), Compatibility::default()).unwrap();
    let debezium = Encoder::open(schema_spec("q9_debezium"), Compatibility::default()).unwrap();
    assert_eq!(json.kind(), debezium.kind());
    let expected = "generated NexmarkQ9 (from schemas/q9.sql, schemas/q9_debezium.sql; spec fingerprint 0x";
    assert!(json.kind().to_string().starts_with(expected), "{}", json.kind());
}

fn slabs_equal(a: &KeyValueSlabs, b: &KeyValueSlabs) -> bool {
    let side = |x: &kjson_arrow::runtime::Slab, y: &kjson_arrow::runtime::Slab| {
        x.len() == y.len() && (0..x.len()).all(|row| x.record(row) == y.record(row))
    };
    side(a.keys(), b.keys()) && side(a.values(), b.values())
}

fn describe(slabs: &KeyValueSlabs) -> String {
    let show = |r: Option<&[u8]>| r.map_or("<null>".to_string(), |r| String::from_utf8_lossy(r).into_owned());
    (0..slabs.num_rows())
        .map(|row| format!("{row}: {} | {}\n", show(slabs.keys().record(row)), show(slabs.values().record(row))))
        .collect()
}

/// Encodes with both and asserts the same outcome: equal slabs or equal errors.
fn assert_same(generated: &mut Encoder, dynamic: &mut Encoder, batch: &RecordBatch, kinds: Option<&Int8Array>) {
    let expected = dynamic.encode(batch, kinds).cloned();
    let got = generated.encode(batch, kinds).cloned();
    match (got, expected) {
        (Ok(got), Ok(expected)) => {
            assert!(slabs_equal(&got, &expected), "generated:\n{}dynamic:\n{}", describe(&got), describe(&expected))
        }
        (Err(got), Err(expected)) => assert_eq!(got.to_string(), expected.to_string()),
        (got, expected) => {
            panic!("generated {:?}, dynamic {:?}", got.map(|s| describe(&s)), expected.map(|s| describe(&s)))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every schema, every compatibility: two random batches through the same pair of encoders
    /// (the second reuses the plan and the writers' caches).
    #[test]
    fn generated_equals_dynamic(
        seed in any::<u64>(),
        rows in prop_oneof![Just(0usize), 1usize..8, 8usize..64],
        null_per_mille in prop_oneof![Just(0u32), 1u32..300, Just(1000u32)],
        nulls_in_not_null in proptest::bool::weighted(0.15),
        compatibility in 0usize..6,
    ) {
        let compatibility = all_compatibilities()[compatibility];
        for (stem, _) in schema_files() {
            let spec = schema_spec(&stem);
            let mut generated = Encoder::open(spec.clone(), compatibility).unwrap();
            prop_assert!(generated.kind().is_generated(), "{stem}");
            let mut dynamic = Encoder::open_dynamic(spec.clone(), compatibility).unwrap();
            let mut rng = Rng::new(seed);
            for _ in 0..2 {
                let shape = Shape { null_per_mille, nulls_in_not_null, refused_values: true, long_text_per_mille: 5, ..Shape::new(rows) };
                let drawn = random_batch(&spec, shape, &mut rng);
                assert_same(&mut generated, &mut dynamic, &drawn.batch, drawn.row_kinds.as_ref());
            }
        }
    }
}

#[test]
fn golden_code_is_the_registered_encoder() {
    // The golden module, compiled into this test, opens for its spec and writes what the
    // registry's encoder (compiled by build.rs from the same schema) writes.
    let spec = schema_spec("q9");
    let mut from_golden = open_generated::<golden::q9::NexmarkQ9>(spec.clone(), Compatibility::default()).unwrap();
    let mut registered = Encoder::open(spec.clone(), Compatibility::default()).unwrap();
    let drawn = random_batch(&spec, Shape { null_per_mille: 100, ..Shape::new(50) }, &mut Rng::new(9));
    let a = from_golden.encode(&drawn.batch, drawn.row_kinds.as_ref()).unwrap().clone();
    let b = registered.encode(&drawn.batch, drawn.row_kinds.as_ref()).unwrap();
    assert!(slabs_equal(&a, b));
    // The same golden code under q9_debezium's spec writes what that spec's registered encoder does.
    let debezium = schema_spec("q9_debezium");
    let mut from_golden = open_generated::<golden::q9::NexmarkQ9>(debezium.clone(), Compatibility::default()).unwrap();
    let mut registered = Encoder::open(debezium, Compatibility::default()).unwrap();
    let a = from_golden.encode(&drawn.batch, drawn.row_kinds.as_ref()).unwrap().clone();
    assert!(slabs_equal(&a, registered.encode(&drawn.batch, drawn.row_kinds.as_ref()).unwrap()));
    let other = schema_spec("q19");
    assert!(open_generated::<golden::q9::NexmarkQ9>(other, Compatibility::default()).is_err());
    let _ = (golden::q0::NexmarkQ0, golden::wide::Wide, golden::nested::Nested, golden::q19::NexmarkQ19);
    let _ = (golden::sensor::Sensor, golden::ledger::Ledger);
}

const CUSTOM_DDL: &str = "CREATE TABLE custom (a INT, b STRING, c ARRAY<DOUBLE>) WITH ('connector' = 'kafka', \
    'topic' = 't', 'properties.bootstrap.servers' = 'x:1', 'format' = 'json')";

#[test]
fn a_spec_not_in_schemas_falls_back_to_the_dynamic_encoder_with_the_same_bytes() {
    let spec = SinkSpec::from_ddl(CUSTOM_DDL).unwrap();
    let mut encoder = Encoder::open(spec.clone(), Compatibility::default()).unwrap();
    assert!(matches!(encoder.kind(), EncoderKind::Dynamic { forced: false, .. }), "{}", encoder.kind());
    assert!(encoder.kind().to_string().starts_with("dynamic (no generated encoder for spec fingerprint 0x"));
    let mut dynamic = EncoderCore::open_dynamic(spec.clone(), Compatibility::default()).unwrap();
    let drawn = random_batch(&spec, Shape { null_per_mille: 200, ..Shape::new(30) }, &mut Rng::new(3));
    let got = encoder.encode(&drawn.batch, drawn.row_kinds.as_ref()).unwrap().clone();
    assert!(slabs_equal(&got, dynamic.encode(&drawn.batch, drawn.row_kinds.as_ref()).unwrap()));
    assert!(got.values().record(0).is_some_and(|r| r.starts_with(b"{\"a\":")));

    // One option away from a generated schema is a different spec: dynamic too.
    let mut q0 = schema_spec("q0");
    q0.value.options.ignore_null_fields = true;
    assert!(!Encoder::open(q0, Compatibility::default()).unwrap().kind().is_generated());
}

#[test]
fn the_same_spec_from_parts_finds_the_generated_encoder() {
    // What the JNI open call passes: no table name, the same columns and options.
    let columns = [
        ("auction", "BIGINT"),
        ("bidder", "BIGINT"),
        ("price", "BIGINT"),
        ("dateTime", "TIMESTAMP(3)"),
        ("extra", "VARCHAR(2147483647)"),
    ];
    let parts = SinkParts::new(columns, [("connector", "kafka"), ("format", "json")]);
    let spec = SinkSpec::from_parts(&parts).unwrap();
    let encoder = Encoder::open(spec, Compatibility::default()).unwrap();
    assert!(matches!(encoder.kind(), EncoderKind::Generated { type_name: "NexmarkQ0", .. }), "{}", encoder.kind());
}

fn field(name: &str, array: &ArrayRef) -> Field {
    Field::new(name, array.data_type().clone(), true)
}

fn batch_of(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    let fields: Vec<Field> = columns.iter().map(|(n, a)| field(n, a)).collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns.into_iter().map(|(_, a)| a).collect()).unwrap()
}

/// A key and a value, `None` for null.
type Record<'a> = (Option<&'a [u8]>, Option<&'a [u8]>);

/// Both encoders, and the bytes they must write.
fn assert_fixture(
    stem: &str,
    compatibility: Compatibility,
    batch: &RecordBatch,
    kinds: Option<&Int8Array>,
    expected: &[(Option<&str>, Option<&str>)],
) {
    let spec = schema_spec(stem);
    for mut encoder in [
        Encoder::open(spec.clone(), compatibility).unwrap(),
        Encoder::open_dynamic(spec.clone(), compatibility).unwrap(),
    ] {
        let kind = encoder.kind().to_string();
        let slabs = encoder.encode(batch, kinds).unwrap();
        let got: Vec<Record<'_>> =
            (0..slabs.num_rows()).map(|row| (slabs.keys().record(row), slabs.values().record(row))).collect();
        let want: Vec<Record<'_>> =
            expected.iter().map(|(k, v)| (k.map(str::as_bytes), v.map(str::as_bytes))).collect();
        assert_eq!(got, want, "{stem} with the {kind} encoder:\n{}", describe(slabs));
    }
}

/// 2024-01-02 03:04:05 UTC in epoch milliseconds.
const JAN_2_2024: i64 = 1_704_164_645_000;

/// Expected bytes written by the real Flink jars (docs/json-format.md lists them): scalars, the key
/// prefix and EXCEPT_KEY, plain decimals by version, TIME by version.
#[test]
fn wide_row_matches_flink_reference_values() {
    let one = |a: ArrayRef| a;
    let batch = batch_of(vec![
        ("k_id", one(Arc::new(Int64Array::from(vec![1])))),
        ("k_part", Arc::new(StringArray::from(vec!["p"]))),
        ("b", Arc::new(BooleanArray::from(vec![true]))),
        ("b_nn", Arc::new(BooleanArray::from(vec![false]))),
        ("ti", Arc::new(Int8Array::from(vec![-128]))),
        ("si", Arc::new(Int16Array::from(vec![32767]))),
        ("i", Arc::new(Int32Array::from(vec![None]))),
        ("i_nn", Arc::new(Int32Array::from(vec![0]))),
        ("bi", Arc::new(Int64Array::from(vec![i64::MAX]))),
        ("f", Arc::new(Float32Array::from(vec![1e7f32]))),
        ("d", Arc::new(Float64Array::from(vec![0.1 + 0.2]))),
        ("dec_10_2", Arc::new(Decimal128Array::from(vec![100]).with_precision_and_scale(10, 2).unwrap())),
        ("dec_38_18", Arc::new(Decimal128Array::from(vec![10i128.pow(17)]).with_precision_and_scale(38, 18).unwrap())),
        ("dec_default", Arc::new(Decimal128Array::from(vec![100]).with_precision_and_scale(10, 0).unwrap())),
        ("ch", Arc::new(StringArray::from(vec!["ab"]))),
        ("vc", Arc::new(StringArray::from(vec!["q\"uote/"]))),
        ("s", Arc::new(StringArray::from(vec!["\u{1F600}\u{b}"]))),
        ("s_nn", Arc::new(StringArray::from(vec![""]))),
        ("bin", Arc::new(BinaryArray::from_vec(vec![&[1, 2, 3]]))),
        ("vbin", Arc::new(BinaryArray::from_vec(vec![&[]]))),
        ("bytes_col", Arc::new(BinaryArray::from_vec(vec![&[0xFB, 0xFF, 0xBF]]))),
        ("dt", Arc::new(Date32Array::from(vec![-719_529]))),
        ("tm", Arc::new(Time32MillisecondArray::from(vec![45_296_789]))),
        ("tm3", Arc::new(Time32MillisecondArray::from(vec![None]))),
        ("ts", Arc::new(TimestampMillisecondArray::from(vec![JAN_2_2024]))),
        ("ts3", Arc::new(TimestampMillisecondArray::from(vec![JAN_2_2024 + 123]))),
        ("ts9", Arc::new(TimestampNanosecondArray::from(vec![JAN_2_2024 * 1_000_000 + 1]))),
        ("ltz", Arc::new(TimestampMillisecondArray::from(vec![0]))),
        ("ltz3", Arc::new(TimestampMillisecondArray::from(vec![-1]))),
    ]);
    let value = |decimals: &str, time: &str| {
        format!(
            "{{\"b\":true,\"b_nn\":false,\"ti\":-128,\"si\":32767,\"i\":null,\"i_nn\":0,\"bi\":9223372036854775807,\
             \"f\":1.0E7,\"d\":0.30000000000000004,{decimals},\"ch\":\"ab\",\"vc\":\"q\\\"uote/\",\
             \"s\":\"\\uD83D\\uDE00\\u000B\",\"s_nn\":\"\",\"bin\":\"AQID\",\"vbin\":\"\",\"bytes_col\":\"+/+/\",\
             \"dt\":\"-0001-12-31\",\"tm\":\"{time}\",\"tm3\":null,\"ts\":\"2024-01-02T03:04:05\",\
             \"ts3\":\"2024-01-02T03:04:05.123\",\"ts9\":\"2024-01-02T03:04:05.000000001\",\
             \"ltz\":\"1970-01-01T00:00:00Z\",\"ltz3\":\"1969-12-31T23:59:59.999Z\"}}"
        )
    };
    let key = Some("{\"id\":1,\"part\":\"p\"}");
    let v23 = value("\"dec_10_2\":1.00,\"dec_38_18\":0.100000000000000000,\"dec_default\":100", "12:34:56.789");
    let c = |flink_version| Compatibility { flink_version, float_spelling: FloatSpelling::Jdk17 };
    assert_fixture("wide", c(FlinkVersion::V2_3), &batch, None, &[(key, Some(&v23))]);
    let v120 = value("\"dec_10_2\":1,\"dec_38_18\":0.1,\"dec_default\":100", "12:34:56");
    assert_fixture("wide", c(FlinkVersion::V1_20), &batch, None, &[(key, Some(&v120))]);
}

/// A `List<Struct<key, value>>` map column (it can hold null keys).
fn list_map(keys: Vec<Option<&str>>, values: ArrayRef, offsets: Vec<i32>) -> ArrayRef {
    let keys: ArrayRef = Arc::new(StringArray::from(keys));
    let fields = Fields::from(vec![field("key", &keys), field("value", &values)]);
    let entries = StructArray::try_new(fields.clone(), vec![keys, values], None).unwrap();
    let entries_field = Arc::new(Field::new("entries", ArrowType::Struct(fields), false));
    Arc::new(ListArray::try_new(entries_field, OffsetBuffer::new(offsets.into()), Arc::new(entries), None).unwrap())
}

/// Expected bytes written by the real Flink jars: TIMESTAMP_LTZ gets `Z` at every depth,
/// ignore-null-fields drops null ROW fields at every level but keeps array elements, the
/// LITERAL null key, MULTISET as element -> count, upsert tombstones.
#[test]
fn nested_rows_match_flink_reference_values() {
    let ts = |v: Vec<Option<i64>>| -> ArrayRef { Arc::new(TimestampMillisecondArray::from(v)) };
    let r_fields = Fields::from(vec![
        Field::new("ltz", ArrowType::Timestamp(arrow_schema::TimeUnit::Millisecond, None), true),
        Field::new("ts", ArrowType::Timestamp(arrow_schema::TimeUnit::Millisecond, None), true),
        Field::new("n", ArrowType::Int32, false),
        Field::new("s", ArrowType::Utf8, true),
    ]);
    let r = StructArray::try_new(
        r_fields,
        vec![
            ts(vec![Some(JAN_2_2024 + 123), None]),
            ts(vec![Some(JAN_2_2024 + 123), None]),
            Arc::new(Int32Array::from(vec![5, 6])),
            Arc::new(StringArray::from(vec![None, Some("x")])),
        ],
        Some(NullBuffer::from(vec![true, false])),
    )
    .unwrap();
    let micros: ArrayRef = Arc::new(TimestampMicrosecondArray::from(vec![Some(0), None, Some(-1)]));
    let item = Arc::new(Field::new("item", micros.data_type().clone(), true));
    let ltz_arr =
        ListArray::try_new(item.clone(), OffsetBuffer::new(vec![0, 2, 2].into()), micros.slice(0, 2), None).unwrap();
    let ts_arr = ListArray::try_new(item, OffsetBuffer::new(vec![0, 1, 1].into()), micros.slice(2, 1), None).unwrap();
    let seconds: ArrayRef = Arc::new(TimestampSecondArray::from(vec![0, 1]));
    let ltz_map = list_map(vec![Some("k"), None], seconds, vec![0, 2, 2]);
    let counts: ArrayRef = Arc::new(Int32Array::from(vec![2]));
    let words = list_map(vec![Some("a")], counts, vec![0, 1, 1]);
    let deep_values: ArrayRef = Arc::new(Int32Array::from(Vec::<i32>::new()));
    let _ = deep_values;
    let deep = new_null_array(
        &ArrowType::Map(
            Arc::new(Field::new(
                "entries",
                ArrowType::Struct(Fields::from(vec![
                    Field::new("key", ArrowType::Utf8, false),
                    Field::new(
                        "value",
                        ArrowType::List(Arc::new(Field::new(
                            "item",
                            ArrowType::Struct(Fields::from(vec![
                                Field::new(
                                    "at_ts",
                                    ArrowType::Timestamp(arrow_schema::TimeUnit::Millisecond, None),
                                    true,
                                ),
                                Field::new("plain", ArrowType::Timestamp(arrow_schema::TimeUnit::Second, None), true),
                                Field::new(
                                    "tags",
                                    ArrowType::List(Arc::new(Field::new("item", ArrowType::Utf8, true))),
                                    true,
                                ),
                            ])),
                            true,
                        ))),
                        true,
                    ),
                ])),
                false,
            )),
            false,
        ),
        2,
    );
    let batch = batch_of(vec![
        ("id", Arc::new(Int32Array::from(vec![7, 8]))),
        ("r", Arc::new(r)),
        ("ltz_arr", Arc::new(ltz_arr)),
        ("ts_arr", Arc::new(ts_arr)),
        ("ltz_map", ltz_map),
        ("deep", deep),
        ("words", words),
        ("note", Arc::new(StringArray::from(vec![None::<&str>, None]))),
    ]);
    let kinds = Int8Array::from(vec![0, 3]);
    let value = "{\"id\":7,\"r\":{\"ltz\":\"2024-01-02 03:04:05.123Z\",\"ts\":\"2024-01-02 03:04:05.123\",\"n\":5},\
        \"ltz_arr\":[\"1970-01-01 00:00:00Z\",null],\"ts_arr\":[\"1969-12-31 23:59:59.999999\"],\
        \"ltz_map\":{\"k\":\"1970-01-01 00:00:00Z\",\"null-key\":\"1970-01-01 00:00:01Z\"},\"words\":{\"a\":2}}";
    let expected = [(Some("{\"id\":7}"), Some(value)), (Some("{\"id\":8}"), None)];
    for compatibility in all_compatibilities() {
        assert_fixture("nested", compatibility, &batch, Some(&kinds), &expected);
    }
}

/// The CDC envelope (docs/json-format.md) wraps the same object `json` writes; INSERT and
/// UPDATE_AFTER as `{"before":null,"after":...,"op":"c"}`, UPDATE_BEFORE and DELETE as
/// `{"before":...,"after":null,"op":"d"}`, with the key unchanged (no tombstones).
#[test]
fn q9_debezium_wraps_the_json_object() {
    let spec = schema_spec("q9_debezium");
    let shape = Shape { null_per_mille: 50, ..Shape::new(40) };
    let drawn = random_batch(&spec, shape, &mut Rng::new(11));
    let kinds = Int8Array::from((0..40).map(|i| (i % 4) as i8).collect::<Vec<_>>());
    let mut debezium = Encoder::open(spec, Compatibility::default()).unwrap();
    assert!(debezium.kind().is_generated());
    let mut json = Encoder::open(schema_spec("q9"), Compatibility::default()).unwrap();
    let plain = json.encode(&drawn.batch, None).unwrap().clone();
    let wrapped = debezium.encode(&drawn.batch, Some(&kinds)).unwrap();
    for row in 0..40 {
        let object = String::from_utf8(plain.values().record(row).unwrap().to_vec()).unwrap();
        let expected = match row % 4 {
            0 | 2 => format!("{{\"before\":null,\"after\":{object},\"op\":\"c\"}}"),
            _ => format!("{{\"before\":{object},\"after\":null,\"op\":\"d\"}}"),
        };
        assert_eq!(wrapped.values().record(row), Some(expected.as_bytes()), "row {row}");
        assert_eq!(wrapped.keys().record(row), plain.keys().record(row), "row {row}");
    }
}

#[test]
fn data_errors_are_the_same_as_the_dynamic_encoders() {
    // TIME outside one day goes through the generic writer in both: same message.
    let spec = schema_spec("wide");
    let mut rng = Rng::new(5);
    let drawn = random_batch(&spec, Shape { null_per_mille: 0, ..Shape::new(3) }, &mut rng);
    let mut columns = drawn.batch.columns().to_vec();
    let tm = drawn.batch.schema().index_of("tm").unwrap();
    columns[tm] = Arc::new(Time32MillisecondArray::from(vec![0, 86_400_000, 1]));
    let schema = Arc::new(Schema::new(
        drawn.batch.schema().fields().iter().zip(&columns).map(|(f, c)| field(f.name(), c)).collect::<Vec<_>>(),
    ));
    let batch = RecordBatch::try_new(schema, columns).unwrap();
    let mut generated = Encoder::open(spec.clone(), Compatibility::default()).unwrap();
    let mut dynamic = Encoder::open_dynamic(spec, Compatibility::default()).unwrap();
    let error = generated.encode(&batch, None).unwrap_err().to_string();
    assert!(error.contains("value of row 1, field `tm`"), "{error}");
    assert_same(&mut generated, &mut dynamic, &batch, None);
    // The encoder recovers on the next batch.
    assert_same(&mut generated, &mut dynamic, &drawn.batch, None);
}
