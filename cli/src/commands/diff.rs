//! `kjson diff`: whether two Arrow IPC files hold the same rows, value by value (floats by their
//! bits, timestamps to the nanosecond, map entries in any order); the first difference is shown.
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Schema, TimeUnit};
use clap::Args;

use crate::commands::decode::RECORD_COLUMN;
use crate::input::read_batches;

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The expected rows (an Arrow IPC file or stream).
    pub expected: PathBuf,
    /// The rows to check against them.
    pub actual: PathBuf,
}

pub fn run_diff(args: &DiffArgs) -> Result<(), String> {
    let (expected_schema, expected) = rows(&args.expected)?;
    let (actual_schema, actual) = rows(&args.actual)?;
    if let Some(difference) = schema_difference(&expected_schema, &actual_schema) {
        return Err(format!("the schemas differ: {difference}"));
    }
    let names: Vec<&str> = expected_schema.fields().iter().map(|f| f.name().as_str()).collect();
    let record_column = names.iter().position(|&n| n == RECORD_COLUMN);
    let differing: Vec<usize> = (0..expected.len().min(actual.len())).filter(|&i| expected[i] != actual[i]).collect();
    if expected.len() != actual.len() || !differing.is_empty() {
        let mut report =
            format!("{} expected rows, {} actual rows, {} differ", expected.len(), actual.len(), differing.len());
        match record_column {
            Some(column) => report.push_str(&first_record_difference(&names, column, &expected, &actual)),
            None => {
                let first = differing.first().copied().unwrap_or(expected.len().min(actual.len()));
                report.push_str(&format!("; first difference at row {first}:"));
                report.push_str(&show_rows(&names, "expected", expected.get(first..=first).unwrap_or(&[])));
                report.push_str(&show_rows(&names, "actual", actual.get(first..=first).unwrap_or(&[])));
            }
        }
        return Err(report);
    }
    println!("kjson diff: {} rows, the same", expected.len());
    Ok(())
}

/// The rows of the first record whose rows differ, when rows name their record.
fn first_record_difference(names: &[&str], column: usize, expected: &[Vec<String>], actual: &[Vec<String>]) -> String {
    let group = |rows: &[Vec<String>]| {
        let mut groups: std::collections::BTreeMap<i64, Vec<Vec<String>>> = std::collections::BTreeMap::new();
        for row in rows {
            groups.entry(row[column].parse().unwrap_or(-1)).or_default().push(row.clone());
        }
        groups
    };
    let (expected, actual) = (group(expected), group(actual));
    let records: std::collections::BTreeSet<i64> = expected.keys().chain(actual.keys()).copied().collect();
    let differing: Vec<i64> = records.into_iter().filter(|r| expected.get(r) != actual.get(r)).collect();
    let Some(&record) = differing.first() else {
        return String::new();
    };
    let listed: Vec<String> = differing.iter().take(50).map(i64::to_string).collect();
    let mut report =
        format!("; {} differing records: [{}]; first differing record: {record}", differing.len(), listed.join(", "));
    report.push_str(&show_rows(names, "expected", expected.get(&record).map_or(&[][..], |v| v)));
    report.push_str(&show_rows(names, "actual", actual.get(&record).map_or(&[][..], |v| v)));
    report
}

fn show_rows(names: &[&str], label: &str, rows: &[Vec<String>]) -> String {
    if rows.is_empty() {
        return format!("\n  {label}: (no row)");
    }
    rows.iter()
        .map(|row| {
            let shown: Vec<String> = names.iter().zip(row).map(|(n, v)| format!("{n}={v}")).collect();
            format!("\n  {label}: {}", shown.join(", "))
        })
        .collect()
}

fn schema_difference(expected: &Schema, actual: &Schema) -> Option<String> {
    if expected.fields().len() != actual.fields().len() {
        return Some(format!("{} columns expected, {} found", expected.fields().len(), actual.fields().len()));
    }
    expected.fields().iter().zip(actual.fields()).find_map(|(e, a)| {
        (e.name() != a.name() || e.data_type() != a.data_type())
            .then(|| format!("expected `{}` {}, found `{}` {}", e.name(), e.data_type(), a.name(), a.data_type()))
    })
}

/// Every row of every batch, each value rendered canonically.
fn rows(path: &Path) -> Result<(Schema, Vec<Vec<String>>), String> {
    let mut schema = None;
    let mut out = Vec::new();
    for batch in read_batches(path)? {
        let batch: RecordBatch = batch?;
        schema.get_or_insert_with(|| batch.schema().as_ref().clone());
        for row in 0..batch.num_rows() {
            out.push(batch.columns().iter().map(|c| render(c.as_ref(), row)).collect());
        }
    }
    let schema = schema.ok_or_else(|| format!("{} holds no record batch", path.display()))?;
    Ok((schema, out))
}

fn render(array: &dyn Array, row: usize) -> String {
    if array.is_null(row) {
        return "null".to_string();
    }
    match array.data_type() {
        DataType::Boolean => array.as_boolean().value(row).to_string(),
        DataType::Int8 => array.as_primitive::<Int8Type>().value(row).to_string(),
        DataType::Int16 => array.as_primitive::<Int16Type>().value(row).to_string(),
        DataType::Int32 => array.as_primitive::<Int32Type>().value(row).to_string(),
        DataType::Int64 => array.as_primitive::<Int64Type>().value(row).to_string(),
        DataType::Float32 => {
            let v = array.as_primitive::<Float32Type>().value(row);
            format!("{v:?}f32(0x{:08x})", v.to_bits())
        }
        DataType::Float64 => {
            let v = array.as_primitive::<Float64Type>().value(row);
            format!("{v:?}(0x{:016x})", v.to_bits())
        }
        DataType::Decimal128(_, scale) => format!("{}e-{scale}", array.as_primitive::<Decimal128Type>().value(row)),
        DataType::Utf8 => format!("{:?}", array.as_string::<i32>().value(row)),
        DataType::Binary => format!("0x{}", hex(array.as_binary::<i32>().value(row))),
        DataType::FixedSizeBinary(_) => format!("0x{}", hex(array.as_fixed_size_binary().value(row))),
        DataType::Date32 => format!("day {}", array.as_primitive::<Date32Type>().value(row)),
        DataType::Time32(TimeUnit::Second) => format!("{}s", array.as_primitive::<Time32SecondType>().value(row)),
        DataType::Time32(_) => format!("{}ms", array.as_primitive::<Time32MillisecondType>().value(row)),
        DataType::Time64(TimeUnit::Microsecond) => {
            format!("{}us", array.as_primitive::<Time64MicrosecondType>().value(row))
        }
        DataType::Time64(_) => format!("{}ns", array.as_primitive::<Time64NanosecondType>().value(row)),
        DataType::Timestamp(unit, _) => {
            let value = match unit {
                TimeUnit::Second => array.as_primitive::<TimestampSecondType>().value(row),
                TimeUnit::Millisecond => array.as_primitive::<TimestampMillisecondType>().value(row),
                TimeUnit::Microsecond => array.as_primitive::<TimestampMicrosecondType>().value(row),
                TimeUnit::Nanosecond => array.as_primitive::<TimestampNanosecondType>().value(row),
            };
            format!("{value} {unit:?}")
        }
        DataType::List(_) => {
            let list = array.as_list::<i32>().value(row);
            format!("[{}]", (0..list.len()).map(|i| render(list.as_ref(), i)).collect::<Vec<_>>().join(", "))
        }
        DataType::Map(_, _) => {
            let entries = array.as_map().value(row);
            let mut shown: Vec<String> = (0..entries.len())
                .map(|i| {
                    format!("{}: {}", render(entries.column(0).as_ref(), i), render(entries.column(1).as_ref(), i))
                })
                .collect();
            shown.sort();
            format!("{{{}}}", shown.join(", "))
        }
        DataType::Struct(fields) => {
            let row_array = array.as_struct();
            let shown: Vec<String> = fields
                .iter()
                .zip(row_array.columns())
                .map(|(f, c)| format!("{}={}", f.name(), render(c.as_ref(), row)))
                .collect();
            format!("({})", shown.join(", "))
        }
        other => format!("<{other} not compared>"),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
