//! `kjson encode`: one line per input row in each of the key and value files.
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use kjson_arrow::runtime::Slab;

use crate::commands::common::{load_spec, CompatibilityArgs, PendingFile};
use crate::input::{read_batches, split_row_kinds};
use crate::progress::Progress;
use kjson_arrow::Encoder;

#[derive(Args, Debug)]
pub struct EncodeArgs {
    /// The Kafka sink's Flink SQL `CREATE TABLE` DDL.
    #[arg(long)]
    pub ddl: PathBuf,
    /// Arrow IPC file or stream whose columns are the sink's physical columns, in order.
    #[arg(long)]
    pub input: PathBuf,
    /// Where to write the keys: one line per row, an empty line for a null key.
    #[arg(long)]
    pub keys_out: PathBuf,
    /// Where to write the values: one line per row, an empty line for a tombstone.
    #[arg(long)]
    pub values_out: PathBuf,
    /// An Int8 column of Flink RowKinds (0 +I, 1 -U, 2 +U, 3 -D), not a physical column.
    #[arg(long)]
    pub row_kind_column: Option<String>,
    /// No progress line (it is shown only when stderr is a terminal anyway).
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub compatibility: CompatibilityArgs,
}

pub fn run_encode(args: &EncodeArgs) -> Result<(), String> {
    let keys = PendingFile::new(&args.keys_out);
    let values = PendingFile::new(&args.values_out);
    let result = encode_into(args, &keys, &values).and_then(|()| {
        keys.commit()?;
        values.commit()
    });
    if result.is_err() {
        keys.discard();
        values.discard();
    }
    result
}

fn create(file: &PendingFile) -> Result<BufWriter<File>, String> {
    let f = File::create(&file.temp).map_err(|e| format!("cannot create {}: {e}", file.target.display()))?;
    Ok(BufWriter::with_capacity(1 << 20, f))
}

fn encode_into(args: &EncodeArgs, keys: &PendingFile, values: &PendingFile) -> Result<(), String> {
    let spec = load_spec(&args.ddl)?;
    let mut encoder = Encoder::open(spec, args.compatibility.compatibility()).map_err(|e| e.to_string())?;
    let (mut keys_out, mut values_out) = (create(keys)?, create(values)?);
    let mut row_base = 0usize;
    let mut progress = Progress::on_stderr("kjson encode", None, args.quiet);
    for batch in read_batches(&args.input)? {
        let batch = batch?;
        let (physical, kinds) = split_row_kinds(&batch, args.row_kind_column.as_deref())?;
        let slabs = encoder
            .encode(&physical, kinds.as_ref())
            .map_err(|e| format!("batch starting at input row {row_base}: {e}"))?;
        write_lines(&mut keys_out, slabs.keys()).map_err(|e| format!("writing {}: {e}", args.keys_out.display()))?;
        write_lines(&mut values_out, slabs.values())
            .map_err(|e| format!("writing {}: {e}", args.values_out.display()))?;
        row_base += physical.num_rows();
        progress.update(row_base);
    }
    progress.finish();
    keys_out.flush().map_err(|e| e.to_string())?;
    values_out.flush().map_err(|e| e.to_string())?;
    // Which encoder ran is never silent; said once it has succeeded, so errors stay one line.
    eprintln!("kjson: encoded {row_base} rows; encoder: {}", encoder.kind());
    Ok(())
}

/// Each record then `\n`; a null record is an empty line.
fn write_lines(out: &mut impl Write, slab: &Slab) -> std::io::Result<()> {
    for row in 0..slab.len() {
        if let Some(bytes) = slab.record(row) {
            out.write_all(bytes)?;
        }
        out.write_all(b"\n")?;
    }
    Ok(())
}
