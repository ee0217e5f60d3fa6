//! `kjson decode`: Kafka records (a length-prefixed records file, or values one per line)
//! through a table's DDL into an Arrow IPC file of the rows Flink would read.
use std::fs::File;
use std::io::BufWriter;
use std::ops::Range;
use std::path::PathBuf;

use arrow_ipc::writer::FileWriter;
use clap::Args;
use kjson_arrow::open_decoder;
use kjson_arrow::runtime::decode::{DecodedBatch, Decoder, OnError, RecordSide};

use crate::commands::common::{load_source_spec, CompatibilityArgs, PendingFile};
use crate::progress::Progress;

pub use kjson_arrow::runtime::decode::{RECORD_COLUMN, ROW_KIND_COLUMN};

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The table's Flink SQL `CREATE TABLE` DDL (connector kafka or upsert-kafka).
    #[arg(long)]
    pub ddl: PathBuf,
    /// Records file: per record a big-endian i32 key length (-1: null), the key, a big-endian
    /// i32 value length (-1: null), the value.
    #[arg(long, conflicts_with = "lines")]
    pub records: Option<PathBuf>,
    /// Values one per line (no keys); an empty line is an empty value.
    #[arg(long)]
    pub lines: Option<PathBuf>,
    /// The Arrow IPC file to write: the physical columns, then `__row_kind` (Int8) and
    /// `__record` (Int32, the record's index in the input).
    #[arg(long)]
    pub out: PathBuf,
    /// Go on past records Flink's deserializer would fail on, listing them here (one
    /// `INDEX<TAB>message` line each) instead of failing.
    #[arg(long)]
    pub errors: Option<PathBuf>,
    /// Records per decoded batch.
    #[arg(long, default_value_t = 4096)]
    pub batch_size: usize,
    /// No progress line.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub compatibility: CompatibilityArgs,
}

/// Every record's key and value as byte ranges of one buffer (None: null).
struct RecordsFile {
    data: Vec<u8>,
    keys: Vec<Option<Range<usize>>>,
    values: Vec<Option<Range<usize>>>,
}

pub fn run_decode(args: &DecodeArgs) -> Result<(), String> {
    let out = PendingFile::new(&args.out);
    let errors = args.errors.as_ref().map(|path| PendingFile::new(path));
    let result = decode_into(args, &out, errors.as_ref()).and_then(|()| {
        out.commit()?;
        errors.as_ref().map_or(Ok(()), PendingFile::commit)
    });
    if result.is_err() {
        out.discard();
        errors.iter().for_each(PendingFile::discard);
    }
    result
}

fn decode_into(args: &DecodeArgs, out: &PendingFile, errors_out: Option<&PendingFile>) -> Result<(), String> {
    let spec = load_source_spec(&args.ddl)?;
    // The generated decoder of the spec when this build has one (the same rows and errors).
    let mut decoder = open_decoder(spec, args.compatibility.compatibility()).map_err(|e| e.to_string())?;
    if errors_out.is_some() {
        decoder.set_on_error(OnError::Collect);
    }
    let input = read_input(args)?;
    let schema = decoder.output_schema().map_err(|e| e.to_string())?;
    let file = File::create(&out.temp).map_err(|e| format!("cannot create {}: {e}", out.target.display()))?;
    let mut writer = FileWriter::try_new(BufWriter::new(file), &schema).map_err(|e| e.to_string())?;
    let mut error_lines = String::new();
    let (mut rows, mut failed) = (0usize, 0usize);
    let mut progress = Progress::on_stderr("kjson decode", Some(input.values.len()), args.quiet);
    let batch_size = args.batch_size.max(1);
    for start in (0..input.values.len()).step_by(batch_size) {
        let end = (start + batch_size).min(input.values.len());
        let decoded = decode_chunk(&mut decoder, &input, start..end)?;
        for error in &decoded.errors {
            if let kjson_arrow::runtime::KjsonError::Record { record, message } = error {
                error_lines.push_str(&format!(
                    "{}\t{}\n",
                    start + record,
                    message.replace('\n', "\\n").replace('\r', "\\r")
                ));
            }
        }
        failed += decoded.errors.len();
        rows += decoded.batch.num_rows();
        let batch = decoded.with_extra_columns(start).map_err(|e| e.to_string())?;
        writer.write(&batch).map_err(|e| format!("writing {}: {e}", args.out.display()))?;
        progress.update(end);
    }
    progress.finish();
    writer.finish().map_err(|e| format!("writing {}: {e}", args.out.display()))?;
    if let Some(errors_out) = errors_out {
        std::fs::write(&errors_out.temp, error_lines)
            .map_err(|e| format!("cannot write {}: {e}", errors_out.target.display()))?;
    }
    eprintln!("kjson: decoded {} records into {rows} rows ({failed} failed)", input.values.len());
    Ok(())
}

fn decode_chunk(decoder: &mut Decoder, input: &RecordsFile, range: Range<usize>) -> Result<DecodedBatch, String> {
    let side = |ranges: &[Option<Range<usize>>]| -> Result<(Vec<i32>, Vec<i32>), String> {
        let mut offsets = Vec::with_capacity(ranges.len());
        let mut lengths = Vec::with_capacity(ranges.len());
        for r in ranges {
            let (offset, length) = match r {
                Some(r) => (r.start, r.len() as i64),
                None => (0, -1),
            };
            offsets.push(i32::try_from(offset).map_err(|_| "records file over 2 GiB: split it".to_string())?);
            lengths.push(length as i32);
        }
        Ok((offsets, lengths))
    };
    let (key_offsets, key_lengths) = side(&input.keys[range.clone()])?;
    let (value_offsets, value_lengths) = side(&input.values[range.clone()])?;
    let keys = RecordSide { data: &input.data, offsets: &key_offsets, lengths: &key_lengths };
    let values = RecordSide { data: &input.data, offsets: &value_offsets, lengths: &value_lengths };
    decoder.decode(Some(keys), values).map_err(|e| match e {
        kjson_arrow::runtime::KjsonError::Record { record, message } => {
            format!("record {}: {message}", range.start + record)
        }
        other => other.to_string(),
    })
}

fn read_input(args: &DecodeArgs) -> Result<RecordsFile, String> {
    match (&args.records, &args.lines) {
        (Some(path), _) => {
            let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            parse_records(data).map_err(|e| format!("{}: {e}", path.display()))
        }
        (None, Some(path)) => {
            let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Ok(parse_lines(data))
        }
        (None, None) => Err("give the records with --records FILE or --lines FILE".to_string()),
    }
}

fn parse_records(data: Vec<u8>) -> Result<RecordsFile, String> {
    let (mut keys, mut values) = (Vec::new(), Vec::new());
    let mut pos = 0usize;
    let part = |pos: &mut usize, what: &str, index: usize| -> Result<Option<Range<usize>>, String> {
        let header = data
            .get(*pos..*pos + 4)
            .ok_or_else(|| format!("record {index}: the file ends inside its {what} length"))?;
        let length = i32::from_be_bytes(header.try_into().expect("4 bytes"));
        *pos += 4;
        if length < 0 {
            return Ok(None);
        }
        let range = *pos..*pos + length as usize;
        if range.end > data.len() {
            return Err(format!("record {index}: its {what} of {length} bytes runs past the end of the file"));
        }
        *pos = range.end;
        Ok(Some(range))
    };
    while pos < data.len() {
        let index = keys.len();
        keys.push(part(&mut pos, "key", index)?);
        values.push(part(&mut pos, "value", index)?);
    }
    Ok(RecordsFile { data, keys, values })
}

fn parse_lines(data: Vec<u8>) -> RecordsFile {
    let mut values = Vec::new();
    let mut start = 0;
    for (i, &b) in data.iter().enumerate() {
        if b == b'\n' {
            values.push(Some(start..i));
            start = i + 1;
        }
    }
    if start < data.len() {
        values.push(Some(start..data.len()));
    }
    let keys = vec![None; values.len()];
    RecordsFile { data, keys, values }
}
