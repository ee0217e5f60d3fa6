//! DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ as Flink's JSON format writes them (quoted).
use crate::options::{FlinkVersion, TimestampFormat};

/// `"yyyy-MM-dd"` from days since 1970-01-01 (Java ISO years: `-0001`, `+10000`).
pub fn write_date_json(out: &mut Vec<u8>, epoch_day: i64) {
    let _ = (out, epoch_day);
    todo!("temporal")
}

/// `"HH:mm:ss[.fff]"` from milliseconds of the day; the fraction only from Flink 2.3 on.
pub fn write_time_json(out: &mut Vec<u8>, millis_of_day: i32, version: FlinkVersion) {
    let _ = (out, millis_of_day, version);
    todo!("temporal")
}

/// A timestamp from epoch milliseconds plus nanoseconds within the millisecond (Flink's
/// `TimestampData`); `ltz` adds the `Z` suffix.
pub fn write_timestamp_json(out: &mut Vec<u8>, epoch_millis: i64, nano_of_milli: u32, format: TimestampFormat, ltz: bool) {
    let _ = (out, epoch_millis, nano_of_milli, format, ltz);
    todo!("temporal")
}
