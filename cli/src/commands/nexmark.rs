//! `kjson nexmark`: the main job on embedded defaults. Generates a Nexmark sink's rows, encodes
//! them through the query's embedded Kafka DDL and, in the same run, through arrow-json's
//! line-delimited writer as the baseline, then reports the throughput of each. The baseline needs
//! the `bench` feature (on by default; release binaries are built without it).
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use kjson_arrow::runtime::{KeyValueSlabs, SinkSpec};

use crate::commands::common::{CompatibilityArgs, PendingFile};
use crate::nexmark::{NexmarkBatch, NexmarkStream, Query};
use crate::progress::Progress;
use kjson_arrow::Encoder;

const Q0_DDL: &str = include_str!("../../../schemas/q0.sql");
const Q9_DDL: &str = include_str!("../../../schemas/q9.sql");
const Q19_DDL: &str = include_str!("../../../schemas/q19.sql");

#[derive(Args, Debug, Clone)]
pub struct NexmarkArgs {
    /// The Nexmark query whose sink is fed: q0 (kafka, append-only bids), q9 (upsert-kafka,
    /// winning bid per auction) or q19 (upsert-kafka, top-10 bids per auction).
    #[arg(long, default_value = "q0", value_parser = parse_query)]
    pub query: Query,
    /// Sink rows to generate (changelog rows for q9 and q19, including retractions).
    #[arg(long, default_value_t = 1_000_000)]
    pub rows: usize,
    /// Also write the kjson records here, one line per record: the key, a TAB, the value; a null
    /// key (q0) or a tombstone value is written as the four letters `null`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Rows per Arrow batch.
    #[arg(long, default_value_t = 4096, value_parser = parse_batch_rows)]
    pub batch_rows: usize,
    /// Seed of the generator; the same seed gives the same rows.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// q19: leave out the -U rows, as Flink's planner does in front of an upsert sink (by
    /// default they are kept and become tombstones).
    #[arg(long)]
    pub no_update_before: bool,
    /// No progress line (it is shown only when stderr is a terminal anyway).
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub compatibility: CompatibilityArgs,
}

fn parse_query(text: &str) -> Result<Query, String> {
    Query::parse(text).ok_or_else(|| format!("unknown query '{text}'; expected q0, q9 or q19"))
}

fn parse_batch_rows(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("invalid batch size '{text}'; expected a whole number of rows, at least 1")),
    }
}

/// The embedded sink DDL of a query.
pub fn query_ddl(query: Query) -> &'static str {
    match query {
        Query::Q0 => Q0_DDL,
        Query::Q9 => Q9_DDL,
        Query::Q19 => Q19_DDL,
    }
}

/// Bytes written and time spent by one encoder; only the encode calls are timed.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Throughput {
    pub bytes: u64,
    pub elapsed: Duration,
}

impl Throughput {
    pub fn rows_per_second(&self, rows: usize) -> f64 {
        rows as f64 / self.elapsed.as_secs_f64()
    }

    /// Decimal megabytes (10^6 bytes) per second.
    pub fn megabytes_per_second(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.elapsed.as_secs_f64()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct NexmarkReport {
    pub query: Query,
    pub seed: u64,
    /// Which encoder kjson ran (`Encoder::kind`).
    pub encoder: String,
    pub rows: usize,
    /// Source events (persons, auctions, bids) generated to produce the rows.
    pub events: i64,
    /// Kafka records written by kjson (one per row).
    pub records: usize,
    pub tombstones: usize,
    pub null_keys: usize,
    /// kjson: bytes of the key and value records (no separators).
    pub kjson: Throughput,
    /// arrow-json `LineDelimitedWriter` over the same batches: bytes including newlines. `None`
    /// in a build without the `bench` feature.
    pub arrow_json: Option<Throughput>,
    /// Time spent generating (not part of either measurement).
    pub generation: Duration,
}

impl NexmarkReport {
    fn empty(query: Query, seed: u64) -> Self {
        NexmarkReport {
            query,
            seed,
            encoder: String::new(),
            rows: 0,
            events: 0,
            records: 0,
            tombstones: 0,
            null_keys: 0,
            kjson: Throughput::default(),
            arrow_json: cfg!(feature = "bench").then(Throughput::default),
            generation: Duration::ZERO,
        }
    }
}

pub fn run_nexmark(args: &NexmarkArgs) -> Result<NexmarkReport, String> {
    let ddl = query_ddl(args.query);
    let spec = SinkSpec::from_ddl(ddl).map_err(|e| format!("embedded schemas/{}.sql: {e}", args.query))?;
    let encoder = Encoder::open(spec, args.compatibility.compatibility()).map_err(|e| e.to_string())?;
    let Some(target) = &args.out else {
        return run_measured(args, encoder, None);
    };
    let pending = PendingFile::new(target);
    let result = File::create(&pending.temp)
        .map_err(|e| format!("cannot create {}: {e}", target.display()))
        .and_then(|file| {
            let mut out = BufWriter::with_capacity(1 << 20, file);
            let report = run_measured(args, encoder, Some(&mut out))?;
            out.flush().map_err(|e| format!("writing {}: {e}", target.display()))?;
            Ok(report)
        })
        .and_then(|report| pending.commit().map(|()| report));
    if result.is_err() {
        pending.discard();
    }
    result
}

/// The generate / encode / baseline loop.
fn run_measured(
    args: &NexmarkArgs,
    mut encoder: Encoder,
    mut out: Option<&mut dyn Write>,
) -> Result<NexmarkReport, String> {
    let mut stream = NexmarkStream::with_update_before(args.query, args.seed, !args.no_update_before);
    let mut report = NexmarkReport::empty(args.query, args.seed);
    report.encoder = encoder.kind().to_string();
    let mut baseline_buffer = Vec::new();
    let mut progress = Progress::on_stderr(format!("kjson nexmark {}", args.query), Some(args.rows), args.quiet);
    while report.rows < args.rows {
        let rows = args.batch_rows.min(args.rows - report.rows);
        let started = Instant::now();
        let batch = stream.next_batch(rows).map_err(|e| format!("generating {} rows: {e}", args.query))?;
        report.generation += started.elapsed();

        let started = Instant::now();
        let slabs = encoder
            .encode(&batch.batch, batch.row_kinds.as_ref())
            .map_err(|e| format!("encoding rows {}..: {e}", report.rows))?;
        report.kjson.elapsed += started.elapsed();
        count_records(&mut report, slabs, rows);
        if let Some(out) = out.as_deref_mut() {
            write_records(out, slabs, rows).map_err(|e| format!("writing the records: {e}"))?;
        }

        if let Some(baseline) = report.arrow_json.as_mut() {
            baseline.elapsed += encode_baseline(&batch, &mut baseline_buffer)?;
            baseline.bytes += baseline_buffer.len() as u64;
        }
        report.rows += rows;
        progress.update(report.rows);
    }
    progress.finish();
    report.events = stream.events_generated();
    Ok(report)
}

fn count_records(report: &mut NexmarkReport, slabs: &KeyValueSlabs, rows: usize) {
    for row in 0..rows {
        let key = (row < slabs.keys().len()).then(|| slabs.keys().record(row)).flatten();
        let value = (row < slabs.values().len()).then(|| slabs.values().record(row)).flatten();
        report.kjson.bytes += (key.map_or(0, <[u8]>::len) + value.map_or(0, <[u8]>::len)) as u64;
        report.null_keys += usize::from(key.is_none());
        report.tombstones += usize::from(value.is_none());
    }
    report.records += rows;
}

/// `key<TAB>value<LF>`, `null` for a missing side. Flink's JSON never holds a raw TAB or LF.
fn write_records(out: &mut dyn Write, slabs: &KeyValueSlabs, rows: usize) -> std::io::Result<()> {
    for row in 0..rows {
        let key = (row < slabs.keys().len()).then(|| slabs.keys().record(row)).flatten();
        let value = (row < slabs.values().len()).then(|| slabs.values().record(row)).flatten();
        out.write_all(key.unwrap_or(b"null"))?;
        out.write_all(b"\t")?;
        out.write_all(value.unwrap_or(b"null"))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// arrow-json's line-delimited writer over the whole batch (it has no key/value split or row
/// kinds); returns the time of the write alone.
#[cfg(feature = "bench")]
fn encode_baseline(batch: &NexmarkBatch, buffer: &mut Vec<u8>) -> Result<Duration, String> {
    buffer.clear();
    let started = Instant::now();
    let mut writer = arrow_json::LineDelimitedWriter::new(&mut *buffer);
    writer.write(&batch.batch).map_err(|e| format!("arrow-json baseline: {e}"))?;
    writer.finish().map_err(|e| format!("arrow-json baseline: {e}"))?;
    drop(writer);
    Ok(started.elapsed())
}

#[cfg(not(feature = "bench"))]
fn encode_baseline(_batch: &NexmarkBatch, _buffer: &mut Vec<u8>) -> Result<Duration, String> {
    unreachable!("the report has no baseline without the bench feature")
}

impl fmt::Display for NexmarkReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "nexmark {}: {} rows from {} source events, seed {}",
            self.query, self.rows, self.events, self.seed
        )?;
        writeln!(f, "kjson encoder: {}", self.encoder)?;
        writeln!(f, "{:<12}{:>16}{:>12}{:>16}{:>12}", "encoder", "rows/s", "MB/s", "bytes", "seconds")?;
        let baseline = self.arrow_json.as_ref().map(|t| ("arrow-json", t));
        for (name, t) in std::iter::once(("kjson", &self.kjson)).chain(baseline) {
            writeln!(
                f,
                "{name:<12}{:>16.0}{:>12.1}{:>16}{:>12.3}",
                t.rows_per_second(self.rows),
                t.megabytes_per_second(),
                t.bytes,
                t.elapsed.as_secs_f64()
            )?;
        }
        match &self.arrow_json {
            Some(baseline) => {
                let ratio = baseline.elapsed.as_secs_f64() / self.kjson.elapsed.as_secs_f64();
                if ratio.is_finite() {
                    writeln!(f, "ratio: kjson {ratio:.2}x the rows/s of arrow-json")?;
                }
            }
            None => writeln!(f, "arrow-json: not measured (a build without the `bench` feature)")?,
        }
        writeln!(f, "records {}, tombstones {}, null keys {}", self.records, self.tombstones, self.null_keys)?;
        write!(f, "generation (not timed above): {:.3} s", self.generation.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kjson_arrow::runtime::Slab;

    #[test]
    fn embedded_ddls_name_their_tables_and_connectors() {
        assert!(Q0_DDL.contains("CREATE TABLE nexmark_q0") && Q0_DDL.contains("'connector' = 'kafka'"));
        assert!(Q9_DDL.contains("PRIMARY KEY (id) NOT ENFORCED") && Q9_DDL.contains("'connector' = 'upsert-kafka'"));
        assert!(Q19_DDL.contains("PRIMARY KEY (auction, rank_number) NOT ENFORCED"));
    }

    #[test]
    fn flags_parse_with_defaults() {
        use clap::Parser;
        #[derive(Parser)]
        struct Wrapper {
            #[command(flatten)]
            args: NexmarkArgs,
        }
        let args = Wrapper::try_parse_from(["x"]).unwrap().args;
        assert_eq!((args.query, args.rows, args.batch_rows, args.seed), (Query::Q0, 1_000_000, 4096, 42));
        assert!(args.out.is_none() && !args.no_update_before);
        let args = Wrapper::try_parse_from(["x", "--query", "q19", "--rows", "5", "--batch-rows", "2", "--seed", "7"])
            .unwrap()
            .args;
        assert_eq!((args.query, args.rows, args.batch_rows, args.seed), (Query::Q19, 5, 2, 7));
        assert!(Wrapper::try_parse_from(["x", "--query", "q3"]).is_err());
        assert!(Wrapper::try_parse_from(["x", "--batch-rows", "0"]).is_err());
    }

    #[test]
    fn records_are_written_as_key_tab_value_with_null_for_missing_sides() {
        let (mut keys, mut values) = (Slab::default(), Slab::default());
        keys.push_record(None).unwrap();
        keys.push_record(Some(b"{\"id\":1}")).unwrap();
        values.push_record(Some(b"{\"a\":1}")).unwrap();
        values.push_record(None).unwrap();
        let slabs = KeyValueSlabs::new(keys, values);
        let mut out = Vec::new();
        write_records(&mut out, &slabs, 2).unwrap();
        assert_eq!(out, b"null\t{\"a\":1}\n{\"id\":1}\tnull\n");
        let mut report = NexmarkReport::empty(Query::Q9, 0);
        count_records(&mut report, &slabs, 2);
        assert_eq!((report.records, report.null_keys, report.tombstones, report.kjson.bytes), (2, 1, 1, 15));
    }

    #[test]
    fn each_query_runs_end_to_end_through_its_embedded_ddl() {
        use arrow_array::cast::AsArray;
        use arrow_array::types::Int64Type;
        use kjson_arrow::runtime::{FlinkVersion, FloatSpelling};
        for query in [Query::Q0, Query::Q9, Query::Q19] {
            let path = std::env::temp_dir().join(format!("kjson-nexmark-{}-{query}.txt", std::process::id()));
            let compatibility =
                CompatibilityArgs { flink_version: FlinkVersion::V2_3, float_spelling: FloatSpelling::Jdk17 };
            let args = NexmarkArgs {
                query,
                rows: 700,
                out: Some(path.clone()),
                batch_rows: 128,
                seed: 9,
                no_update_before: false,
                quiet: false,
                compatibility,
            };
            let report = run_nexmark(&args).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::remove_file(&path).unwrap();

            let generated = NexmarkStream::new(query, 9).next_batch(700).unwrap();
            let retractions = generated.row_kinds.map_or(0, |k| k.values().iter().filter(|k| **k % 2 == 1).count());
            assert_eq!((report.rows, report.records, report.tombstones), (700, 700, retractions), "{query}");
            assert_eq!(report.null_keys, if query == Query::Q0 { 700 } else { 0 }, "{query}");
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), 700, "{query}");
            assert_eq!(lines.iter().filter(|l| l.ends_with("\tnull")).count(), retractions, "{query}");
            let first_key = lines[0].split('\t').next().unwrap();
            let expected_key = match query {
                Query::Q0 => "null".to_string(),
                Query::Q9 => format!("{{\"id\":{}}}", generated.batch.column(0).as_primitive::<Int64Type>().value(0)),
                Query::Q19 => "{\"auction\":".to_string(),
            };
            assert!(first_key.starts_with(&expected_key), "{query}: {first_key}");
            assert!(report.kjson.bytes > 0);
            // The arrow-json baseline is timed only with the benchmark contenders built in.
            assert_eq!(report.arrow_json.as_ref().is_some_and(|t| t.bytes > 0), cfg!(feature = "bench"));
        }
    }
}
