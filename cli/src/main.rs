//! The `kjson` command line.
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use kjson_cli::commands as cli;

#[derive(Parser)]
#[command(
    name = "kjson",
    version,
    about = "Arrow batches to Kafka records, byte-identical to Apache Flink's JSON formats"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Encode an Arrow IPC file or stream through a Kafka sink DDL into key and value records.
    Encode(cli::encode::EncodeArgs),
    /// Decode Kafka records through a table's DDL into Arrow, as Flink's deserializers read them.
    Decode(cli::decode::DecodeArgs),
    /// Compare two Arrow IPC files row by row, value by value.
    Diff(cli::diff::DiffArgs),
    /// Print the resolved sink spec of a DDL: columns, key and value projections, options.
    Inspect(cli::inspect::InspectArgs),
    /// Generate Nexmark data, encode it through the query's sink, and report throughput.
    Nexmark(cli::nexmark::NexmarkArgs),
    /// Print the specialized encoder source generated for a DDL.
    Codegen(cli::codegen::CodegenArgs),
    /// Time generated, dynamic and arrow-json encoders (and memcpy) on the same Nexmark batches.
    #[cfg(feature = "bench")]
    Bench(cli::bench::BenchArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Encode(args) => cli::encode::run_encode(&args),
        Command::Decode(args) => cli::decode::run_decode(&args),
        Command::Diff(args) => cli::diff::run_diff(&args),
        Command::Inspect(args) => cli::inspect::run_inspect(&args),
        Command::Nexmark(args) => cli::nexmark::run_nexmark(&args).map(|report| println!("{report}")),
        Command::Codegen(args) => cli::codegen::run_codegen(&args),
        #[cfg(feature = "bench")]
        Command::Bench(args) => cli::bench::run_bench(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("kjson: error: {}", message.replace('\n', "\\n"));
            ExitCode::FAILURE
        }
    }
}
