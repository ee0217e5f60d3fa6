//! `kjson bench`: one process, the same batches for every contender: the generated encoder,
//! the dynamic encoder (both float spellings on sinks with floats), arrow-json's
//! `LineDelimitedWriter` on each batch and called once per row, serde_json and sonic-rs from Rust
//! structs (q0), and a memcpy of the generated output. Generated and dynamic output are checked
//! byte for byte before anything is timed; the clock is described in [`clock`]. `--decode`
//! times the read side instead, on the records those encoders write ([`decode`]).
use std::fmt::Write as _;
use std::sync::LazyLock;

use arrow_json::LineDelimitedWriter;
use clap::Args;
use kjson_arrow::runtime::{Compatibility, FloatSpelling, KeyValueSlabs, SinkSpec};
use kjson_arrow::Encoder;

use crate::commands::common::CompatibilityArgs;
use crate::commands::nexmark::query_ddl;
use crate::nexmark::rng::SplitMix64;
use crate::nexmark::{NexmarkBatch, NexmarkStream, Query};
use clock::{Contender, Timing};

pub mod clock;
pub mod decode;
pub mod serde_rows;
pub mod synthetic;
pub mod typed_rows;

/// Rows per Arrow batch, as Flink's Arrow-based runners hand them over.
pub const BATCH_ROWS: usize = 4096;

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// q0, q9, q19, q9-debezium (q9's rows as Debezium envelopes), sensor (8 DOUBLE + 2 FLOAT),
    /// ledger (5 DECIMAL), nested (ROW, ARRAY, MAP, MULTISET), wide (every scalar type) or all;
    /// also q9-canal, q9-maxwell and q9-ogg (q9's rows in the other changelog envelopes, not in all).
    #[arg(long, default_value = "all", value_parser = parse_queries)]
    pub query: QuerySelection,
    /// Sink rows per query, generated before timing, in batches of 4096.
    #[arg(long, default_value_t = 262_144)]
    pub rows: usize,
    /// Seed of the row generators.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Samples per contender, taken round-robin; each sample repeats the batches for at least
    /// 200 ms. The median and the spread (max - min) / median are reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// Time the read side: kjson's decoder, arrow-json's Decoder, serde_json and sonic-rs to
    /// values, and memcpy, on the records kjson's encoder writes for each sink (arrow-json on the
    /// json format only).
    #[arg(long)]
    pub decode: bool,
    /// For profiling: after the check, run only this encoder (generated, dynamic or arrow-json;
    /// with --decode: kjson or generated) this many times over the batches and print its median pass.
    #[arg(long, hide = true, value_names = ["ENCODER", "TIMES"], num_args = 2)]
    pub profile: Option<Vec<String>>,
    #[command(flatten)]
    pub compatibility: CompatibilityArgs,
}

/// Where a bench sink's rows come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowSource {
    Nexmark(Query),
    /// schemas/sensor.sql: id + 8 DOUBLE + 2 FLOAT.
    Sensor,
    /// schemas/ledger.sql: id + 5 DECIMAL.
    Ledger,
    /// Drawn from the DDL's column types (schemas/nested.sql, schemas/wide.sql).
    Typed,
}

/// One benchmarked sink: the source of its rows, and its DDL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchCase {
    pub name: &'static str,
    pub source: RowSource,
    pub ddl: &'static str,
}

impl BenchCase {
    /// Sinks with float columns are timed with both float spellings.
    fn has_floats(&self) -> bool {
        self.source == RowSource::Sensor
    }
}

/// q9's rows through a `kafka` sink with a `debezium-json` value (envelopes, no tombstones).
const Q9_DEBEZIUM_DDL: &str = include_str!("../../../../schemas/q9_debezium.sql");
const SENSOR_DDL: &str = include_str!("../../../../schemas/sensor.sql");
const LEDGER_DDL: &str = include_str!("../../../../schemas/ledger.sql");
const NESTED_DDL: &str = include_str!("../../../../schemas/nested.sql");
const WIDE_DDL: &str = include_str!("../../../../schemas/wide.sql");

/// q9's changelog as each other CDC format writes it (the same table with another value format).
static Q9_CANAL_DDL: LazyLock<String> = LazyLock::new(|| Q9_DEBEZIUM_DDL.replace("'debezium-json'", "'canal-json'"));
static Q9_MAXWELL_DDL: LazyLock<String> =
    LazyLock::new(|| Q9_DEBEZIUM_DDL.replace("'debezium-json'", "'maxwell-json'"));
static Q9_OGG_DDL: LazyLock<String> = LazyLock::new(|| Q9_DEBEZIUM_DDL.replace("'debezium-json'", "'ogg-json'"));

/// The sinks of the changelog formats besides debezium-json: selected by name only (`all` keeps
/// the bench's run time).
pub fn changelog_cases() -> [BenchCase; 3] {
    let q9 = |name, ddl: &'static LazyLock<String>| BenchCase {
        name,
        source: RowSource::Nexmark(Query::Q9),
        ddl: LazyLock::force(ddl).as_str(),
    };
    [q9("q9-canal", &Q9_CANAL_DDL), q9("q9-maxwell", &Q9_MAXWELL_DDL), q9("q9-ogg", &Q9_OGG_DDL)]
}

pub fn bench_cases() -> [BenchCase; 8] {
    let nexmark = |name, query| BenchCase { name, source: RowSource::Nexmark(query), ddl: query_ddl(query) };
    [
        nexmark("q0", Query::Q0),
        nexmark("q9", Query::Q9),
        nexmark("q19", Query::Q19),
        BenchCase { name: "q9-debezium", source: RowSource::Nexmark(Query::Q9), ddl: Q9_DEBEZIUM_DDL },
        BenchCase { name: "sensor", source: RowSource::Sensor, ddl: SENSOR_DDL },
        BenchCase { name: "ledger", source: RowSource::Ledger, ddl: LEDGER_DDL },
        BenchCase { name: "nested", source: RowSource::Typed, ddl: NESTED_DDL },
        BenchCase { name: "wide", source: RowSource::Typed, ddl: WIDE_DDL },
    ]
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuerySelection(pub Vec<BenchCase>);

fn parse_queries(text: &str) -> Result<QuerySelection, String> {
    let cases = bench_cases();
    if text.eq_ignore_ascii_case("all") {
        return Ok(QuerySelection(cases.to_vec()));
    }
    let named = cases.iter().chain(&changelog_cases()).find(|c| c.name.eq_ignore_ascii_case(text)).copied();
    named.map(|c| QuerySelection(vec![c])).ok_or_else(|| {
        format!(
            "unknown query '{text}'; expected q0, q9, q19, q9-debezium, sensor, ledger, nested, wide, all, q9-canal, \
             q9-maxwell or q9-ogg"
        )
    })
}

/// One contender's result: bytes per pass over the batches and the timing of a pass.
#[derive(Debug, Clone)]
pub struct Line {
    pub name: String,
    pub bytes: u64,
    pub timing: Timing,
}

/// The contenders' results on one sink.
#[derive(Debug, Clone)]
pub struct CaseBench {
    pub case: BenchCase,
    pub encoder: String,
    pub rows: usize,
    pub lines: Vec<Line>,
}

/// Names of the baseline lines, which ratios are taken against.
const ARROW_JSON: &str = "arrow-json LineDelimited";
const MEMCPY: &str = "memcpy of generated output";

impl CaseBench {
    pub fn line(&self, name: &str) -> Option<&Line> {
        self.lines.iter().find(|l| l.name == name)
    }

    /// How many times faster `name` runs than `baseline` (rows per second at the median).
    pub fn ratio(&self, name: &str, baseline: &str) -> Option<f64> {
        let (a, b) = (self.line(name)?, self.line(baseline)?);
        let (a, b) = (a.timing.per_second(self.rows), b.timing.per_second(self.rows));
        (a > 0.0 && b > 0.0).then(|| a / b)
    }
}

pub fn run_bench(args: &BenchArgs) -> Result<(), String> {
    if args.rows == 0 {
        return Err("--rows must be at least 1".to_string());
    }
    let c = args.compatibility.compatibility();
    if args.decode {
        return decode::run_decode_bench(args);
    }
    println!(
        "kjson bench: {} rows per sink in batches of {BATCH_ROWS}, seed {}, Flink {}, float spelling {} \
         (both on sinks with floats)",
        args.rows, args.seed, c.flink_version, c.float_spelling
    );
    println!(
        "time: monotonic clock, {} samples per contender of >= {} ms each, median and spread (max - min) / median \
         (release build: cargo build --release)",
        args.rounds,
        clock::MIN_SAMPLE.as_millis()
    );
    if let Some(profile) = &args.profile {
        return run_profile(args, profile);
    }
    let mut results = Vec::new();
    for &case in &args.query.0 {
        let result = bench_case(args, case)?;
        println!("{}", detail_table(&result));
        results.push(result);
    }
    println!("{}", summary_table(&results));
    Ok(())
}

/// `--profile ENCODER TIMES`: one encoder in a loop, for `perf record` and callgrind; arrow-json's
/// writer too, so instructions per row can be compared with the baseline of the ratios.
fn run_profile(args: &BenchArgs, profile: &[String]) -> Result<(), String> {
    let times: usize = profile[1].parse().map_err(|_| format!("--profile: '{}' is not a count", profile[1]))?;
    let compatibility = args.compatibility.compatibility();
    for &case in &args.query.0 {
        let batches = generate_batches(case, args)?;
        let (mut generated, mut dynamic) = open_pair(case, compatibility)?;
        verify_identical(&batches, &mut generated, &mut dynamic)?;
        let mut pass: Box<dyn FnMut() -> Result<u64, String>> = match profile[0].as_str() {
            "generated" => Box::new(|| encode_all(&batches, &mut generated)),
            "dynamic" => Box::new(|| encode_all(&batches, &mut dynamic)),
            "arrow-json" => Box::new(|| arrow_json_pass(&batches)),
            other => {
                return Err(format!("--profile: unknown encoder '{other}'; expected generated, dynamic or arrow-json"))
            }
        };
        let mut samples = Vec::new();
        for _ in 0..times.max(1) {
            let start = std::time::Instant::now();
            pass()?;
            samples.push(start.elapsed());
        }
        let rows: usize = batches.iter().map(|b| b.batch.num_rows()).sum();
        println!(
            "{} {}: median of {times}: {:.0} rows/s",
            case.name,
            profile[0],
            Timing::of(&samples).per_second(rows)
        );
    }
    Ok(())
}

fn open_pair(case: BenchCase, compatibility: Compatibility) -> Result<(Encoder, Encoder), String> {
    let spec = SinkSpec::from_ddl(case.ddl).map_err(|e| format!("embedded DDL of {}: {e}", case.name))?;
    let generated = Encoder::open(spec.clone(), compatibility).map_err(|e| e.to_string())?;
    if !generated.kind().is_generated() {
        return Err(format!("{} has no generated encoder in this build ({})", case.name, generated.kind()));
    }
    let dynamic = Encoder::open_dynamic(spec, compatibility).map_err(|e| e.to_string())?;
    Ok((generated, dynamic))
}

pub(crate) fn generate_batches(case: BenchCase, args: &BenchArgs) -> Result<Vec<NexmarkBatch>, String> {
    let mut nexmark = match case.source {
        RowSource::Nexmark(query) => Some(NexmarkStream::new(query, args.seed)),
        RowSource::Sensor | RowSource::Ledger | RowSource::Typed => None,
    };
    let spec = SinkSpec::from_ddl(case.ddl).map_err(|e| format!("embedded DDL of {}: {e}", case.name))?;
    let mut rng = SplitMix64::new(args.seed);
    let mut batches = Vec::new();
    let mut done = 0;
    while done < args.rows {
        let rows = (args.rows - done).min(BATCH_ROWS);
        let first_id = done as i64;
        batches.push(match (&mut nexmark, case.source) {
            (Some(stream), _) => stream.next_batch(rows).map_err(|e| format!("generating {} rows: {e}", case.name))?,
            (None, RowSource::Ledger) => synthetic::ledger_batch(&mut rng, first_id, rows)?,
            (None, RowSource::Typed) => typed_rows::spec_batch(&spec, &mut rng, rows)?,
            (None, _) => synthetic::sensor_batch(&mut rng, first_id, rows)?,
        });
        done += rows;
    }
    Ok(batches)
}

/// Named encoders, and the generated output of the first one (the memcpy input).
type CheckedEncoders = (Vec<(String, Encoder)>, Vec<Vec<u8>>);

/// Encoders to time, each checked against its dynamic twin: the requested float spelling, or
/// both spellings on a sink with floats. Returns them with their names and the generated output
/// of the first pair (the memcpy input).
fn checked_encoders(args: &BenchArgs, case: BenchCase, batches: &[NexmarkBatch]) -> Result<CheckedEncoders, String> {
    let requested = args.compatibility.compatibility();
    let spellings = if case.has_floats() {
        let other =
            if requested.float_spelling == FloatSpelling::Jdk17 { FloatSpelling::Jdk19 } else { FloatSpelling::Jdk17 };
        vec![requested.float_spelling, other]
    } else {
        vec![requested.float_spelling]
    };
    let mut encoders = Vec::new();
    let mut memcpy_input = Vec::new();
    for float_spelling in spellings {
        let (mut generated, mut dynamic) = open_pair(case, Compatibility { float_spelling, ..requested })?;
        let outputs = verify_identical(batches, &mut generated, &mut dynamic)?;
        if memcpy_input.is_empty() {
            memcpy_input = outputs;
        }
        let suffix = if case.has_floats() { format!(" {float_spelling}") } else { String::new() };
        encoders.push((format!("generated{suffix}"), generated));
        encoders.push((format!("dynamic{suffix}"), dynamic));
    }
    Ok((encoders, memcpy_input))
}

pub fn bench_case(args: &BenchArgs, case: BenchCase) -> Result<CaseBench, String> {
    let batches = generate_batches(case, args)?;
    let rows = batches.iter().map(|b| b.batch.num_rows()).sum();
    let (mut encoders, memcpy_input) = checked_encoders(args, case, &batches)?;
    let encoder = encoders[0].1.kind().to_string();
    let serde_rows = match case.source {
        RowSource::Nexmark(Query::Q0) => {
            Some(batches.iter().map(|b| serde_rows::q0_rows(&b.batch)).collect::<Result<Vec<_>, _>>()?)
        }
        _ => None,
    };
    let mut contenders: Vec<Contender> = Vec::new();
    for (name, encoder) in &mut encoders {
        let batches = &batches;
        contenders.push(Contender::new(name.clone(), Box::new(move || encode_all(batches, encoder))));
    }
    contenders.push(Contender::new(ARROW_JSON, Box::new(|| arrow_json_pass(&batches))));
    contenders.push(Contender::new("arrow-json one row a call", Box::new(|| arrow_json_per_row_pass(&batches))));
    if let Some(serde_rows) = &serde_rows {
        let mut buffer = Vec::new();
        contenders.push(Contender::new(
            "serde_json (serde derive)",
            Box::new(move || {
                serde_rows.iter().map(|rows| serde_rows::serde_json_lines(rows, &mut buffer)).sum::<Result<u64, _>>()
            }),
        ));
        let mut buffer = Vec::new();
        contenders.push(Contender::new(
            "sonic-rs (serde derive)",
            Box::new(move || serde_rows.iter().map(|rows| serde_rows::sonic_lines(rows, &mut buffer)).sum()),
        ));
    }
    contenders.push(Contender::new(MEMCPY, Box::new(|| Ok(memcpy_pass(&memcpy_input)))));
    let lines = time_contenders(&mut contenders, args.rounds)?;
    Ok(CaseBench { case, encoder, rows, lines })
}

/// A warm-up pass of each contender, then `rounds` samples taken round-robin.
pub(crate) fn time_contenders(contenders: &mut [Contender], rounds: u32) -> Result<Vec<Line>, String> {
    for contender in contenders.iter_mut() {
        contender.calibrate()?;
    }
    for _ in 0..rounds {
        for contender in contenders.iter_mut() {
            contender.sample()?;
        }
    }
    Ok(contenders.iter().map(|c| Line { name: c.name.clone(), bytes: c.bytes, timing: c.timing() }).collect())
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
        let mut bytes = got.keys().bytes().to_vec();
        bytes.extend_from_slice(got.values().bytes());
        outputs.push(bytes);
    }
    Ok(outputs)
}

fn first_difference(got: &KeyValueSlabs, expected: &KeyValueSlabs) -> Option<String> {
    for (side, a, b) in [("key", got.keys(), expected.keys()), ("value", got.values(), expected.values())] {
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
    (slabs.keys().bytes().len() + slabs.values().bytes().len()) as u64
}

fn encode_all(batches: &[NexmarkBatch], encoder: &mut Encoder) -> Result<u64, String> {
    let mut bytes = 0;
    for batch in batches {
        bytes += output_bytes(encoder.encode(&batch.batch, batch.row_kinds.as_ref()).map_err(|e| e.to_string())?);
    }
    Ok(bytes)
}

fn arrow_json_pass(batches: &[NexmarkBatch]) -> Result<u64, String> {
    let mut buffer = Vec::new();
    let mut bytes = 0;
    for batch in batches {
        buffer.clear();
        let mut writer = LineDelimitedWriter::new(&mut buffer);
        writer.write(&batch.batch).map_err(|e| format!("arrow-json: {e}"))?;
        writer.finish().map_err(|e| format!("arrow-json: {e}"))?;
        drop(writer);
        bytes += buffer.len() as u64;
    }
    Ok(bytes)
}

/// arrow-json asked for one row at a time, as a per-record serializer would call it.
fn arrow_json_per_row_pass(batches: &[NexmarkBatch]) -> Result<u64, String> {
    let mut buffer = Vec::new();
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
    Ok(bytes)
}

/// Copies each batch's generated output into a reused buffer: the floor of writing those bytes.
pub(crate) fn memcpy_pass(outputs: &[Vec<u8>]) -> u64 {
    let mut target: Vec<u8> = Vec::with_capacity(outputs.iter().map(Vec::len).max().unwrap_or(0));
    let mut bytes = 0;
    for output in outputs {
        target.clear();
        target.extend_from_slice(output);
        std::hint::black_box(&mut target);
        bytes += output.len() as u64;
    }
    bytes
}

/// A ratio, or `-` where a side could not be timed.
pub(crate) fn show_ratio(ratio: Option<f64>) -> String {
    ratio.map_or_else(|| "-".to_string(), |r| format!("{r:.2}"))
}

fn detail_table(r: &CaseBench) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n{}: {}", r.case.name, r.encoder);
    let _ = writeln!(out, "generated and dynamic output: byte-identical on all {} rows", r.rows);
    let _ = writeln!(
        out,
        "{:<30}{:>12}{:>9}{:>10}{:>13}{:>12}{:>12}",
        "contender", "M rows/s", "spread", "MB/s", "bytes", "x arrow", "memcpy/x"
    );
    for line in &r.lines {
        let bytes_per_second = line.timing.per_second(line.bytes as usize);
        let _ = writeln!(
            out,
            "{:<30}{:>12.3}{:>8.1}%{:>10.1}{:>13}{:>12}{:>12}",
            line.name,
            line.timing.per_second(r.rows) / 1e6,
            line.timing.spread_percent(),
            bytes_per_second / 1e6,
            line.bytes,
            show_ratio(r.ratio(&line.name, ARROW_JSON)),
            show_ratio(r.ratio(MEMCPY, &line.name)),
        );
    }
    out
}

/// The kjson encoders of every sink against arrow-json, sonic-rs (q0) and memcpy.
fn summary_table(results: &[CaseBench]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\nsummary (median rows/s in millions; ratios of rows/s from this run)");
    let _ = writeln!(
        out,
        "{:<12}{:<20}{:>10}{:>12}{:>12}{:>12}{:>12}",
        "sink", "encoder", "M rows/s", "x arrow", "x sonic-rs", "memcpy/x", "gen/dyn"
    );
    for r in results {
        for line in r.lines.iter().filter(|l| l.name.starts_with("generated") || l.name.starts_with("dynamic")) {
            let twin = line.name.replacen("dynamic", "generated", 1);
            let _ = writeln!(
                out,
                "{:<12}{:<20}{:>10.3}{:>12}{:>12}{:>12}{:>12}",
                r.case.name,
                line.name,
                line.timing.per_second(r.rows) / 1e6,
                show_ratio(r.ratio(&line.name, ARROW_JSON)),
                show_ratio(r.ratio(&line.name, "sonic-rs (serde derive)")),
                show_ratio(r.ratio(MEMCPY, &line.name)),
                show_ratio(r.ratio(&twin, &line.name.replacen("generated", "dynamic", 1))),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_args(case: BenchCase) -> BenchArgs {
        BenchArgs {
            query: QuerySelection(vec![case]),
            rows: 5000,
            seed: 7,
            rounds: 1,
            decode: false,
            profile: None,
            compatibility: CompatibilityArgs {
                flink_version: kjson_arrow::runtime::FlinkVersion::V2_3,
                float_spelling: FloatSpelling::Jdk17,
            },
        }
    }

    fn case(name: &str) -> BenchCase {
        bench_cases().into_iter().find(|c| c.name == name).unwrap()
    }

    #[test]
    fn bench_runs_and_checks_identity_on_a_small_run() {
        let result = bench_case(&small_args(case("q19")), case("q19")).unwrap();
        assert!(result.encoder.starts_with("generated NexmarkQ19"), "{}", result.encoder);
        assert_eq!(result.rows, 5000);
        let bytes = |name: &str| result.line(name).unwrap().bytes;
        assert_eq!(bytes("generated"), bytes("dynamic"));
        assert_eq!(bytes(MEMCPY), bytes("generated"));
        assert!(bytes(ARROW_JSON) > 0);
        assert_eq!(bytes("arrow-json one row a call"), bytes(ARROW_JSON));
        assert!(result.lines.iter().all(|l| l.timing.min <= l.timing.median && l.timing.median <= l.timing.max));
        let summary = summary_table(&[result]);
        assert!(summary.contains("q19") && !summary.contains("inf"), "{summary}");
    }

    #[test]
    fn sensor_times_both_float_spellings() {
        let result = bench_case(&small_args(case("sensor")), case("sensor")).unwrap();
        let names: Vec<&str> = result.lines.iter().map(|l| l.name.as_str()).collect();
        for name in ["generated jdk17", "dynamic jdk17", "generated jdk19", "dynamic jdk19", ARROW_JSON] {
            assert!(names.contains(&name), "{names:?}");
        }
        assert!(result.encoder.contains("schemas/sensor.sql"), "{}", result.encoder);
    }

    #[test]
    fn q0_has_the_serde_contenders_and_ledger_runs() {
        let q0 = bench_case(&small_args(case("q0")), case("q0")).unwrap();
        let bytes = |name: &str| q0.line(name).unwrap().bytes;
        assert_eq!(bytes("serde_json (serde derive)"), bytes("sonic-rs (serde derive)"));
        assert!(bytes("serde_json (serde derive)") > 0);
        let ledger = bench_case(&small_args(case("ledger")), case("ledger")).unwrap();
        assert!(ledger.encoder.contains("schemas/ledger.sql"), "{}", ledger.encoder);
        assert_eq!(ledger.line("generated").unwrap().bytes, ledger.line("dynamic").unwrap().bytes);
    }

    #[test]
    fn nested_and_wide_run_on_their_generated_encoders() {
        for name in ["nested", "wide"] {
            let result = bench_case(&small_args(case(name)), case(name)).unwrap();
            assert!(result.encoder.contains(&format!("schemas/{name}.sql")), "{}", result.encoder);
            assert_eq!(result.line("generated").unwrap().bytes, result.line("dynamic").unwrap().bytes);
        }
    }

    #[test]
    fn query_selection_parses() {
        let names = |q: QuerySelection| q.0.iter().map(|c| c.name).collect::<Vec<_>>();
        assert_eq!(
            names(parse_queries("all").unwrap()),
            ["q0", "q9", "q19", "q9-debezium", "sensor", "ledger", "nested", "wide"]
        );
        assert_eq!(names(parse_queries("q9").unwrap()), ["q9"]);
        assert_eq!(names(parse_queries("Sensor").unwrap()), ["sensor"]);
        assert_eq!(names(parse_queries("q9-ogg").unwrap()), ["q9-ogg"]);
        assert!(parse_queries("q3").is_err());
    }
}
