//! `kjson inspect`: the resolved spec of a DDL, as the encoder will use it, and the decoder's view
//! of the same table.
use std::path::{Path, PathBuf};

use clap::Args;
use kjson_arrow::runtime::sql::parse_create_table;
use kjson_arrow::runtime::{Compatibility, DataType, Format, LogicalType, SideSpec, SinkSpec};

use crate::commands::common::{load_source_spec, load_spec, CompatibilityArgs};
use kjson_arrow::{open_decoder, EncoderKind};

#[derive(Args, Debug)]
pub struct InspectArgs {
    /// The Kafka sink's Flink SQL `CREATE TABLE` DDL.
    #[arg(long)]
    pub ddl: PathBuf,
    #[command(flatten)]
    pub compatibility: CompatibilityArgs,
}

pub fn run_inspect(args: &InspectArgs) -> Result<(), String> {
    let spec = load_spec(&args.ddl)?;
    let connector = written_connector(&args.ddl).unwrap_or_else(|| spec.connector.identifier().to_string());
    println!("{}", spec.describe_as(&connector));
    let c = args.compatibility.compatibility();
    println!("compatibility: Flink {}, float spelling {}", c.flink_version, c.float_spelling);
    println!("encoder: {}", EncoderKind::for_spec(&spec));
    print_ltz_marks(&spec);
    print_decoder(&args.ddl, &spec, c)
}

/// The read side of the same table: what `kjson decode` and the decoders of the JNI and C edges
/// return, and the options each side is read with.
fn print_decoder(ddl: &Path, spec: &SinkSpec, compatibility: Compatibility) -> Result<(), String> {
    // The read side is looked up by its scan spec (the scan side's option rules).
    let source = load_source_spec(ddl).map_err(|e| format!("decoder: {e}"))?;
    let decoder = open_decoder(source, compatibility).map_err(|e| format!("decoder: {e}"))?;
    let schema = decoder.output_schema().map_err(|e| format!("decoder: {e}"))?;
    println!("decoder: {}; decoded batch:", decoder.kind());
    for field in schema.fields() {
        let nullable = if field.is_nullable() { "" } else { " not null" };
        println!("  {}: {}{nullable}", field.name(), field.data_type());
    }
    if let Some(key) = &spec.key {
        println!("  read options of the key: {}", read_options(key));
    }
    println!("  read options of the value: {}", read_options(&spec.value));
    Ok(())
}

/// A side's format and the options only the read side uses (the format's own, where it has them).
fn read_options(side: &SideSpec) -> String {
    let o = &side.options;
    let mut words = vec![
        format!("format {}", side.format),
        format!("fail-on-missing-field={}", o.fail_on_missing_field),
        format!("ignore-parse-errors={}", o.ignore_parse_errors),
        format!("timestamp-format.standard={}", o.timestamp_format.option_value()),
    ];
    match side.format {
        Format::Json if o.json_parser_set => words.push(format!("decode.json-parser.enabled={}", o.json_parser)),
        Format::DebeziumJson => words.push(format!("schema-include={}", o.schema_include)),
        Format::CanalJson => {
            words.push(format!("database.include={}", o.database_include.as_deref().unwrap_or("(any)")));
            words.push(format!("table.include={}", o.table_include.as_deref().unwrap_or("(any)")));
        }
        _ => {}
    }
    words.join(", ")
}

/// The `connector` value as the DDL wrote it (`kjson-kafka` or the stock `kafka`).
fn written_connector(path: &Path) -> Option<String> {
    let ddl = std::fs::read_to_string(path).ok()?;
    let table = parse_create_table(&ddl).ok()?;
    table.options.into_iter().rev().find(|option| option.key == "connector").map(|option| option.value)
}

/// Lists every TIMESTAMP_LTZ position: Arrow cannot tell them from TIMESTAMP.
fn print_ltz_marks(spec: &SinkSpec) {
    let mut marks = Vec::new();
    for column in &spec.columns {
        ltz_paths(&column.name, &column.data_type, &mut marks);
    }
    if marks.is_empty() {
        println!("TIMESTAMP_LTZ marks: none");
    } else {
        println!("TIMESTAMP_LTZ marks (written in UTC with a `Z`):");
        for m in marks {
            println!("  {m}");
        }
    }
}

fn ltz_paths(path: &str, ty: &DataType, marks: &mut Vec<String>) {
    match &ty.logical {
        LogicalType::TimestampLtz { .. } => marks.push(path.to_string()),
        LogicalType::Array(e) | LogicalType::Multiset(e) => ltz_paths(&format!("{path}[]"), e, marks),
        LogicalType::Map { key, value } => {
            ltz_paths(&format!("{path}{{key}}"), key, marks);
            ltz_paths(&format!("{path}{{value}}"), value, marks);
        }
        LogicalType::Row(fields) => {
            for f in fields {
                ltz_paths(&format!("{path}.{}", f.name), &f.data_type, marks);
            }
        }
        _ => {}
    }
}
