//! Generated decoders: the generator's output against checked-in golden files (which must
//! compile: they are included below), the registry picking them for the scan specs of
//! `schemas/`, and generated == dynamic on random records of every schema, malformed ones
//! included: the same batch, row kinds, record indexes and errors under `Collect`, the same
//! failing record under `Fail`.
//!
//! Rewrite the golden files after a deliberate generator change with
//! `KJSON_UPDATE_GOLDEN=1 cargo test --release --test integration generated_decode::golden`.
use std::path::PathBuf;

use kjson_arrow::runtime::{Compatibility, FlinkVersion, FloatSpelling, Format, SinkSpec};
use kjson_arrow::{open_decoder, DecodedBatch, Decoder, DecoderKind, OnError, RecordSide};
use proptest::prelude::*;

#[path = "generated_decode/random_record.rs"]
mod random_record;

use random_record::{key_fields, record, value_fields, Rng};

/// The golden files, compiled: each must be valid Rust against the runtime it targets.
mod golden {
    pub mod ledger {
        include!("golden/decode/ledger.rs");
    }
    pub mod nested {
        include!("golden/decode/nested.rs");
    }
    pub mod q0 {
        include!("golden/decode/q0.rs");
    }
    pub mod q19 {
        include!("golden/decode/q19.rs");
    }
    pub mod q9 {
        include!("golden/decode/q9.rs");
    }
    pub mod sensor {
        include!("golden/decode/sensor.rs");
    }
    pub mod wide {
        include!("golden/decode/wide.rs");
    }
}

/// Reads `decoder`'s value side with the golden decoder of `stem`.
fn use_golden(stem: &str, decoder: &mut Decoder) -> bool {
    match stem {
        "ledger" => decoder.use_generated::<golden::ledger::LedgerDecoder>(),
        "nested" => decoder.use_generated::<golden::nested::NestedDecoder>(),
        "q0" => decoder.use_generated::<golden::q0::NexmarkQ0Decoder>(),
        "q19" => decoder.use_generated::<golden::q19::NexmarkQ19Decoder>(),
        "q9" => decoder.use_generated::<golden::q9::NexmarkQ9Decoder>(),
        "sensor" => decoder.use_generated::<golden::sensor::SensorDecoder>(),
        "wide" => decoder.use_generated::<golden::wide::WideDecoder>(),
        other => panic!("no golden decoder for {other}"),
    }
}

/// The schemas with a generated decoder (a json value side): all but the debezium one.
const DECODED: [&str; 7] = ["ledger", "nested", "q0", "q19", "q9", "sensor", "wide"];

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

fn compatibility(flink_version: FlinkVersion) -> Compatibility {
    Compatibility { flink_version, float_spelling: FloatSpelling::Jdk17 }
}

#[test]
fn golden_decoders_match_the_generator() {
    let update = std::env::var_os("KJSON_UPDATE_GOLDEN").is_some();
    let mut generated_stems = Vec::new();
    for (stem, ddl) in schema_files() {
        let origin = format!("schemas/{stem}.sql");
        let Some(generated) = kjson_codegen::generate_decoder_for_ddl(&ddl, &origin).unwrap() else { continue };
        generated_stems.push(stem.clone());
        let path = root().join(format!("tests/golden/decode/{stem}.rs"));
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &generated.code).unwrap();
            continue;
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            golden == generated.code,
            "{} differs from what kjson-codegen generates for {origin}; if the change is intended, run \
             KJSON_UPDATE_GOLDEN=1 cargo test --release --test integration generated_decode::golden",
            path.display()
        );
    }
    assert_eq!(generated_stems, DECODED, "add a `mod` for each golden decoder to tests/generated_decode.rs");
}

#[test]
fn the_json_schemas_open_their_generated_decoder_on_every_flink_line() {
    for (stem, ddl) in schema_files() {
        let spec = SinkSpec::from_source_ddl(&ddl).unwrap();
        let json = spec.value.format == Format::Json;
        for version in [FlinkVersion::V1_20, FlinkVersion::V2_2, FlinkVersion::V2_3] {
            let decoder = open_decoder(spec.clone(), compatibility(version)).unwrap();
            match decoder.kind() {
                DecoderKind::Generated(name) => assert!(json && name.ends_with("Decoder"), "{stem}: {name}"),
                DecoderKind::Dynamic => assert!(!json, "schemas/{stem}.sql has a json value side"),
            }
            // The explicit way to the dynamic decoder.
            assert_eq!(Decoder::open(spec.clone(), compatibility(version)).unwrap().kind(), DecoderKind::Dynamic);
        }
    }
}

#[test]
fn another_spec_or_the_tree_decoder_stays_dynamic() {
    let q0 = std::fs::read_to_string(root().join("schemas/q0.sql")).unwrap();
    let variants = [
        // One more column: another fingerprint.
        q0.replace("extra VARCHAR", "extra VARCHAR, more INT"),
        // Another timestamp format: another canonical spec.
        q0.replace("'format' = 'json'", "'format' = 'json', 'json.timestamp-format.standard' = 'ISO-8601'"),
        // The same row layout in a changelog envelope: another scan spec (the encoders share one).
        q0.replace("'format' = 'json'", "'format' = 'debezium-json'"),
        // The same spec read by Flink's tree decoder: no one-pass reader.
        q0.replace("'format' = 'json'", "'format' = 'json', 'json.decode.json-parser.enabled' = 'false'"),
    ];
    for ddl in variants {
        let decoder = open_decoder(SinkSpec::from_source_ddl(&ddl).unwrap(), Compatibility::default()).unwrap();
        assert_eq!(decoder.kind(), DecoderKind::Dynamic, "{ddl}");
    }
}

/// The DDL with `option` (one `'key' = 'value'` per side the format is set on) added.
fn with_read_option(ddl: &str, option: &str) -> String {
    if option.is_empty() {
        return ddl.to_string();
    }
    let (key, value) = option.split_once('=').unwrap();
    let mut extra = Vec::new();
    if ddl.contains("'format' = 'json'") {
        extra.push(format!("'json.{key}' = '{value}'"));
    }
    for side in ["key", "value"] {
        if ddl.contains(&format!("'{side}.format' = 'json'")) {
            extra.push(format!("'{side}.json.{key}' = '{value}'"));
        }
    }
    let end = ddl.rfind(')').unwrap();
    format!("{},\n  {}\n{}", &ddl[..end].trim_end(), extra.join(",\n  "), &ddl[end..])
}

/// The records of one fetch: keys (when the table reads key fields) and values, as slabs.
struct Fetch {
    keys: Option<(Vec<u8>, Vec<i32>, Vec<i32>)>,
    values: (Vec<u8>, Vec<i32>, Vec<i32>),
}

fn slab(records: &[Option<Vec<u8>>]) -> (Vec<u8>, Vec<i32>, Vec<i32>) {
    let (mut data, mut offsets, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
    for record in records {
        offsets.push(data.len() as i32);
        match record {
            Some(bytes) => {
                lengths.push(bytes.len() as i32);
                data.extend_from_slice(bytes);
            }
            None => lengths.push(-1),
        }
    }
    (data, offsets, lengths)
}

fn side(slab: &(Vec<u8>, Vec<i32>, Vec<i32>)) -> RecordSide<'_> {
    RecordSide { data: &slab.0, offsets: &slab.1, lengths: &slab.2 }
}

fn random_fetch(rng: &mut Rng, spec: &SinkSpec, records: usize) -> Fetch {
    let (keys, values) = (key_fields(spec), value_fields(spec));
    let value_records: Vec<Option<Vec<u8>>> = (0..records)
        .map(|_| {
            let malformed = rng.chance(300);
            record(rng, &values, malformed)
        })
        .collect();
    let key_records: Vec<Option<Vec<u8>>> = (0..records).map(|_| record(rng, &keys, false)).collect();
    Fetch { keys: (!keys.is_empty()).then(|| slab(&key_records)), values: slab(&value_records) }
}

/// Everything a decode gives, in a comparable form.
fn outcome(decoded: kjson_arrow::runtime::Result<DecodedBatch>) -> Result<(DecodedBatch, Vec<String>), String> {
    decoded
        .map(|d| {
            let errors = d.errors.iter().map(ToString::to_string).collect();
            (d, errors)
        })
        .map_err(|e| e.to_string())
}

fn same(a: &Result<(DecodedBatch, Vec<String>), String>, b: &Result<(DecodedBatch, Vec<String>), String>) -> bool {
    match (a, b) {
        (Ok((a, a_errors)), Ok((b, b_errors))) => {
            a.batch == b.batch && a.row_kinds == b.row_kinds && a.records == b.records && a_errors == b_errors
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// Decodes `fetch` with the generated (the build's, or the golden one of `golden`) and the
/// dynamic decoder under both error modes; the rows the generated one read under `Collect`.
fn compare(ddl: &str, version: FlinkVersion, fetch: &Fetch, golden: Option<&str>, what: &str) -> usize {
    let spec = SinkSpec::from_source_ddl(ddl).unwrap();
    let mut rows = 0;
    for on_error in [OnError::Collect, OnError::Fail] {
        let mut generated = match golden {
            Some(stem) => {
                let mut decoder = Decoder::open(spec.clone(), compatibility(version)).unwrap();
                assert!(use_golden(stem, &mut decoder), "{what}");
                decoder
            }
            None => open_decoder(spec.clone(), compatibility(version)).unwrap(),
        };
        assert!(matches!(generated.kind(), DecoderKind::Generated(_)), "{what}: {:?}", generated.kind());
        let mut dynamic = Decoder::open(spec.clone(), compatibility(version)).unwrap();
        generated.set_on_error(on_error);
        dynamic.set_on_error(on_error);
        let keys = fetch.keys.as_ref().map(side);
        let a = outcome(generated.decode(keys, side(&fetch.values)));
        let b = outcome(dynamic.decode(keys, side(&fetch.values)));
        assert!(same(&a, &b), "{what} {on_error:?}: generated\n{a:?}\ndynamic\n{b:?}");
        if let (OnError::Collect, Ok((decoded, _))) = (on_error, &a) {
            rows += decoded.batch.num_rows();
        }
    }
    rows
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn generated_reads_exactly_what_dynamic_reads(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let mut rows = 0;
        for (stem, ddl) in schema_files().into_iter().filter(|(stem, _)| DECODED.contains(&stem.as_str())) {
            for option in ["", "fail-on-missing-field=true", "ignore-parse-errors=true"] {
                let ddl = with_read_option(&ddl, option);
                let spec = SinkSpec::from_source_ddl(&ddl).unwrap();
                for version in [FlinkVersion::V1_20, FlinkVersion::V2_2, FlinkVersion::V2_3] {
                    let fetch = random_fetch(&mut rng, &spec, 64);
                    // Every other fetch by the golden decoder (the same code, checked in).
                    let golden = rng.chance(500).then_some(stem.as_str());
                    let what = format!("{stem} [{option}] {version:?} golden {} seed {seed}", golden.is_some());
                    rows += compare(&ddl, version, &fetch, golden, &what);
                }
            }
        }
        // Most records are well-formed: the generated decoder read them.
        prop_assert!(rows > 1000, "only {rows} rows");
    }
}
