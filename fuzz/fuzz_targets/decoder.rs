//! The decoder on arbitrary records, through tables of every format and option that changes how
//! a message is read, on each Flink line: it never panics or hangs, every batch it hands out is
//! valid Arrow, rows name records in order, and failing the batch (Flink's way) happens exactly
//! when collecting the failures finds one, at the same record.
#![no_main]
use arrow_array::Array;
use kjson_runtime::decode::{Decoder, OnError, RecordSide};
use kjson_runtime::{Compatibility, FlinkVersion, FloatSpelling, KjsonError, SinkSpec};
use libfuzzer_sys::fuzz_target;

const COLUMNS: &str = "id BIGINT, name STRING, ok BOOLEAN, small TINYINT, price DECIMAL(10, 2), f FLOAT, \
    d DOUBLE, bin BYTES, dt DATE, tm TIME(3), ts TIMESTAMP(3), ts9 TIMESTAMP(9), ltz TIMESTAMP_LTZ(3), \
    tags ARRAY<STRING>, m MAP<STRING, INT>, ms MULTISET<STRING>, r ROW<a INT, b ARRAY<ROW<c DOUBLE>>>";

const FORMATS: &[&str] = &[
    "'format' = 'json'",
    "'format' = 'json', 'json.ignore-parse-errors' = 'true'",
    "'format' = 'json', 'json.fail-on-missing-field' = 'true', 'json.timestamp-format.standard' = 'ISO-8601'",
    "'format' = 'json', 'json.decode.json-parser.enabled' = 'false'",
    "'format' = 'debezium-json'",
    "'format' = 'debezium-json', 'debezium-json.schema-include' = 'true', 'debezium-json.ignore-parse-errors' = 'true'",
    "'format' = 'canal-json'",
    "'format' = 'maxwell-json', 'maxwell-json.ignore-parse-errors' = 'true'",
    "'format' = 'ogg-json'",
];

fn decoder(format: &str, version: FlinkVersion) -> Decoder {
    let ddl = format!(
        "CREATE TABLE t ({COLUMNS}) WITH ('connector' = 'kafka', 'topic' = 't', \
         'properties.bootstrap.servers' = 'b:9092', {format})"
    );
    let spec = SinkSpec::from_source_ddl(&ddl).expect("the fuzzed tables are valid");
    let compatibility = Compatibility { flink_version: version, float_spelling: FloatSpelling::Jdk17 };
    Decoder::open(spec, compatibility).expect("the fuzzed tables open")
}

/// Records split at 0xFF 0xFE pairs (a record may itself hold any byte).
fn records(data: &[u8]) -> (Vec<i32>, Vec<i32>) {
    let (mut offsets, mut lengths, mut start) = (Vec::new(), Vec::new(), 0usize);
    let mut i = 0;
    while i < data.len() {
        if data[i] == 0xFF && data.get(i + 1) == Some(&0xFE) {
            offsets.push(start as i32);
            lengths.push((i - start) as i32);
            start = i + 2;
            i += 2;
        } else {
            i += 1;
        }
    }
    offsets.push(start as i32);
    lengths.push((data.len() - start) as i32);
    (offsets, lengths)
}

fuzz_target!(|input: &[u8]| {
    let Some((&selector, data)) = input.split_first() else { return };
    let format = FORMATS[usize::from(selector) % FORMATS.len()];
    let version = [FlinkVersion::V1_20, FlinkVersion::V2_2, FlinkVersion::V2_3][usize::from(selector / 16) % 3];
    if version == FlinkVersion::V1_20 && format.contains("json-parser") {
        return; // Flink 1.20 has no such option: the table does not open (decode parity, json_tree_path).
    }
    let (offsets, lengths) = records(data);
    let values = RecordSide { data, offsets: &offsets, lengths: &lengths };

    let mut collecting = decoder(format, version);
    collecting.set_on_error(OnError::Collect);
    let collected = collecting.decode(None, values).expect("collecting never fails the batch");
    for column in collected.batch.columns() {
        column.to_data().validate_full().expect("a decoded column is valid Arrow");
    }
    assert_eq!(collected.records.len(), collected.batch.num_rows());
    assert!(collected.records.windows(2).all(|w| w[0] <= w[1]), "rows name records in order");
    assert!(collected.records.iter().all(|&r| (r as usize) < lengths.len()));
    let first_failure = collected.errors.first().map(|e| match e {
        KjsonError::Record { record, .. } => *record,
        other => panic!("a collected error names its record: {other}"),
    });

    let mut failing = decoder(format, version);
    match (failing.decode(None, values), first_failure) {
        (Ok(batch), None) => assert_eq!(batch.batch.num_rows(), collected.batch.num_rows()),
        (Err(KjsonError::Record { record, .. }), Some(first)) => assert_eq!(record, first),
        (result, first) => {
            panic!("fail and collect disagree: {:?} vs first failure {first:?}", result.map(|b| b.batch.num_rows()))
        }
    }
});
