//! The serde contenders on q0: Rust structs with `#[derive(Serialize)]`, built from the Arrow
//! batches before timing (the timestamp already as text), serialized as JSON lines into one
//! `Vec` per batch by serde_json and by sonic-rs. What a hand-written Rust service would do.
use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, TimestampMillisecondType};
use arrow_array::{Array, RecordBatch};
use serde::Serialize;

/// One q0 sink row (schemas/q0.sql), with Flink's field names.
#[derive(Debug, Clone, Serialize)]
pub struct Q0Row {
    auction: Option<i64>,
    bidder: Option<i64>,
    price: Option<i64>,
    #[serde(rename = "dateTime")]
    date_time: Option<String>,
    extra: Option<String>,
}

/// The q0 rows of one batch (columns in DDL order).
pub fn q0_rows(batch: &RecordBatch) -> Result<Vec<Q0Row>, String> {
    if batch.num_columns() != 5 {
        return Err(format!("q0 batch has {} columns, expected 5", batch.num_columns()));
    }
    let long = |index: usize| batch.column(index).as_primitive_opt::<Int64Type>();
    let (Some(auction), Some(bidder), Some(price)) = (long(0), long(1), long(2)) else {
        return Err("q0 batch: auction, bidder and price must be Int64".to_string());
    };
    let Some(date_time) = batch.column(3).as_primitive_opt::<TimestampMillisecondType>() else {
        return Err("q0 batch: dateTime must be Timestamp(Millisecond)".to_string());
    };
    let Some(extra) = batch.column(4).as_string_opt::<i32>() else {
        return Err("q0 batch: extra must be Utf8".to_string());
    };
    let get = |array: &dyn Array, row: usize| array.is_valid(row).then_some(row);
    Ok((0..batch.num_rows())
        .map(|row| Q0Row {
            auction: get(auction, row).map(|r| auction.value(r)),
            bidder: get(bidder, row).map(|r| bidder.value(r)),
            price: get(price, row).map(|r| price.value(r)),
            date_time: get(date_time, row).map(|r| sql_timestamp_millis(date_time.value(r))),
            extra: get(extra, row).map(|r| extra.value(r).to_string()),
        })
        .collect())
}

/// `yyyy-MM-dd HH:mm:ss.SSS` of milliseconds since the epoch (UTC, proleptic Gregorian).
fn sql_timestamp_millis(millis: i64) -> String {
    let (days, millis_of_day) = (millis.div_euclid(86_400_000), millis.rem_euclid(86_400_000));
    let (year, month, day) = civil_from_days(days);
    let seconds = millis_of_day / 1000;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}.{:03}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60,
        millis_of_day % 1000
    )
}

/// Year, month and day of a day count since 1970-01-01, by 400-year eras of 146097 days.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let shifted = days + 719_468; // days since 0000-03-01
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// serde_json: each row then a newline into `out`; returns the bytes written.
pub fn serde_json_lines(rows: &[Q0Row], out: &mut Vec<u8>) -> Result<u64, String> {
    out.clear();
    for row in rows {
        serde_json::to_writer(&mut *out, row).map_err(|e| format!("serde_json: {e}"))?;
        out.push(b'\n');
    }
    Ok(out.len() as u64)
}

/// sonic-rs: each row then a newline into `out`; returns the bytes written.
pub fn sonic_lines(rows: &[Q0Row], out: &mut Vec<u8>) -> Result<u64, String> {
    out.clear();
    for row in rows {
        sonic_rs::to_writer(&mut *out, row).map_err(|e| format!("sonic-rs: {e}"))?;
        out.push(b'\n');
    }
    Ok(out.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sql_timestamps_match_known_dates() {
        assert_eq!(sql_timestamp_millis(0), "1970-01-01 00:00:00.000");
        assert_eq!(sql_timestamp_millis(951_782_400_123), "2000-02-29 00:00:00.123");
        assert_eq!(sql_timestamp_millis(1_764_586_245_678), "2025-12-01 10:50:45.678");
        assert_eq!(sql_timestamp_millis(-1), "1969-12-31 23:59:59.999");
    }

    #[test]
    fn both_serializers_write_the_same_lines() {
        let rows = vec![Q0Row {
            auction: Some(1),
            bidder: None,
            price: Some(-5),
            date_time: Some(sql_timestamp_millis(0)),
            extra: Some("a\"b".to_string()),
        }];
        let (mut a, mut b) = (Vec::new(), Vec::new());
        serde_json_lines(&rows, &mut a).unwrap();
        sonic_lines(&rows, &mut b).unwrap();
        let expected = "{\"auction\":1,\"bidder\":null,\"price\":-5,\"dateTime\":\"1970-01-01 00:00:00.000\",\"extra\":\"a\\\"b\"}\n";
        assert_eq!(String::from_utf8(a).unwrap(), expected);
        assert_eq!(String::from_utf8(b).unwrap(), expected);
    }
}
