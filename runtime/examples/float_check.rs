//! Compares `kjson_runtime::float` with Java's `Double.toString` / `Float.toString` lines from
//! `tests/float_oracle/FloatOracle.java` (`d <hex bits> <text>` / `f <hex bits> <text>`).
//!
//! Usage: `java tests/float_oracle/FloatOracle.java 1 100000 | float_check --spelling jdk17`
//! Prints `N passed, M failed` and the first 20 mismatches; exits 1 on a mismatch, 2 on bad input.
use kjson_runtime::float::{java_double_to_string, java_float_to_string};
use kjson_runtime::FloatSpelling;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

const SHOWN_MISMATCHES: usize = 20;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spelling = match args.as_slice() {
        [flag, value] if flag == "--spelling" => FloatSpelling::parse(value),
        _ => None,
    };
    let Some(spelling) = spelling else {
        eprintln!("usage: float_check --spelling jdk17|jdk19  < oracle lines");
        return ExitCode::from(2);
    };
    match check_lines(io::stdin().lock(), spelling) {
        Ok(report) => report.print(),
        Err(message) => {
            eprintln!("float_check: {message}");
            ExitCode::from(2)
        }
    }
}

#[derive(Default)]
struct Report {
    passed: u64,
    failed: u64,
    mismatches: Vec<String>,
}

impl Report {
    fn print(&self) -> ExitCode {
        let mut stdout = io::stdout().lock();
        for mismatch in &self.mismatches {
            let _ = writeln!(stdout, "MISMATCH {mismatch}");
        }
        let _ = writeln!(stdout, "{} passed, {} failed", self.passed, self.failed);
        if self.failed == 0 && self.passed > 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }
    }
}

fn check_lines(input: impl BufRead, spelling: FloatSpelling) -> Result<Report, String> {
    let mut report = Report::default();
    for (index, line) in input.lines().enumerate() {
        let line = line.map_err(|error| format!("reading stdin: {error}"))?;
        if line.is_empty() {
            continue;
        }
        let bad_line = || format!("line {}: cannot parse {line:?}", index + 1);
        let mut fields = line.splitn(3, ' ');
        let (Some(kind), Some(hex), Some(expected)) = (fields.next(), fields.next(), fields.next()) else {
            return Err(bad_line());
        };
        let actual = match kind {
            "d" => u64::from_str_radix(hex, 16).map(|bits| java_double_to_string(f64::from_bits(bits), spelling)),
            "f" => u32::from_str_radix(hex, 16).map(|bits| java_float_to_string(f32::from_bits(bits), spelling)),
            _ => return Err(bad_line()),
        }
        .map_err(|_| bad_line())?;
        if actual == expected {
            report.passed += 1;
        } else {
            report.failed += 1;
            if report.mismatches.len() < SHOWN_MISMATCHES {
                report.mismatches.push(format!("{kind} {hex}: java {expected}, rust {actual}"));
            }
        }
    }
    Ok(report)
}
