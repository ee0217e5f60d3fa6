//! The dynamic encoder on random batches and specs derived from the input: random nesting of
//! ROW / ARRAY / MAP / MULTISET, random nulls, sliced arrays, empty and long strings, invalid
//! UTF-8 in Binary declared STRING, random key/value projections, options and row kinds.
//!
//! Checks: no panic; every non-null record is one JSON document equal to what the Arrow values
//! say (field order, nulls, map keys, strings, Base64); tombstones and null keys where the
//! connector puts them; CDC value formats (debezium, canal, maxwell, ogg) wrap each row in the
//! envelope of its row kind; a failing batch fails at the first row that must fail, with the
//! right error kind; and the same encoder gives the same result again (an error leaves no state).
#![no_main]
use std::collections::BTreeMap;
use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use arrow_array::{Array, ArrayRef, Int8Array, RecordBatch};
use arrow_schema::{Field, Schema};
use kjson_fuzz::expect::{envelope, record, Json, MustFail, SideOptions};
use kjson_runtime::{
    Compatibility, EncoderCore, FlinkVersion, FloatSpelling, KeyValueSlabs, KjsonError, MapNullKeyMode, RowKind,
    SinkParts, SinkSpec,
};
use kjson_testkit::{array, row_kinds, FuzzBytes, Layout, Shape};
use libfuzzer_sys::fuzz_target;

struct Case {
    layouts: Vec<Layout>,
    /// A CDC value format, `None` for json.
    value_format: Option<&'static str>,
    parts: SinkParts,
    batch: RecordBatch,
    kinds: Option<Int8Array>,
    compatibility: Compatibility,
}

/// Format options of one side, with the values the checks need.
fn side_options(u: &mut Unstructured<'_>) -> Result<(BTreeMap<String, String>, SideOptions)> {
    let mut options = BTreeMap::new();
    let ignore_null_fields: bool = u.arbitrary()?;
    options.insert("encode.ignore-null-fields".into(), ignore_null_fields.to_string());
    let (mode, null_key) = *u.choose(&[
        ("FAIL", MapNullKeyMode::Fail),
        ("DROP", MapNullKeyMode::Drop),
        ("LITERAL", MapNullKeyMode::Literal),
    ])?;
    options.insert("map-null-key.mode".into(), mode.into());
    let literal = u.choose(&["null", "k", "", "\u{1F600}\""])?.to_string();
    options.insert("map-null-key.literal".into(), literal.clone());
    options.insert("timestamp-format.standard".into(), u.choose(&["SQL", "ISO-8601"])?.to_string());
    options.insert("encode.decimal-as-plain-number".into(), u.arbitrary::<bool>()?.to_string());
    Ok((options, SideOptions { ignore_null_fields, null_key, literal }))
}

fn subset(u: &mut Unstructured<'_>, count: usize, non_empty: bool) -> Result<Vec<usize>> {
    let mut picked: Vec<usize> = (0..count).filter(|_| u.ratio(2, 3).unwrap_or(true)).collect();
    if picked.is_empty() && non_empty {
        picked.push(u.choose_index(count)?);
    }
    Ok(picked)
}

fn case(u: &mut Unstructured<'_>) -> Result<(Case, SideOptions, SideOptions)> {
    let count = u.int_in_range(1..=4usize)?;
    let layouts: Vec<Layout> = (0..count).map(|_| Layout::arbitrary(&mut FuzzBytes(u), 0)).collect();
    let rows = u.int_in_range(0..=12usize)?;
    let upsert = u.ratio(1, 3)?;
    let key_columns = match upsert || u.ratio(1, 3)? {
        true => Some(subset(u, count, true)?),
        false => None,
    };
    let (key_options, key_side) = side_options(u)?;
    let (value_options, value_side) = side_options(u)?;
    // CDC formats are value formats of `kafka` only (insert-only formats for upsert-kafka).
    let value_format = match !upsert && u.ratio(1, 3)? {
        true => Some(*u.choose(&["debezium-json", "canal-json", "maxwell-json", "ogg-json"])?),
        false => None,
    };
    let names: Vec<String> = (0..count).map(|i| format!("c{i}")).collect();
    let mut options = BTreeMap::new();
    options.insert("connector".to_string(), if upsert { "upsert-kafka" } else { "kafka" }.to_string());
    let format = value_format.unwrap_or("json");
    options.insert("value.format".to_string(), format.to_string());
    options.extend(value_options.into_iter().map(|(key, value)| (format!("value.{format}.{key}"), value)));
    let include = *u.choose(&["ALL", "EXCEPT_KEY"])?;
    options.insert("value.fields-include".to_string(), include.to_string());
    let key_names: Vec<&str> = key_columns.iter().flatten().map(|&index| names[index].as_str()).collect();
    if key_columns.is_some() {
        options.insert("key.format".to_string(), "json".to_string());
        options.extend(key_options.into_iter().map(|(key, value)| (format!("key.json.{key}"), value)));
        if !upsert {
            options.insert("key.fields".to_string(), key_names.join(";"));
        }
    }
    let mut parts = SinkParts::default();
    parts.type_strings = layouts.iter().map(Layout::flink_type).collect();
    parts.primary_key = if upsert { key_names.iter().map(|name| name.to_string()).collect() } else { Vec::new() };
    parts.field_names = names;
    parts.options = options;
    let shape = Shape {
        null_per_mille: *u.choose(&[0, 50, 333, 900])?,
        refused_values: true,
        long_text_per_mille: 100,
        ..Shape::new(rows)
    };
    let columns: Vec<ArrayRef> = layouts.iter().map(|l| array(&mut FuzzBytes(u), l, rows, true, &shape)).collect();
    let fields: Vec<Field> =
        columns.iter().enumerate().map(|(i, c)| Field::new(format!("c{i}"), c.data_type().clone(), true)).collect();
    let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).expect("generated batch is valid");
    let kinds = u.ratio(1, 2)?.then(|| row_kinds(&mut FuzzBytes(u), rows));
    let compatibility = Compatibility {
        flink_version: *u.choose(&[FlinkVersion::V1_20, FlinkVersion::V2_2, FlinkVersion::V2_3])?,
        float_spelling: *u.choose(&[FloatSpelling::Jdk17, FloatSpelling::Jdk19])?,
    };
    Ok((Case { layouts, value_format, parts, batch, kinds, compatibility }, key_side, value_side))
}

/// The expected key and value of each row (`None` for a null key or a tombstone).
type Expected = Vec<(
    std::result::Result<Option<kjson_fuzz::expect::Expect>, MustFail>,
    std::result::Result<Option<kjson_fuzz::expect::Expect>, MustFail>,
)>;

fn expected(case: &Case, spec: &SinkSpec, key: &SideOptions, value: &SideOptions) -> Expected {
    let side_columns = |projection: &[usize], names: &[String]| {
        projection
            .iter()
            .zip(names)
            .map(|(&c, name)| (name.clone(), case.batch.column(c).clone(), &case.layouts[c]))
            .collect::<Vec<_>>()
    };
    let key_columns = spec.key.as_ref().map(|k| side_columns(&k.projection, &k.field_names));
    let value_columns = side_columns(&spec.value.projection, &spec.value.field_names);
    let object = |columns: &Vec<(String, ArrayRef, &Layout)>, row: usize, options: &SideOptions| {
        let borrowed: Vec<(&str, &dyn Array, &Layout)> =
            columns.iter().map(|(n, a, s)| (n.as_str(), a.as_ref(), *s)).collect();
        record(&borrowed, row, options).map(Some)
    };
    (0..case.batch.num_rows())
        .map(|row| {
            let k = match &key_columns {
                Some(columns) => object(columns, row, key),
                None => Ok(None),
            };
            let kind = case.kinds.as_ref().map_or(RowKind::Insert, |k| RowKind::from_byte(k.value(row)).unwrap());
            let v = match spec.is_upsert() && kind.is_retraction() {
                true => Ok(None),
                false => object(&value_columns, row, value).map(|row| {
                    row.map(|r| envelope(case.value_format, value.ignore_null_fields, kind.is_retraction(), r))
                }),
            };
            (k, v)
        })
        .collect()
}

fn check_record(slab: &kjson_runtime::Slab, row: usize, expected: &Option<kjson_fuzz::expect::Expect>, side: &str) {
    match (slab.record(row), expected) {
        (None, None) => {}
        (Some(bytes), Some(expect)) => {
            let json: Json = serde_json::from_slice(bytes).unwrap_or_else(|e| {
                panic!("{side} of row {row} is not JSON ({e}): {}", String::from_utf8_lossy(bytes))
            });
            assert!(
                expect.matches(&json),
                "{side} of row {row}:\n  wrote    {}\n  expected {expect:?}",
                String::from_utf8_lossy(bytes)
            );
        }
        (got, _) => panic!("{side} of row {row}: wrote {got:?}, expected {expected:?}"),
    }
}

/// The first row (and side) that must fail, if any.
fn first_failure(expected: &Expected) -> Option<(usize, &'static str)> {
    expected.iter().enumerate().find_map(|(row, (k, v))| match (k, v) {
        (Err(_), _) => Some((row, "key")),
        (_, Err(_)) => Some((row, "value")),
        _ => None,
    })
}

fn check(case: &Case, spec: &SinkSpec, result: &std::result::Result<KeyValueSlabs, KjsonError>, expected: &Expected) {
    let batch = arrow_array::StructArray::from(case.batch.clone()).into_data();
    if kjson_fuzz::expect::refused_at_bind(&batch) {
        assert!(matches!(result, Err(KjsonError::Value { .. })), "a value past Flink's range must fail: {result:?}");
        return;
    }
    match (result, first_failure(expected)) {
        (Ok(slabs), None) => {
            assert_eq!(slabs.keys().len(), case.batch.num_rows());
            assert_eq!(slabs.values().len(), case.batch.num_rows());
            for (row, (k, v)) in expected.iter().enumerate() {
                check_record(slabs.keys(), row, k.as_ref().unwrap(), "key");
                check_record(slabs.values(), row, v.as_ref().unwrap(), "value");
            }
        }
        (Err(error), Some((row, side))) => {
            let at = format!("{side} of row {row}, field");
            assert!(
                error.message().starts_with(&at),
                "expected a failure at `{at}`, got {error}\n{spec:?}\n{:?}\n{:?}",
                case.batch,
                case.layouts
            );
            assert!(matches!(error, KjsonError::MapNullKey { .. } | KjsonError::Schema { .. }), "{error:?}");
        }
        (Ok(_), Some((row, side))) => panic!("{side} of row {row} must fail, the batch encoded: {spec:?}"),
        (Err(error), None) => panic!("unexpected error {error}\nspec {spec:?}\nschema {:?}", case.batch.schema()),
    }
}

fn run(data: &[u8]) -> Result<()> {
    let mut u = Unstructured::new(data);
    let (case, key_side, value_side) = case(&mut u)?;
    let spec = SinkSpec::from_parts(&case.parts)
        .unwrap_or_else(|e| panic!("generated parts are valid: {e}\n{:?}", case.parts.type_strings));
    let expected = expected(&case, &spec, &key_side, &value_side);
    let mut encoder = EncoderCore::open_dynamic(spec.clone(), case.compatibility).expect("open");
    let first = encoder.encode(&case.batch, case.kinds.as_ref()).cloned();
    check(&case, &spec, &first, &expected);
    // The same handle again: an error (or a success) leaves nothing behind.
    let second = encoder.encode(&case.batch, case.kinds.as_ref()).cloned();
    match (&first, &second) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.values().bytes(), b.values().bytes());
            assert_eq!(a.keys().bytes(), b.keys().bytes());
            assert_eq!((a.values().lengths(), a.keys().lengths()), (b.values().lengths(), b.keys().lengths()));
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("second encode differs: {first:?} then {second:?}"),
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});
