//! `kjson codegen`: prints the specialized encoder source generated for a DDL, exactly as the
//! build would compile it from `schemas/` or `$KJSON_SCHEMAS_DIR`.
use std::path::PathBuf;

use clap::Args;

#[derive(Args, Debug)]
pub struct CodegenArgs {
    /// The Kafka sink's Flink SQL `CREATE TABLE` DDL.
    #[arg(long)]
    pub ddl: PathBuf,
}

pub fn run_codegen(args: &CodegenArgs) -> Result<(), String> {
    let path = &args.ddl;
    let ddl = std::fs::read_to_string(path).map_err(|e| format!("cannot read DDL {}: {e}", path.display()))?;
    let generated =
        kjson_codegen::generate_for_ddl(&ddl, &path.display().to_string()).map_err(|e| match e.position() {
            Some(p) => format!("{}:{}:{}: {e}", path.display(), p.line, p.column),
            None => format!("{}: {e}", path.display()),
        })?;
    print!("{}", generated.code);
    Ok(())
}
