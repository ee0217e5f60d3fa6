//! `kjson codegen`: prints the specialized encoder source generated for a DDL (or, with
//! `--decoder`, the decoder of its scan side), exactly as the build would compile it from
//! `schemas/` or `$KJSON_SCHEMAS_DIR`.
use std::path::PathBuf;

use clap::Args;

#[derive(Args, Debug)]
pub struct CodegenArgs {
    /// The Kafka sink's Flink SQL `CREATE TABLE` DDL.
    #[arg(long)]
    pub ddl: PathBuf,
    /// Print the generated decoder of the table read as a source instead of the encoder.
    #[arg(long)]
    pub decoder: bool,
}

pub fn run_codegen(args: &CodegenArgs) -> Result<(), String> {
    let path = &args.ddl;
    let ddl = std::fs::read_to_string(path).map_err(|e| format!("cannot read DDL {}: {e}", path.display()))?;
    let origin = path.display().to_string();
    let located = |e: kjson_arrow::runtime::KjsonError| match e.position() {
        Some(p) => format!("{}:{}:{}: {e}", path.display(), p.line, p.column),
        None => format!("{}: {e}", path.display()),
    };
    if !args.decoder {
        print!("{}", kjson_codegen::generate_for_ddl(&ddl, &origin).map_err(located)?.code);
        return Ok(());
    }
    match kjson_codegen::generate_decoder_for_ddl(&ddl, &origin).map_err(located)? {
        Some(generated) => print!("{}", generated.code),
        None => println!(
            "// {origin}: no generated decoder; the dynamic decoder reads this table (no json key and no value \
             side the one-pass reader reads: a MAP or MULTISET in a changelog envelope, debezium-json's \
             schema-include, or a type or field name only the dynamic decoder reads)"
        ),
    }
    Ok(())
}
