//! Long runs: resident memory stays flat across a million small batches (errors and re-opened
//! encoders included), and eight threads with their own encoders and schemas give exactly the
//! bytes of a single-threaded run.
//!
//! The two tests take a lock so that neither's allocations show in the other's memory readings.
use std::sync::{Arc, Mutex};

use arrow_array::{Int8Array, RecordBatch};
use kjson_arrow::Encoder;
use kjson_runtime::{Compatibility, KeyValueSlabs, SinkSpec};
use kjson_testkit::{Rng, Shape};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A batch of `rows` rows for `spec` with nothing the encoder refuses (the tests unwrap).
fn random_batch(spec: &SinkSpec, rows: usize, rng: &mut Rng) -> RecordBatch {
    kjson_testkit::random_batch(spec, Shape::new(rows), rng).batch
}

const WITH_KAFKA: &str = "'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092'";

/// Eight sink schemas: the three of schemas/ (generated encoders) and five dynamic ones.
fn schemas() -> Vec<(String, SinkSpec)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/schemas");
    let mut ddls: Vec<(String, String)> = ["q0.sql", "q9.sql", "q19.sql"]
        .iter()
        .map(|f| (f.to_string(), std::fs::read_to_string(format!("{root}/{f}")).unwrap()))
        .collect();
    let own = [
        "id BIGINT, name STRING, tags ARRAY<STRING>, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'x', 'key.format' = 'json', 'value.format' = 'json'",
        &format!("r ROW<a INT, b STRING, c ARRAY<ROW<d BOOLEAN>>>, m MAP<STRING, BIGINT>) WITH ({WITH_KAFKA}, 'format' = 'json', 'json.encode.ignore-null-fields' = 'true'"),
        &format!("price DECIMAL(10, 2), x DOUBLE, day DATE, ts TIMESTAMP(3)) WITH ({WITH_KAFKA}, 'format' = 'json', 'json.timestamp-format.standard' = 'ISO-8601'"),
        &format!("k STRING, payload BYTES, flags ARRAY<BOOLEAN>) WITH ({WITH_KAFKA}, 'key.format' = 'json', 'key.fields' = 'k', 'value.format' = 'json'"),
        &format!("m MAP<STRING, ARRAY<INT>>, n INT) WITH ({WITH_KAFKA}, 'format' = 'json', 'json.encode.decimal-as-plain-number' = 'true'"),
    ];
    ddls.extend(own.iter().enumerate().map(|(i, body)| (format!("own{i}"), format!("CREATE TABLE t{i} ({body})"))));
    ddls.into_iter().map(|(name, ddl)| (name, SinkSpec::from_ddl(&ddl).unwrap())).collect()
}

fn owned(slabs: &KeyValueSlabs) -> (Vec<u8>, Vec<i32>, Vec<u8>, Vec<i32>) {
    (
        slabs.keys().bytes().to_vec(),
        slabs.keys().lengths().to_vec(),
        slabs.values().bytes().to_vec(),
        slabs.values().lengths().to_vec(),
    )
}

fn row_kinds(rows: usize, rng: &mut Rng) -> Int8Array {
    kjson_testkit::row_kinds(rng, rows)
}

/// One thread's schema name, spec and batches (with their row kinds).
type ThreadWork = (String, SinkSpec, Vec<(RecordBatch, Int8Array)>);

#[test]
fn eight_threads_with_their_own_encoders_match_a_single_thread() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let passes = if cfg!(debug_assertions) { 3 } else { 30 };
    let work: Vec<ThreadWork> = schemas()
        .into_iter()
        .enumerate()
        .map(|(i, (name, spec))| {
            let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1));
            let batches = (0..16)
                .map(|b| {
                    let rows = [0, 1, 7, 100, 1000][b % 5];
                    (random_batch(&spec, rows, &mut rng), row_kinds(rows, &mut rng))
                })
                .collect();
            (name, spec, batches)
        })
        .collect();
    let expected: Vec<Vec<_>> = work
        .iter()
        .map(|(_, spec, batches)| {
            let mut encoder = Encoder::open(spec.clone(), Compatibility::default()).unwrap();
            batches.iter().map(|(b, k)| owned(encoder.encode(b, Some(k)).unwrap())).collect()
        })
        .collect();
    let work = Arc::new(work);
    let expected = Arc::new(expected);
    let threads: Vec<_> = (0..work.len())
        .map(|i| {
            let (work, expected) = (Arc::clone(&work), Arc::clone(&expected));
            std::thread::spawn(move || {
                let (name, spec, batches) = &work[i];
                let mut encoder = Encoder::open(spec.clone(), Compatibility::default()).unwrap();
                for pass in 0..passes {
                    for (b, ((batch, kinds), want)) in batches.iter().zip(&expected[i]).enumerate() {
                        let got = owned(encoder.encode(batch, Some(kinds)).unwrap());
                        assert!(got == *want, "{name}: pass {pass}, batch {b} differs from the single-threaded run");
                    }
                }
                encoder.kind().is_generated()
            })
        })
        .collect();
    let generated = threads.into_iter().map(|t| t.join().expect("no thread panicked")).filter(|g| *g).count();
    assert_eq!(generated, 3, "q0, q9 and q19 run their generated encoders");
}

/// Resident set size of this process, from /proc/self/status.
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn resident_memory_stays_flat_over_a_million_batches() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let total: usize = if cfg!(debug_assertions) { 100_000 } else { 1_000_000 };
    let (_, spec) = schemas().swap_remove(4);
    let mut rng = Rng::new(7);
    // One Arrow schema, as one producer sends: the encoder keeps its plan.
    let layouts = kjson_testkit::layouts(&spec, &mut rng);
    let batches: Vec<RecordBatch> = (0..32)
        .map(|b| kjson_testkit::batch_in(&spec, layouts.clone(), Shape::new(1 + b % 8), &mut rng).batch)
        .collect();
    // A batch with another schema: refused each time it comes.
    let wrong = random_batch(&schemas()[3].1, 2, &mut rng);
    let mut encoder = Encoder::open(spec.clone(), Compatibility::default()).unwrap();
    let (mut baseline, mut peak, mut rows) = (0u64, 0u64, 0usize);
    for i in 0..total {
        if i % 10_000 == 9_999 {
            encoder = Encoder::open(spec.clone(), Compatibility::default()).unwrap();
        }
        if i % 1_000 == 999 {
            assert!(encoder.encode(&wrong, None).is_err());
        }
        rows += encoder.encode(&batches[i % batches.len()], None).unwrap().num_rows();
        if i == total / 20 {
            baseline = resident_kib();
        }
        if i > total / 20 && i % (total / 20) == 0 {
            peak = peak.max(resident_kib());
        }
    }
    assert!(rows > total);
    let growth = peak.saturating_sub(baseline);
    eprintln!("resident memory: {baseline} KiB after warm-up, peak {peak} KiB after, growth {growth} KiB");
    assert!(growth < 16 * 1024, "resident memory grew by {growth} KiB over {total} batches");
}
