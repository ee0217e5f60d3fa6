//! `kjson bench`: one process, one run per encoder over the same Nexmark batches: the generated
//! encoder, the dynamic encoder, arrow-json's `LineDelimitedWriter` on each batch, arrow-json
//! called once per row, and a memcpy of the generated output. Generated and dynamic output are
//! checked byte for byte before anything is timed.
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use arrow_json::LineDelimitedWriter;
use clap::Args;
use kjson::runtime::{KeyValueSlabs, SinkSpec};

use crate::commands::common::CompatibilityArgs;
use crate::commands::nexmark::query_ddl;
use crate::nexmark::{NexmarkBatch, NexmarkStream, Query};
use kjson::Encoder;

/// Rows per Arrow batch, as Flink's Arrow-based runners hand them over.
pub const BATCH_ROWS: usize = 4096;

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// q0, q9, q19, q9-debezium (q9's rows as Debezium envelopes) or all.
    #[arg(long, default_value = "all", value_parser = parse_queries)]
    pub query: QuerySelection,
    /// Sink rows per query, generated before timing, in batches of 4096.
    #[arg(long, default_value_t = 262_144)]
    pub rows: usize,
    /// Seed of the Nexmark generator.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Rounds over the batches; each round times every contender once, and each contender's
    /// best round is reported (the machine is shared: the best is the least disturbed).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// For profiling: after the check, run only this encoder (generated or dynamic) this many
    /// times over the batches and print its best run.
    #[arg(long, hide = true, value_names = ["ENCODER", "TIMES"], num_args = 2)]
    pub profile: Option<Vec<String>>,
    #[command(flatten)]
    pub compatibility: CompatibilityArgs,
}

/// One benchmarked sink: the Nexmark query whose batches feed it, and its DDL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchCase {
    pub name: &'static str,
    pub query: Query,
    pub ddl: &'static str,
}

/// q9's rows through a `kafka` sink with a `debezium-json` value (envelopes, no tombstones).
const Q9_DEBEZIUM_DDL: &str = include_str!("../../../schemas/q9_debezium.sql");

pub fn bench_cases() -> [BenchCase; 4] {
    let case = |name, query| BenchCase { name, query, ddl: query_ddl(query) };
    [
        case("q0", Query::Q0),
        case("q9", Query::Q9),
        case("q19", Query::Q19),
        BenchCase { name: "q9-debezium", query: Query::Q9, ddl: Q9_DEBEZIUM_DDL },
    ]
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuerySelection(pub Vec<BenchCase>);

fn parse_queries(text: &str) -> Result<QuerySelection, String> {
    let cases = bench_cases();
    if text.eq_ignore_ascii_case("all") {
        return Ok(QuerySelection(cases.to_vec()));
    }
    cases
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(text))
        .map(|c| QuerySelection(vec![*c]))
        .ok_or_else(|| format!("unknown query '{text}'; expected q0, q9, q19, q9-debezium or all"))
}

/// Rows, bytes and time of one contender: `elapsed` is the thread's CPU time where Linux
/// reports it (the machine is shared; time spent waiting for a core is not the encoder's), else
/// wall-clock time; `wall` is always wall-clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct Measurement {
    pub rows: usize,
    pub bytes: u64,
    pub elapsed: Duration,
    pub wall: Duration,
}

/// CPU time of the calling thread (`/proc/thread-self/schedstat`, nanoseconds on a core).
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok().map(Duration::from_nanos)
}

/// Whether [`Measurement::elapsed`] is CPU time on this machine.
pub fn measures_cpu_time() -> bool {
    thread_cpu_time().is_some()
}

/// Times `work`, adding its CPU (or wall) and wall time to `m`.
fn timed<R>(m: &mut Measurement, work: impl FnOnce() -> R) -> R {
    let (wall, cpu) = (Instant::now(), thread_cpu_time());
    let result = work();
    let wall = wall.elapsed();
    m.wall += wall;
    m.elapsed += match (cpu, thread_cpu_time()) {
        (Some(start), Some(end)) => end.saturating_sub(start),
        _ => wall,
    };
    result
}

impl Measurement {
    pub fn rows_per_second(&self) -> f64 {
        self.rows as f64 / self.elapsed.as_secs_f64()
    }

    /// Decimal megabytes (10^6 bytes) per second.
    pub fn megabytes_per_second(&self) -> f64 {
        self.bytes as f64 / 1e6 / self.elapsed.as_secs_f64()
    }
}

/// The five measurements of one query.
#[derive(Debug, Clone)]
pub struct QueryBench {
    pub case: BenchCase,
    pub encoder: String,
    pub generated: Measurement,
    pub dynamic: Measurement,
    pub arrow_json: Measurement,
    pub arrow_json_per_row: Measurement,
    pub memcpy: Measurement,
}

pub fn run_bench(args: &BenchArgs) -> Result<(), String> {
    if args.rows == 0 {
        return Err("--rows must be at least 1".to_string());
    }
    let c = args.compatibility.compatibility();
    println!(
        "kjson bench: {} rows per query in batches of {BATCH_ROWS}, seed {}, Flink {}, float spelling {}",
        args.rows, args.seed, c.flink_version, c.float_spelling
    );
    let clock = if measures_cpu_time() { "thread CPU time" } else { "wall-clock time" };
    println!("time: {clock}, best of {} rounds per contender (release build: cargo build --release)", args.rounds);
    if let Some(profile) = &args.profile {
        return run_profile(args, profile);
    }
    let mut results = Vec::new();
    for &case in &args.query.0 {
        let result = bench_query(args, case)?;
        println!("{}", detail_table(&result));
        results.push(result);
    }
    println!("{}", summary_table(&results));
    Ok(())
}

/// `--profile ENCODER TIMES`: one encoder in a loop, for `perf record`.
fn run_profile(args: &BenchArgs, profile: &[String]) -> Result<(), String> {
    let times: usize = profile[1].parse().map_err(|_| format!("--profile: '{}' is not a count", profile[1]))?;
    for &case in &args.query.0 {
        let batches = generate_batches(case.query, args)?;
        let (mut generated, mut dynamic) = open_pair(case, args)?;
        verify_identical(&batches, &mut generated, &mut dynamic)?;
        let encoder = match profile[0].as_str() {
            "generated" => &mut generated,
            "dynamic" => &mut dynamic,
            other => return Err(format!("--profile: unknown encoder '{other}'; expected generated or dynamic")),
        };
        let best = (0..times.max(1))
            .map(|_| time_encoder(&batches, encoder))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .min_by_key(|m| m.elapsed)
            .unwrap_or_default();
        println!(
            "{} {}: best of {times}: {:.0} rows/s, {:.1} MB/s",
            case.name,
            profile[0],
            best.rows_per_second(),
            best.megabytes_per_second()
        );
    }
    Ok(())
}

fn open_pair(case: BenchCase, args: &BenchArgs) -> Result<(Encoder, Encoder), String> {
    let spec = SinkSpec::from_ddl(case.ddl).map_err(|e| format!("embedded DDL of {}: {e}", case.name))?;
    let compatibility = args.compatibility.compatibility();
    let generated = Encoder::open(spec.clone(), compatibility).map_err(|e| e.to_string())?;
    if !generated.kind().is_generated() {
        return Err(format!("{} has no generated encoder in this build ({})", case.name, generated.kind()));
    }
    let dynamic = Encoder::open_dynamic(spec, compatibility).map_err(|e| e.to_string())?;
    Ok((generated, dynamic))
}

fn generate_batches(query: Query, args: &BenchArgs) -> Result<Vec<NexmarkBatch>, String> {
    let mut stream = NexmarkStream::new(query, args.seed);
    let mut batches = Vec::new();
    let mut left = args.rows;
    while left > 0 {
        let rows = left.min(BATCH_ROWS);
        batches.push(stream.next_batch(rows).map_err(|e| format!("generating {query} rows: {e}"))?);
        left -= rows;
    }
    Ok(batches)
}

pub fn bench_query(args: &BenchArgs, case: BenchCase) -> Result<QueryBench, String> {
    let batches = generate_batches(case.query, args)?;
    let (mut generated, mut dynamic) = open_pair(case, args)?;
    let outputs = verify_identical(&batches, &mut generated, &mut dynamic)?;
    let mut best: Option<QueryBench> = None;
    for _ in 0..args.rounds {
        let round = QueryBench {
            case,
            encoder: generated.kind().to_string(),
            generated: time_encoder(&batches, &mut generated)?,
            dynamic: time_encoder(&batches, &mut dynamic)?,
            arrow_json: time_arrow_json(&batches)?,
            arrow_json_per_row: time_arrow_json_per_row(&batches)?,
            memcpy: time_memcpy(&outputs, args.rows),
        };
        best = Some(match best {
            None => round,
            Some(b) => QueryBench {
                generated: faster(b.generated, round.generated),
                dynamic: faster(b.dynamic, round.dynamic),
                arrow_json: faster(b.arrow_json, round.arrow_json),
                arrow_json_per_row: faster(b.arrow_json_per_row, round.arrow_json_per_row),
                memcpy: faster(b.memcpy, round.memcpy),
                ..b
            },
        });
    }
    best.ok_or_else(|| "no round ran".to_string())
}

fn faster(a: Measurement, b: Measurement) -> Measurement {
    if b.elapsed < a.elapsed {
        b
    } else {
        a
    }
}

/// Encodes every batch with both encoders and compares the slabs; returns the generated
/// output of each batch (keys then values), the input of the memcpy measurement.
fn verify_identical(
    batches: &[NexmarkBatch],
    generated: &mut Encoder,
    dynamic: &mut Encoder,
) -> Result<Vec<Vec<u8>>, String> {
    let mut outputs = Vec::with_capacity(batches.len());
    for (index, batch) in batches.iter().enumerate() {
        let expected = dynamic.encode(&batch.batch, batch.row_kinds.as_ref()).map_err(|e| e.to_string())?.clone();
        let got = generated.encode(&batch.batch, batch.row_kinds.as_ref()).map_err(|e| e.to_string())?;
        if let Some(difference) = first_difference(got, &expected) {
            return Err(format!("batch {index}: generated and dynamic output differ: {difference}"));
        }
        let mut bytes = got.keys.bytes.clone();
        bytes.extend_from_slice(&got.values.bytes);
        outputs.push(bytes);
    }
    Ok(outputs)
}

fn first_difference(got: &KeyValueSlabs, expected: &KeyValueSlabs) -> Option<String> {
    for (side, a, b) in [("key", &got.keys, &expected.keys), ("value", &got.values, &expected.values)] {
        if a.len() != b.len() {
            return Some(format!("{} {side} records, expected {}", a.len(), b.len()));
        }
        if let Some(row) = (0..a.len()).find(|&row| a.record(row) != b.record(row)) {
            let show = |r: Option<&[u8]>| r.map_or("null".to_string(), |r| String::from_utf8_lossy(r).into_owned());
            return Some(format!("{side} of row {row}: {} vs {}", show(a.record(row)), show(b.record(row))));
        }
    }
    None
}

fn output_bytes(slabs: &KeyValueSlabs) -> u64 {
    (slabs.keys.bytes.len() + slabs.values.bytes.len()) as u64
}

fn time_encoder(batches: &[NexmarkBatch], encoder: &mut Encoder) -> Result<Measurement, String> {
    let mut m = Measurement::default();
    let bytes = timed(&mut m, || {
        let mut bytes = 0;
        for batch in batches {
            bytes += output_bytes(encoder.encode(&batch.batch, batch.row_kinds.as_ref()).map_err(|e| e.to_string())?);
        }
        Ok::<u64, String>(bytes)
    })?;
    m.bytes = bytes;
    m.rows = batches.iter().map(|b| b.batch.num_rows()).sum();
    Ok(m)
}

fn time_arrow_json(batches: &[NexmarkBatch]) -> Result<Measurement, String> {
    let mut m = Measurement::default();
    let mut buffer = Vec::new();
    m.bytes = timed(&mut m, || {
        let mut bytes = 0;
        for batch in batches {
            buffer.clear();
            let mut writer = LineDelimitedWriter::new(&mut buffer);
            writer.write(&batch.batch).map_err(|e| format!("arrow-json: {e}"))?;
            writer.finish().map_err(|e| format!("arrow-json: {e}"))?;
            drop(writer);
            bytes += buffer.len() as u64;
        }
        Ok::<u64, String>(bytes)
    })?;
    m.rows = batches.iter().map(|b| b.batch.num_rows()).sum();
    Ok(m)
}

/// arrow-json asked for one row at a time, as a per-record serializer would call it.
fn time_arrow_json_per_row(batches: &[NexmarkBatch]) -> Result<Measurement, String> {
    let mut m = Measurement::default();
    let mut buffer = Vec::new();
    m.bytes = timed(&mut m, || {
        let mut bytes = 0;
        for batch in batches {
            buffer.clear();
            let mut writer = LineDelimitedWriter::new(&mut buffer);
            for row in 0..batch.batch.num_rows() {
                writer.write(&batch.batch.slice(row, 1)).map_err(|e| format!("arrow-json: {e}"))?;
            }
            writer.finish().map_err(|e| format!("arrow-json: {e}"))?;
            drop(writer);
            bytes += buffer.len() as u64;
        }
        Ok::<u64, String>(bytes)
    })?;
    m.rows = batches.iter().map(|b| b.batch.num_rows()).sum();
    Ok(m)
}

/// Copies each batch's generated output into a reused buffer: the floor of writing those bytes.
fn time_memcpy(outputs: &[Vec<u8>], rows: usize) -> Measurement {
    let mut m = Measurement { rows, ..Measurement::default() };
    let mut target: Vec<u8> = Vec::with_capacity(outputs.iter().map(Vec::len).max().unwrap_or(0));
    m.bytes = timed(&mut m, || {
        let mut bytes = 0;
        for output in outputs {
            target.clear();
            target.extend_from_slice(output);
            std::hint::black_box(&mut target);
            bytes += output.len() as u64;
        }
        bytes
    });
    m
}

fn detail_table(r: &QueryBench) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n{}: {}", r.case.name, r.encoder);
    let _ = writeln!(out, "generated and dynamic output: byte-identical on all {} rows", r.generated.rows);
    let _ = writeln!(
        out,
        "{:<28}{:>14}{:>10}{:>14}{:>10}{:>10}",
        "contender", "rows/s", "MB/s", "bytes", "seconds", "wall s"
    );
    let rows = [
        ("generated", &r.generated),
        ("dynamic", &r.dynamic),
        ("arrow-json LineDelimited", &r.arrow_json),
        ("arrow-json one row a call", &r.arrow_json_per_row),
        ("memcpy of generated output", &r.memcpy),
    ];
    for (name, m) in rows {
        let _ = writeln!(
            out,
            "{name:<28}{:>14.0}{:>10.1}{:>14}{:>10.4}{:>10.4}",
            m.rows_per_second(),
            m.megabytes_per_second(),
            m.bytes,
            m.elapsed.as_secs_f64(),
            m.wall.as_secs_f64()
        );
    }
    out
}

/// How many times faster `a` is than `b` (rows/s).
fn ratio(a: &Measurement, b: &Measurement) -> f64 {
    a.rows_per_second() / b.rows_per_second()
}

fn summary_table(results: &[QueryBench]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\nsummary (rows/s in millions; ratios of rows/s, targets in brackets)");
    let _ = writeln!(
        out,
        "{:<12}{:>10}{:>10}{:>11}{:>11}{:>10} | {:>15}{:>15}{:>15}{:>16}{:>13}",
        "query",
        "generated",
        "dynamic",
        "arrow-json",
        "per-row",
        "memcpy",
        "gen/arrow",
        "gen/dyn [1.5]",
        "dyn/arrow [2]",
        "memcpy/gen [6]",
        "gen/per-row"
    );
    for r in results {
        let target = if r.case.query == Query::Q0 { 8.0 } else { 6.0 };
        let _ = writeln!(
            out,
            "{:<12}{:>10.2}{:>10.2}{:>11.2}{:>11.3}{:>10.1} | {:>15}{:>15.2}{:>15.2}{:>16.2}{:>13.0}",
            r.case.name,
            r.generated.rows_per_second() / 1e6,
            r.dynamic.rows_per_second() / 1e6,
            r.arrow_json.rows_per_second() / 1e6,
            r.arrow_json_per_row.rows_per_second() / 1e6,
            r.memcpy.rows_per_second() / 1e6,
            format!("{:.2} [{target}]", ratio(&r.generated, &r.arrow_json)),
            ratio(&r.generated, &r.dynamic),
            ratio(&r.dynamic, &r.arrow_json),
            ratio(&r.memcpy, &r.generated),
            ratio(&r.generated, &r.arrow_json_per_row),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_runs_and_checks_identity_on_a_small_run() {
        let args = BenchArgs {
            query: QuerySelection(vec![bench_cases()[2]]),
            rows: 5000,
            seed: 7,
            rounds: 1,
            profile: None,
            compatibility: CompatibilityArgs {
                flink_version: kjson::runtime::FlinkVersion::V2_3,
                float_spelling: kjson::runtime::FloatSpelling::Jdk17,
            },
        };
        let result = bench_query(&args, bench_cases()[2]).unwrap();
        assert!(result.encoder.starts_with("generated NexmarkQ19"), "{}", result.encoder);
        assert_eq!(result.generated.rows, 5000);
        assert_eq!(result.generated.bytes, result.dynamic.bytes);
        assert_eq!(result.memcpy.bytes, result.generated.bytes);
        assert!(result.arrow_json.bytes > 0);
        assert_eq!(result.arrow_json_per_row.bytes, result.arrow_json.bytes);
        let summary = summary_table(&[result]);
        assert!(summary.contains("q19"), "{summary}");
    }

    #[test]
    fn query_selection_parses() {
        let names = |q: QuerySelection| q.0.iter().map(|c| c.name).collect::<Vec<_>>();
        assert_eq!(names(parse_queries("all").unwrap()), ["q0", "q9", "q19", "q9-debezium"]);
        assert_eq!(names(parse_queries("q9").unwrap()), ["q9"]);
        assert_eq!(names(parse_queries("q9-debezium").unwrap()), ["q9-debezium"]);
        assert!(parse_queries("q3").is_err());
    }
}
