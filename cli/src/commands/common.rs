//! Pieces shared by the subcommands: reading a DDL, the compatibility flags.
use std::path::{Path, PathBuf};

use clap::Args;
use kjson_arrow::runtime::{Compatibility, FlinkVersion, FloatSpelling, SinkSpec};

/// `--flink-version` and `--float-spelling`.
#[derive(Args, Debug, Clone)]
pub struct CompatibilityArgs {
    /// The Flink release whose bytes to reproduce: 1.20, 2.2 or 2.3.
    #[arg(long, default_value = "2.3", value_parser = parse_flink_version)]
    pub flink_version: FlinkVersion,
    /// The JVM float spelling: jdk17 (JDK <= 18) or jdk19 (JDK >= 19).
    #[arg(long, default_value = "jdk17", value_parser = parse_float_spelling)]
    pub float_spelling: FloatSpelling,
}

impl CompatibilityArgs {
    pub fn compatibility(&self) -> Compatibility {
        Compatibility { flink_version: self.flink_version, float_spelling: self.float_spelling }
    }
}

fn parse_flink_version(text: &str) -> Result<FlinkVersion, String> {
    FlinkVersion::parse(text).ok_or_else(|| format!("unknown Flink version '{text}'; expected 1.20, 2.2 or 2.3"))
}

fn parse_float_spelling(text: &str) -> Result<FloatSpelling, String> {
    FloatSpelling::parse(text).ok_or_else(|| format!("unknown float spelling '{text}'; expected jdk17 or jdk19"))
}

/// Reads and resolves a sink DDL; errors name the file and the DDL position.
pub fn load_spec(path: &Path) -> Result<SinkSpec, String> {
    load_with(path, SinkSpec::from_ddl)
}

/// As [`load_spec`], for a table that is read (the scan side's option rules).
pub fn load_source_spec(path: &Path) -> Result<SinkSpec, String> {
    load_with(path, SinkSpec::from_source_ddl)
}

fn load_with(path: &Path, build: fn(&str) -> kjson_arrow::runtime::Result<SinkSpec>) -> Result<SinkSpec, String> {
    let ddl = std::fs::read_to_string(path).map_err(|e| format!("cannot read DDL {}: {e}", path.display()))?;
    build(&ddl).map_err(|e| match e.position() {
        Some(p) => format!("{}:{}:{}: {e}", path.display(), p.line, p.column),
        None => format!("{}: {e}", path.display()),
    })
}

/// A file written under a temporary name and renamed into place only when complete, so a
/// failed run leaves nothing that looks like finished output.
pub struct PendingFile {
    pub temp: PathBuf,
    pub target: PathBuf,
}

impl PendingFile {
    pub fn new(target: &Path) -> PendingFile {
        let mut name = target.file_name().map(|n| n.to_os_string()).unwrap_or_default();
        name.push(format!(".kjson-partial-{}", std::process::id()));
        PendingFile { temp: target.with_file_name(name), target: target.to_path_buf() }
    }

    pub fn commit(&self) -> Result<(), String> {
        std::fs::rename(&self.temp, &self.target)
            .map_err(|e| format!("cannot move {} to {}: {e}", self.temp.display(), self.target.display()))
    }

    pub fn discard(&self) {
        let _ = std::fs::remove_file(&self.temp);
    }
}
