//! The fallback of Flink's `DateTimeUtils.parseTimestampData(text, pattern)`: the trimmed text
//! read by `java.sql.Timestamp.valueOf` when it has a space, else by `java.sql.Date.valueOf`
//! (midnight), null when they refuse it. Both build a `java.util.Date` leniently (hour 25 is the
//! next day's first) in the Julian calendar before 15 October 1582, and the `LocalDateTime` of its
//! fields throws on a Julian 29 February that the Gregorian calendar lacks, which fails the
//! message. kjson reads the fields as a JVM in a zone without offset changes does (UTC, say),
//! and only ASCII digits, where `Integer.parseInt` also takes other Unicode digits.
use super::temporal::{days_from_civil, days_in_month, LocalDateTime};
use super::value::Value;

/// The fallback's value: null when `java.sql` refuses the text, `Err` when the fields it made
/// are no date.
pub(crate) fn parse(text: &str) -> Result<Value, String> {
    // `String.trim`: every char up to U+0020 at both ends.
    let text = text.trim_matches(|c: char| c <= ' ');
    let fields = match text.contains(' ') {
        true => timestamp_value_of(text),
        false => date_value_of(text).map(|date| (date, 0, 0)),
    };
    let Some(((year, month, day), second_of_day, nano)) = fields else {
        return Ok(Value::Null);
    };
    let (epoch_day, second_of_day) = lenient_instant(year, month, day, second_of_day);
    let (year, month, day) = hybrid_fields(epoch_day);
    if day > days_in_month(year, month) {
        return Err(format!("java.time.DateTimeException: Invalid date 'February 29' as '{year}' is not a leap year"));
    }
    let (millis, nano_of_milli) = LocalDateTime { year, month, day, second_of_day, nano }.timestamp_data();
    Ok(Value::Timestamp { millis, nano_of_milli })
}

/// `Integer.parseInt(text, 10)`: an optional sign and digits, within an int.
fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = text.parse::<i64>().ok()?;
    i32::try_from(value).ok().map(i64::from)
}

type Date = (i64, i64, i64);

/// The date part both parsers check alike: `yyyy-m[m]-d[d]` (the year four chars, each part
/// `Integer.parseInt`), month 1..=12 and day 1..=31.
fn date_part(text: &str, first_dash: usize, second_dash: usize) -> Option<Date> {
    let month_len = second_dash - first_dash - 1;
    let day_len = text.len() - second_dash - 1;
    if first_dash != 4 || !(1..=2).contains(&month_len) || !(1..=2).contains(&day_len) {
        return None;
    }
    let year = parse_int(&text[..first_dash])?;
    let month = parse_int(&text[first_dash + 1..second_dash])?;
    let day = parse_int(&text[second_dash + 1..])?;
    ((1..=12).contains(&month) && (1..=31).contains(&day)).then_some((year, month, day))
}

/// The byte index of `byte` in `text` at or after `from`.
fn index_of(text: &str, byte: u8, from: usize) -> Option<usize> {
    text.as_bytes().get(from..)?.iter().position(|&b| b == byte).map(|at| at + from)
}

/// `java.sql.Date.valueOf`.
fn date_value_of(text: &str) -> Option<Date> {
    let first_dash = index_of(text, b'-', 0).filter(|&at| at > 0)?;
    let second_dash = index_of(text, b'-', first_dash + 1)?;
    if second_dash + 1 >= text.len() {
        return None;
    }
    date_part(text, first_dash, second_dash)
}

/// `java.sql.Timestamp.valueOf`: the date, the seconds of the day (each part unbounded, since
/// the date is lenient) and the nanoseconds (`.` and one to nine digits).
fn timestamp_value_of(text: &str) -> Option<(Date, i64, i64)> {
    let space = index_of(text, b' ', 0)?;
    let first_dash = index_of(text, b'-', 0).filter(|&at| at > 0)?;
    let second_dash = index_of(text, b'-', first_dash + 1).filter(|&at| at + 1 < space)?;
    let date = date_part(&text[..space], first_dash, second_dash)?;
    let first_colon = index_of(text, b':', space + 1)?;
    let second_colon = index_of(text, b':', first_colon + 1).filter(|&at| at + 1 < text.len())?;
    let hour = parse_int(&text[space + 1..first_colon])?;
    let minute = parse_int(&text[first_colon + 1..second_colon])?;
    let (second, nano) = match index_of(text, b'.', second_colon + 1) {
        Some(period) if period + 1 < text.len() => {
            let fraction = &text[period + 1..];
            if fraction.len() > 9 || !fraction.as_bytes()[0].is_ascii_digit() {
                return None;
            }
            let nano = parse_int(fraction)? * 10i64.pow(9 - fraction.len() as u32);
            (parse_int(&text[second_colon + 1..period])?, nano)
        }
        Some(_) => return None,
        None => (parse_int(&text[second_colon + 1..])?, 0),
    };
    Some((date, (hour * 60 + minute) * 60 + second, nano))
}

/// Days since 1970-01-01 of 15 October 1582, the first Gregorian day of `java.util.Date`.
const CUTOVER: i64 = -141_427;

/// `new Date(year - 1900, month - 1, day, h, m, s)`: the epoch day and the second of that day,
/// computed in the calendar of the year (Gregorian from 1582), then again in the other one if
/// the instant falls on its side of the cutover.
fn lenient_instant(year: i64, month: i64, day: i64, seconds: i64) -> (i64, i64) {
    let at = |gregorian: bool| {
        let first = if gregorian { days_from_civil(year, month, 1) } else { julian_days(year, month, 1) };
        let total = (first + day - 1) * 86_400 + seconds;
        (total.div_euclid(86_400), total.rem_euclid(86_400))
    };
    let gregorian = year >= 1582;
    let (epoch_day, second) = at(gregorian);
    match (epoch_day >= CUTOVER) == gregorian {
        true => (epoch_day, second),
        false => at(!gregorian),
    }
}

/// `Date.getYear() + 1900`, `getMonth() + 1`, `getDate()`: Gregorian from the cutover, Julian
/// before it, a year before 1 AD as its year of era (year 0 is 1 BC: 1).
fn hybrid_fields(epoch_day: i64) -> Date {
    let (year, month, day) =
        if epoch_day >= CUTOVER { civil_from_days(epoch_day) } else { julian_from_days(epoch_day) };
    (if year <= 0 { 1 - year } else { year }, month, day)
}

/// Days since 1970-01-01 of a Julian date (astronomical years).
fn julian_days(year: i64, month: i64, day: i64) -> i64 {
    let a = (14 - month) / 12;
    let y = year + 4800 - a;
    let m = month + 12 * a - 3;
    let julian_day_number = day + (153 * m + 2) / 5 + 365 * y + y.div_euclid(4) - 32_083;
    julian_day_number - 2_440_588
}

fn julian_from_days(epoch_day: i64) -> Date {
    let c = epoch_day + 2_440_588 + 32_082;
    let d = (4 * c + 3).div_euclid(1461);
    let e = c - (1461 * d).div_euclid(4);
    let m = (5 * e + 2) / 153;
    let day = e - (153 * m + 2) / 5 + 1;
    let month = m + 3 - 12 * (m / 10);
    (d - 4800 + m / 10, month, day)
}

/// The proleptic Gregorian date of an epoch day.
fn civil_from_days(epoch_day: i64) -> Date {
    let z = epoch_day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values from Flink 2.2.1's `DateTimeUtils.parseTimestampData(text, pattern)`
    /// with ogg's pattern, on JDK 17 in UTC: (epoch millis, nanos of the milli), `None` for null.
    #[test]
    fn java_sql_reads_what_flink_falls_back_to() {
        let cases: &[(&str, Option<(i64, i32)>)] = &[
            ("2020-05-13 15:40:06.123456", Some((1589384406123, 456000))),
            ("2020-05-13 15:40:06.123456789", Some((1589384406123, 456789))),
            ("2020-05-13 15:40:6", Some((1589384406000, 0))),
            ("2020-5-3 5:4:6.1", Some((1588482246100, 0))),
            ("2020-05-13", Some((1589328000000, 0))),
            ("2020-5-3", Some((1588464000000, 0))),
            ("  2020-05-13 15:40:06.5  ", Some((1589384406500, 0))),
            ("2020-02-31 10:00:00", Some((1583143200000, 0))),
            ("2020-02-31", Some((1583107200000, 0))),
            ("2021-02-29", Some((1614556800000, 0))),
            ("2020-05-13 24:00:00", Some((1589414400000, 0))),
            ("2020-05-13 25:61:61", Some((1589421721000, 0))),
            ("2020-05-13 +1:40:06", Some((1589334006000, 0))),
            ("2020-05-13 -1:40:06", Some((1589326806000, 0))),
            ("2020-05-13 12:30:+5", Some((1589373005000, 0))),
            ("2020-+5-13 12:30:05", Some((1589373005000, 0))),
            ("+202-05-13 12:30:05", Some((-55781263795000, 0))),
            ("2020-05-13 12:30:60", Some((1589373060000, 0))),
            ("2020-05-13 23:59:59.999999999", Some((1589414399999, 999999))),
            ("0000-01-01 00:00:00", Some((-62135596800000, 0))),
            ("0000-01-01", Some((-62135596800000, 0))),
            ("1582-10-10 00:00:00", Some((-12218860800000, 0))),
            ("1582-10-14 00:00:00", Some((-12218515200000, 0))),
            ("1582-10-04 23:00:00", Some((-12220160400000, 0))),
            ("1582-10-15 00:00:00", Some((-12219292800000, 0))),
            ("1500-02-30 00:00:00", Some((-14826672000000, 0))),
            ("2020-13-01 00:00:00", None),
            ("2020-011-01", None),
            ("2020-05-13 15:40:06.", None),
            ("2020-05-13 15:40:06.1234567890", None),
            ("2020-05-13 12:30:05.-1", None),
            ("2020-05-13 12:30:05.123456a", None),
            ("-001-01-01 00:00:00", None),
            ("12020-05-13 15:40:06", None),
            ("2020-05-13 15:40", None),
            ("2020-05-13\t\t12:30:05", None),
            ("x", None),
        ];
        for (text, expected) in cases {
            let got = match parse(text) {
                Ok(Value::Timestamp { millis, nano_of_milli }) => Some((millis, nano_of_milli)),
                Ok(Value::Null) => None,
                other => panic!("{text}: {other:?}"),
            };
            assert_eq!(got, *expected, "{text}");
        }
    }

    #[test]
    fn a_julian_leap_day_the_gregorian_calendar_lacks_fails() {
        assert!(parse("1500-02-29 00:00:00").is_err());
    }
}
