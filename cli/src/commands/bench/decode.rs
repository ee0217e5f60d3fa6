//! `kjson bench --decode`: the read side, in one process, on the same records for every
//! contender. The records are what kjson's encoder writes for each bench sink (its rows through
//! the sink's DDL: Flink's bytes), 4096 to a fetch. Contenders: kjson's [`Decoder`], the dynamic
//! one and (when the build has one for the sink) the generated one, whose batches must equal
//! the dynamic one's before anything is timed, arrow-json's `Decoder` into the same Arrow schema
//! (or the closest one it can read, with the changes listed), serde_json and sonic-rs each
//! parsing every record to its `Value` tree, and a memcpy of the records as the ceiling.
//! Before anything is timed, kjson's decoder must read every record without an error, and
//! arrow-json's columns are compared with kjson's. On a CDC value format (debezium-json,
//! canal-json, maxwell-json, ogg-json) arrow-json has no reader for the envelopes and is left out
//! as not comparable; a table the decoder refuses to open is reported as not decoded yet. Timing is [`super::clock`]'s.
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::Arc;

use arrow_array::{Array, RecordBatch};
use arrow_json::ReaderBuilder;
use arrow_schema::{DataType as ArrowType, Field, Schema};
use kjson_arrow::runtime::{Format, KeyValueSlabs, SinkSpec, Slab};
use kjson_arrow::{open_decoder, Decoder, DecoderKind, Encoder, RecordSide};

use super::clock::{Contender, Timing};
use super::{generate_batches, memcpy_pass, show_ratio, time_contenders, BenchArgs, BenchCase, CaseBench, BATCH_ROWS};
use crate::commands::bench::clock;

pub const KJSON: &str = "kjson decoder (dynamic)";
pub const GENERATED: &str = "kjson decoder (generated)";
pub const ARROW_JSON: &str = "arrow-json Decoder";
pub const SERDE_JSON: &str = "serde_json::Value";
pub const SONIC_RS: &str = "sonic_rs::Value";
pub const MEMCPY: &str = "memcpy of the records";

/// One sink's decode bench, or why it has none.
pub enum DecodeOutcome {
    Timed(Box<DecodeBench>),
    NotDecoded { case: BenchCase, reason: String },
}

/// The contenders' results on one sink, and what was not like for like.
pub struct DecodeBench {
    pub result: CaseBench,
    /// The schema changes arrow-json needed, one line each (empty: kjson's schema as is).
    pub arrow_changes: Vec<String>,
    /// What arrow-json reads of the records (all of them, or the values only).
    pub arrow_reads: String,
    /// How arrow-json's columns compared with kjson's.
    pub agreement: String,
}

pub fn run_decode_bench(args: &BenchArgs) -> Result<(), String> {
    let c = args.compatibility.compatibility();
    println!(
        "kjson bench --decode: {} records per sink in fetches of {BATCH_ROWS}, written by kjson's encoder from the \
         sink's rows (seed {}), Flink {}, float spelling {}",
        args.rows, args.seed, c.flink_version, c.float_spelling
    );
    println!(
        "kjson's decoders: the dynamic one, and the generated one where this build has one for the sink. serde_json \
         and sonic-rs parse each record to a Value tree (no Arrow output)."
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
    let mut outcomes = Vec::new();
    for &case in &args.query.0 {
        eprintln!("kjson bench --decode: {} ...", case.name);
        let outcome = decode_case(args, case)?;
        println!("{}", detail_table(&outcome));
        outcomes.push(outcome);
    }
    println!("{}", summary_table(&outcomes));
    Ok(())
}

/// `--decode --profile kjson|generated TIMES`: kjson's dynamic or generated decoder alone in a
/// loop, for perf or callgrind.
fn run_profile(args: &BenchArgs, profile: &[String]) -> Result<(), String> {
    let generated = match profile[0].as_str() {
        "kjson" => false,
        "generated" => true,
        other => return Err(format!("--decode --profile: unknown decoder '{other}'; expected kjson or generated")),
    };
    let times: usize = profile[1].parse().map_err(|_| format!("--profile: '{}' is not a count", profile[1]))?;
    for &case in &args.query.0 {
        let Ok(mut input) = prepare(args, case)? else { continue };
        let decoder = match (generated, input.generated.as_mut()) {
            (false, _) => &mut input.decoder,
            (true, Some(decoder)) => decoder,
            (true, None) => {
                println!("{}: no generated decoder in this build", case.name);
                continue;
            }
        };
        let mut samples = Vec::new();
        for _ in 0..times.max(1) {
            let start = std::time::Instant::now();
            kjson_pass(decoder, &input.slabs, input.reads_keys)?;
            samples.push(start.elapsed());
        }
        println!(
            "{} kjson {} decoder: median of {times}: {:.0} records/s",
            case.name,
            if generated { "generated" } else { "dynamic" },
            Timing::of(&samples).per_second(input.records)
        );
    }
    Ok(())
}

/// A sink's records and its opened decoders.
struct Input {
    slabs: Vec<KeyValueSlabs>,
    /// The dynamic decoder.
    decoder: Decoder,
    /// The generated decoder, when this build has one for the sink.
    generated: Option<Decoder>,
    /// The decoder reads the keys (the table has key fields).
    reads_keys: bool,
    records: usize,
}

/// Opens the decoder on the sink's DDL read as a source, generates the sink's rows and encodes
/// them; `Err` inside when the decoder does not read the table yet (its reason).
fn prepare(args: &BenchArgs, case: BenchCase) -> Result<Result<Input, String>, String> {
    let compatibility = args.compatibility.compatibility();
    let spec = SinkSpec::from_ddl(case.ddl).map_err(|e| format!("DDL of {}: {e}", case.name))?;
    let source = SinkSpec::from_source_ddl(case.ddl).map_err(|e| format!("DDL of {} as a source: {e}", case.name))?;
    let decoder = match Decoder::open(source.clone(), compatibility) {
        Ok(decoder) => decoder,
        Err(e) => return Ok(Err(format!("not decoded yet: {e}"))),
    };
    let generated = open_decoder(source, compatibility).map_err(|e| e.to_string())?;
    let generated = matches!(generated.kind(), DecoderKind::Generated { .. }).then_some(generated);
    let mut encoder = Encoder::open(spec.clone(), compatibility).map_err(|e| e.to_string())?;
    let mut slabs = Vec::new();
    for batch in generate_batches(case, args)? {
        slabs.push(encoder.encode(&batch.batch, batch.row_kinds.as_ref()).map_err(|e| e.to_string())?.clone());
    }
    let reads_keys = decoder.spec().key.as_ref().is_some_and(|k| !k.projection.is_empty());
    let records = slabs.iter().map(KeyValueSlabs::num_rows).sum();
    Ok(Ok(Input { slabs, decoder, generated, reads_keys, records }))
}

pub fn decode_case(args: &BenchArgs, case: BenchCase) -> Result<DecodeOutcome, String> {
    let mut input = match prepare(args, case)? {
        Ok(input) => input,
        Err(reason) => return Ok(DecodeOutcome::NotDecoded { case, reason }),
    };
    let spec = input.decoder.spec().clone();
    // The check: kjson reads every record.
    let mut kjson_batches = Vec::new();
    for slab in &input.slabs {
        let decoded = input.decoder.decode(keys_of(slab, input.reads_keys), side(slab.values()));
        let decoded = decoded.map_err(|e| format!("{}: kjson's decoder fails: {e}", case.name))?;
        kjson_batches.push(decoded);
    }
    let kjson_rows: usize = kjson_batches.iter().map(|d| d.batch.num_rows()).sum();
    if let Some(generated) = &mut input.generated {
        same_as_dynamic(case, generated, &input.slabs, input.reads_keys, &kjson_batches)?;
    }
    let (mut arrow_decoder, arrow_changes, arrow_reads, agreement) = if spec.value.format == Format::Json {
        let (decoder, changes, reads, agreement) = arrow_json_side(case, &input, &kjson_batches)?;
        (Some(decoder), changes, reads, agreement)
    } else {
        let reads = format!(
            "nothing: it has no reader for {} envelopes (not comparable; kjson read them into {kjson_rows} rows)",
            spec.value.format.name()
        );
        (None, Vec::new(), reads, String::new())
    };

    let records = input.records;
    let reads_keys = input.reads_keys;
    let copied: Vec<Vec<u8>> = input
        .slabs
        .iter()
        .map(|s| {
            let mut bytes = if reads_keys { s.keys().bytes().to_vec() } else { Vec::new() };
            bytes.extend_from_slice(s.values().bytes());
            bytes
        })
        .collect();
    let encoder = match input.generated.as_ref().map(Decoder::kind) {
        Some(kind @ DecoderKind::Generated { .. }) => format!("kjson's dynamic decoder and the {kind}"),
        _ => "kjson's dynamic decoder (no generated one for this sink)".to_string(),
    };
    let mut contenders: Vec<Contender> = Vec::new();
    {
        let (decoder, slabs) = (&mut input.decoder, &input.slabs);
        contenders.push(Contender::new(KJSON, Box::new(move || kjson_pass(decoder, slabs, reads_keys))));
        if let Some(generated) = input.generated.as_mut() {
            contenders.push(Contender::new(GENERATED, Box::new(move || kjson_pass(generated, slabs, reads_keys))));
        }
    }
    let slabs = &input.slabs;
    if let Some(mut arrow_decoder) = arrow_decoder.take() {
        contenders.push(Contender::new(
            ARROW_JSON,
            Box::new(move || {
                arrow_json_pass(&mut arrow_decoder, slabs, &mut |b| {
                    black_box(b);
                })
            }),
        ));
    }
    contenders.push(Contender::new(
        SERDE_JSON,
        Box::new(move || {
            tree_pass(slabs, reads_keys, |r| {
                serde_json::from_slice::<serde_json::Value>(r)
                    .map(|v| drop(black_box(v)))
                    .map_err(|e| format!("serde_json: {e}"))
            })
        }),
    ));
    contenders.push(Contender::new(
        SONIC_RS,
        Box::new(move || {
            tree_pass(slabs, reads_keys, |r| {
                sonic_rs::from_slice::<sonic_rs::Value>(r)
                    .map(|v| drop(black_box(v)))
                    .map_err(|e| format!("sonic-rs: {e}"))
            })
        }),
    ));
    contenders.push(Contender::new(MEMCPY, Box::new(|| Ok(memcpy_pass(&copied)))));
    let lines = time_contenders(&mut contenders, args.rounds)?;
    let result = CaseBench { case, encoder, rows: records, lines };
    Ok(DecodeOutcome::Timed(Box::new(DecodeBench { result, arrow_changes, arrow_reads, agreement })))
}

/// arrow-json's decoder on the value records (the value side's fields under their value names,
/// in the closest schema it reads), checked against kjson's batches: the decoder, the schema
/// changes, what it reads, and how its columns compare.
fn arrow_json_side(
    case: BenchCase,
    input: &Input,
    kjson_batches: &[kjson_arrow::DecodedBatch],
) -> Result<(arrow_json::reader::Decoder, Vec<String>, String, String), String> {
    let spec = input.decoder.spec();
    let kjson_schema = input.decoder.schema();
    let mut changes = Vec::new();
    let arrow_fields: Vec<Field> = spec
        .value
        .projection
        .iter()
        .zip(&spec.value.field_names)
        .map(|(&at, name)| {
            let field = kjson_schema.field(at);
            let readable = readable_type(field.data_type(), name, &mut changes);
            Field::new(name, readable, true)
        })
        .collect();
    let arrow_schema = Arc::new(Schema::new(arrow_fields));
    let mut decoder = ReaderBuilder::new(arrow_schema.clone())
        .with_batch_size(BATCH_ROWS * 2)
        .build_decoder()
        .map_err(|e| format!("{}: arrow-json cannot build a decoder: {e}", case.name))?;
    let value_only_columns = spec.columns.len() - spec.value.projection.len();
    let tombstones: usize = input.slabs.iter().map(|s| s.values().lengths().iter().filter(|&&l| l < 0).count()).sum();
    let reads = match (input.reads_keys, value_only_columns, tombstones) {
        (false, _, _) => "the same records (no key fields)".to_string(),
        (true, 0, 0) => "the values only (the key fields are in the value too)".to_string(),
        (true, 0, t) => format!("the values only (the key fields are in the value too), skipping {t} tombstones"),
        (true, n, t) => format!("the values only: {n} key-only columns are not read, {t} tombstones skipped"),
    };
    let mut arrow_batches = Vec::new();
    arrow_json_pass(&mut decoder, &input.slabs, &mut |b| arrow_batches.push(b))
        .map_err(|e| format!("{}: {e}", case.name))?;
    let agreement = compare(&spec.value.projection, &arrow_schema, &kjson_schema, kjson_batches, &arrow_batches);
    Ok((decoder, changes, reads, format!("; {agreement}")))
}

/// The check before the generated decoder is timed: its batches equal the dynamic one's.
fn same_as_dynamic(
    case: BenchCase,
    generated: &mut Decoder,
    slabs: &[KeyValueSlabs],
    reads_keys: bool,
    dynamic: &[kjson_arrow::DecodedBatch],
) -> Result<(), String> {
    for (slab, expected) in slabs.iter().zip(dynamic) {
        let decoded = generated.decode(keys_of(slab, reads_keys), side(slab.values()));
        let decoded = decoded.map_err(|e| format!("{}: the generated decoder fails: {e}", case.name))?;
        let same = decoded.batch == expected.batch
            && decoded.row_kinds == expected.row_kinds
            && decoded.records == expected.records;
        if !same {
            return Err(format!("{}: the generated decoder's batch differs from the dynamic one's", case.name));
        }
    }
    Ok(())
}

fn side(slab: &Slab) -> RecordSide<'_> {
    RecordSide { data: slab.bytes(), offsets: slab.offsets(), lengths: slab.lengths() }
}

fn keys_of(slab: &KeyValueSlabs, reads_keys: bool) -> Option<RecordSide<'_>> {
    reads_keys.then(|| side(slab.keys()))
}

/// The bytes of the sides kjson's decoder reads (keys when the table has key fields, values).
fn bytes_read(slab: &KeyValueSlabs, reads_keys: bool) -> u64 {
    (slab.values().bytes().len() + if reads_keys { slab.keys().bytes().len() } else { 0 }) as u64
}

fn kjson_pass(decoder: &mut Decoder, slabs: &[KeyValueSlabs], reads_keys: bool) -> Result<u64, String> {
    let mut bytes = 0;
    for slab in slabs {
        let decoded = decoder.decode(keys_of(slab, reads_keys), side(slab.values())).map_err(|e| e.to_string())?;
        black_box(decoded);
        bytes += bytes_read(slab, reads_keys);
    }
    Ok(bytes)
}

/// arrow-json's decoder fed one value record at a time (as Kafka hands them over), flushed
/// once per fetch into a batch handed to `sink`; null and empty values (tombstones) skipped.
fn arrow_json_pass(
    decoder: &mut arrow_json::reader::Decoder,
    slabs: &[KeyValueSlabs],
    sink: &mut dyn FnMut(RecordBatch),
) -> Result<u64, String> {
    let mut bytes = 0;
    for slab in slabs {
        for index in 0..slab.values().len() {
            let Some(record) = slab.values().record(index).filter(|r| !r.is_empty()) else { continue };
            let read = decoder.decode(record).map_err(|e| format!("arrow-json: {e}"))?;
            if read != record.len() {
                return Err(format!("arrow-json read {read} of the {} bytes of record {index}", record.len()));
            }
            bytes += record.len() as u64;
        }
        if let Some(batch) = decoder.flush().map_err(|e| format!("arrow-json: {e}"))? {
            sink(batch);
        }
    }
    Ok(bytes)
}

/// Every record of the sides kjson reads, parsed by `parse` on its own.
fn tree_pass(
    slabs: &[KeyValueSlabs],
    reads_keys: bool,
    mut parse: impl FnMut(&[u8]) -> Result<(), String>,
) -> Result<u64, String> {
    let mut bytes = 0;
    for slab in slabs {
        let sides: &[&Slab] = if reads_keys { &[slab.keys(), slab.values()] } else { &[slab.values()] };
        for side in sides {
            for index in 0..side.len() {
                if let Some(record) = side.record(index).filter(|r| !r.is_empty()) {
                    parse(record)?;
                    bytes += record.len() as u64;
                }
            }
        }
    }
    Ok(bytes)
}

/// The type arrow-json reads closest to `ty`, noting each change: Flink's base64 BINARY read as
/// its text (arrow-json reads hex), TIMESTAMP(7..9) (kjson: epoch millis + nanos of the milli)
/// as Arrow nanoseconds.
fn readable_type(ty: &ArrowType, path: &str, changes: &mut Vec<String>) -> ArrowType {
    let nested = |field: &Field, path: String, changes: &mut Vec<String>| {
        Arc::new(field.clone().with_data_type(readable_type(field.data_type(), &path, changes)))
    };
    match ty {
        ArrowType::Binary => {
            changes.push(format!("{path}: Binary read as Utf8 (Flink writes base64, arrow-json reads hex)"));
            ArrowType::Utf8
        }
        ArrowType::Struct(fields)
            if fields.len() == 2 && fields[0].name() == "epoch_millis" && fields[1].name() == "nano_of_milli" =>
        {
            changes.push(format!(
                "{path}: TIMESTAMP(7..9) read as Timestamp(ns) (kjson: struct of epoch millis and nanos of the milli)"
            ));
            ArrowType::Timestamp(arrow_schema::TimeUnit::Nanosecond, None)
        }
        ArrowType::Struct(fields) => ArrowType::Struct(
            fields.iter().map(|f| nested(f, format!("{path}.{}", f.name()), changes)).collect::<Vec<_>>().into(),
        ),
        ArrowType::List(element) => ArrowType::List(nested(element, format!("{path}[]"), changes)),
        ArrowType::Map(entries, sorted) => ArrowType::Map(nested(entries, path.to_string(), changes), *sorted),
        other => other.clone(),
    }
}

/// How many of arrow-json's columns equal kjson's on every row both read (kjson's DELETE rows
/// from tombstones are skipped); columns of a changed type are not compared.
fn compare(
    projection: &[usize],
    arrow_schema: &Schema,
    kjson_schema: &Schema,
    kjson: &[kjson_arrow::DecodedBatch],
    arrow: &[RecordBatch],
) -> String {
    const DELETE: i8 = 3;
    let arrow_rows: usize = arrow.iter().map(RecordBatch::num_rows).sum();
    let kjson_rows: usize = kjson.iter().map(|d| d.row_kinds.iter().filter(|&&k| k != DELETE).count()).sum();
    if arrow_rows != kjson_rows || arrow.len() != kjson.len() {
        return format!("not compared: arrow-json gave {arrow_rows} rows, kjson {kjson_rows} (not counting deletes)");
    }
    let mut same = Vec::new();
    let mut differ = Vec::new();
    let mut skipped = 0;
    for (column, &at) in projection.iter().enumerate() {
        let field = arrow_schema.field(column);
        if field.data_type() != kjson_schema.field(at).data_type() {
            skipped += 1;
            continue;
        }
        let equal = kjson.iter().zip(arrow).all(|(k, a)| {
            let (k_column, a_column) = (k.batch.column(at), a.column(column));
            let mut a_row = 0;
            let mut row = 0;
            while row < k.row_kinds.len() {
                if k.row_kinds[row] == DELETE {
                    row += 1;
                    continue;
                }
                let run = k.row_kinds[row..].iter().take_while(|&&kind| kind != DELETE).count();
                if k_column.slice(row, run).as_ref() != a_column.slice(a_row, run).as_ref() {
                    return false;
                }
                row += run;
                a_row += run;
            }
            true
        });
        let list = if equal { &mut same } else { &mut differ };
        list.push(field.name().clone());
    }
    let mut text = format!("{} of {} columns equal kjson's on all {arrow_rows} rows", same.len(), projection.len());
    if skipped > 0 {
        let _ = write!(text, ", {skipped} of a changed type not compared");
    }
    if !differ.is_empty() {
        let _ = write!(text, "; differing: {}", differ.join(", "));
    }
    text
}

fn detail_table(outcome: &DecodeOutcome) -> String {
    let mut out = String::new();
    let bench = match outcome {
        DecodeOutcome::NotDecoded { case, reason } => {
            let _ = writeln!(out, "\n{}: {reason}", case.name);
            return out;
        }
        DecodeOutcome::Timed(bench) => bench,
    };
    let r = &bench.result;
    let _ = writeln!(out, "\n{}: {} records, {}", r.case.name, r.rows, r.encoder);
    let _ = writeln!(out, "arrow-json reads {}{}", bench.arrow_reads, bench.agreement);
    if bench.arrow_changes.is_empty() && !bench.agreement.is_empty() {
        let _ = writeln!(out, "arrow-json schema: kjson's, unchanged");
    }
    for change in &bench.arrow_changes {
        let _ = writeln!(out, "arrow-json schema change: {change}");
    }
    let _ = writeln!(
        out,
        "{:<26}{:>12}{:>9}{:>10}{:>13}{:>12}{:>10}{:>12}",
        "contender", "M rec/s", "spread", "MB/s", "bytes", "x arrow", "x kjson", "memcpy/x"
    );
    for line in &r.lines {
        let _ = writeln!(
            out,
            "{:<26}{:>12.3}{:>8.1}%{:>10.1}{:>13}{:>12}{:>10}{:>12}",
            line.name,
            line.timing.per_second(r.rows) / 1e6,
            line.timing.spread_percent(),
            line.timing.per_second(line.bytes as usize) / 1e6,
            line.bytes,
            show_ratio(r.ratio(&line.name, ARROW_JSON)),
            show_ratio(r.ratio(&line.name, KJSON)),
            show_ratio(r.ratio(MEMCPY, &line.name)),
        );
    }
    out
}

/// kjson's decoders on every sink against the others, as ratios of records/s.
fn summary_table(outcomes: &[DecodeOutcome]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\ndecode summary (kjson's dynamic and generated decoders; median records/s in millions; ratios from this run)"
    );
    let _ = writeln!(
        out,
        "{:<13}{:>9}{:>11}{:>12}{:>12}{:>12}{:>12}{:>14}{:>12}{:>12}{:>15}",
        "sink",
        "kjson",
        "generated",
        "arrow-json",
        "serde_json",
        "sonic-rs",
        "memcpy",
        "kjson/arrow",
        "gen/arrow",
        "kjson/gen",
        "memcpy/kjson"
    );
    for outcome in outcomes {
        match outcome {
            DecodeOutcome::NotDecoded { case, .. } => {
                let _ = writeln!(out, "{:<13}not decoded yet", case.name);
            }
            DecodeOutcome::Timed(bench) => {
                let r = &bench.result;
                let rate = |name: &str| {
                    r.line(name)
                        .map_or_else(|| "-".to_string(), |l| format!("{:.3}", l.timing.per_second(r.rows) / 1e6))
                };
                let _ = writeln!(
                    out,
                    "{:<13}{:>9}{:>11}{:>12}{:>12}{:>12}{:>12}{:>14}{:>12}{:>12}{:>15}",
                    r.case.name,
                    rate(KJSON),
                    rate(GENERATED),
                    rate(ARROW_JSON),
                    rate(SERDE_JSON),
                    rate(SONIC_RS),
                    rate(MEMCPY),
                    show_ratio(r.ratio(KJSON, ARROW_JSON)),
                    show_ratio(r.ratio(GENERATED, ARROW_JSON)),
                    show_ratio(r.ratio(KJSON, GENERATED)),
                    show_ratio(r.ratio(MEMCPY, KJSON)),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrow_json_reads_base64_binary_as_text_and_nanosecond_timestamps_as_arrow_ones() {
        let parts = vec![
            Field::new("epoch_millis", ArrowType::Int64, false),
            Field::new("nano_of_milli", ArrowType::Int32, false),
        ];
        let row = ArrowType::Struct(
            vec![Field::new("b", ArrowType::Binary, true), Field::new("ts", ArrowType::Struct(parts.into()), true)]
                .into(),
        );
        let list = ArrowType::List(Arc::new(Field::new("element", row, true)));
        let mut changes = Vec::new();
        let readable = readable_type(&list, "c", &mut changes);
        let expected_row = ArrowType::Struct(
            vec![
                Field::new("b", ArrowType::Utf8, true),
                Field::new("ts", ArrowType::Timestamp(arrow_schema::TimeUnit::Nanosecond, None), true),
            ]
            .into(),
        );
        assert_eq!(readable, ArrowType::List(Arc::new(Field::new("element", expected_row, true))));
        assert_eq!(changes.len(), 2, "{changes:?}");
        assert!(changes[0].starts_with("c[].b: Binary") && changes[1].starts_with("c[].ts: TIMESTAMP"), "{changes:?}");
        let mut none = Vec::new();
        assert_eq!(readable_type(&ArrowType::Int64, "i", &mut none), ArrowType::Int64);
        assert!(none.is_empty());
    }
}
