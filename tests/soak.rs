//! Long runs: resident memory stays flat across a million small batches (errors and re-opened
//! encoders included), and eight threads with their own encoders and schemas give exactly the
//! bytes of a single-threaded run.
//!
//! The two tests take a lock so that neither's allocations show in the other's memory readings.
use std::sync::{Arc, Mutex};

use arrow_array::{
    ArrayRef, BinaryArray, BooleanArray, Date32Array, Decimal128Array, Float64Array, Int32Array, Int64Array, Int8Array,
    ListArray, MapArray, RecordBatch, StringArray, StructArray, TimestampMillisecondArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};
use kjson_arrow::Encoder;
use kjson_runtime::{Compatibility, DataType, KeyValueSlabs, LogicalType, SinkSpec};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// xorshift64*: deterministic batches without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const WORDS: [&str; 8] = ["", "a", "caf\u{e9}", "q\"uote", "line\nbreak", "\u{1F600}", "plain words here", "tab\t"];

fn nulls(rng: &mut Rng, rows: usize) -> Option<NullBuffer> {
    (rng.below(2) == 0).then(|| NullBuffer::from_iter((0..rows).map(|_| rng.below(5) != 0)))
}

/// A column of `rows` random values for the Flink types the test schemas use.
fn column(ty: &DataType, rows: usize, rng: &mut Rng) -> (ArrowType, ArrayRef) {
    use LogicalType as L;
    let validity = nulls(rng, rows);
    let array: ArrayRef = match &ty.logical {
        L::BigInt => {
            Arc::new(Int64Array::new((0..rows).map(|_| rng.next() as i64 >> rng.below(60)).collect(), validity))
        }
        L::Int => Arc::new(Int32Array::new((0..rows).map(|_| rng.next() as i32).collect(), validity)),
        L::Boolean => Arc::new(BooleanArray::new((0..rows).map(|_| rng.below(2) == 0).collect(), validity)),
        L::Double => Arc::new(Float64Array::new((0..rows).map(|_| f64::from_bits(rng.next())).collect(), validity)),
        L::Decimal { precision, scale } => Arc::new(
            Decimal128Array::new((0..rows).map(|_| i128::from(rng.next() as i32)).collect(), validity)
                .with_precision_and_scale(*precision, *scale as i8)
                .unwrap(),
        ),
        L::Date => Arc::new(Date32Array::new((0..rows).map(|_| rng.next() as i32 % 100_000).collect(), validity)),
        L::Timestamp { .. } => Arc::new(TimestampMillisecondArray::new(
            (0..rows).map(|_| (rng.next() >> 20) as i64 - (1 << 43)).collect(),
            validity,
        )),
        L::VarChar { .. } => Arc::new(StringArray::from_iter(
            (0..rows).map(|r| validity.as_ref().is_none_or(|n| n.is_valid(r)).then(|| WORDS[rng.below(8) as usize])),
        )),
        L::VarBinary { .. } => Arc::new(BinaryArray::from_iter((0..rows).map(|r| {
            validity.as_ref().is_none_or(|n| n.is_valid(r)).then(|| WORDS[rng.below(8) as usize].as_bytes())
        }))),
        L::Array(element) => {
            let lengths: Vec<usize> = (0..rows).map(|_| rng.below(4) as usize).collect();
            let (item, values) = column(element, lengths.iter().sum(), rng);
            let field = Arc::new(Field::new("item", item, true));
            Arc::new(ListArray::new(field, OffsetBuffer::from_lengths(lengths), values, validity))
        }
        L::Map { value, .. } => {
            let lengths: Vec<usize> = (0..rows).map(|_| rng.below(4) as usize).collect();
            let total = lengths.iter().sum();
            let keys = StringArray::from_iter_values((0..total).map(|_| WORDS[rng.below(8) as usize]));
            let (value_type, values) = column(value, total, rng);
            let kv =
                Fields::from(vec![Field::new("key", ArrowType::Utf8, false), Field::new("value", value_type, true)]);
            let entries = StructArray::new(kv.clone(), vec![Arc::new(keys), values], None);
            let field = Arc::new(Field::new("entries", ArrowType::Struct(kv), false));
            Arc::new(MapArray::new(field, OffsetBuffer::from_lengths(lengths), entries, validity, false))
        }
        L::Row(fields) => {
            let (arrow_fields, children): (Vec<Field>, Vec<ArrayRef>) = fields
                .iter()
                .map(|f| {
                    let (t, a) = column(&f.data_type, rows, rng);
                    (Field::new(&f.name, t, true), a)
                })
                .unzip();
            Arc::new(StructArray::new(arrow_fields.into(), children, validity))
        }
        other => panic!("the test schemas do not use {other}"),
    };
    (array.data_type().clone(), array)
}

fn random_batch(spec: &SinkSpec, rows: usize, rng: &mut Rng) -> RecordBatch {
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = spec
        .columns
        .iter()
        .map(|c| {
            let (t, a) = column(&c.data_type, rows, rng);
            (Field::new(&c.name, t, true), a)
        })
        .unzip();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
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
    (0..rows).map(|_| rng.below(4) as i8).collect()
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
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1));
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
    let mut rng = Rng(7);
    let batches: Vec<RecordBatch> = (0..32).map(|b| random_batch(&spec, 1 + b % 8, &mut rng)).collect();
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
