//! Text as Flink's `DateTimeUtils.parseTimestampData` reads it (the same on 1.20 and 2.2), for
//! ogg-json's two timestamps: `parseTimestampData(text)` (Flink's default timestamp formatter,
//! which throws on text it cannot read) and `parseTimestampData(text, pattern)` with ogg's
//! `yyyy-MM-dd'T'HH:mm:ss.SSSSSS` (text the pattern cannot read goes to `java.sql`'s parsers, and
//! what they refuse is null). Both formatters parse strictly and resolve "smartly" (day 31 of a
//! short month is its last day, `24:00:00` the next midnight); their result keeps milliseconds.
use super::sql_timestamp;
use super::temporal::{days_in_month, fixed_digits, LocalDateTime as Local};
use super::value::Value;

/// ogg's `current_ts` pattern, `yyyy-MM-dd'T'HH:mm:ss.SSSSSS`.
pub(crate) fn parse_with_ogg_pattern(text: &str) -> Result<Value, String> {
    match ogg_pattern(text.as_bytes()) {
        Some(local) => Ok(timestamp_value(local)),
        None => sql_timestamp::parse(text),
    }
}

/// Flink's default formatter: `yyyy-[MM][M]-[dd][d]`, then optionally
/// ` [HH][H]:[mm][m]:[ss][s]` and a fraction of up to nine digits after a `.`.
pub(crate) fn parse_default(text: &str) -> Result<Value, String> {
    default_format(text.as_bytes())
        .map(timestamp_value)
        .ok_or_else(|| format!("java.time.format.DateTimeParseException: Text '{text}' could not be parsed"))
}

/// `TimestampData.fromLocalDateTime` as a value.
fn timestamp_value(local: Local) -> Value {
    let (millis, nano_of_milli) = local.timestamp_data();
    Value::Timestamp { millis, nano_of_milli }
}

struct Cursor<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }
    fn literal(&mut self, byte: u8) -> Option<()> {
        (self.peek() == Some(byte)).then(|| self.pos += 1)
    }
    /// Up to `max` ASCII digits (at least one): their value, saturated past any valid field.
    fn digits(&mut self, max: usize) -> Option<(i64, usize)> {
        let start = self.pos;
        let mut value: i64 = 0;
        while self.pos - start < max && self.peek().is_some_and(|b| b.is_ascii_digit()) {
            value = value.saturating_mul(10).saturating_add(i64::from(self.text[self.pos] - b'0'));
            self.pos += 1;
        }
        (self.pos > start).then_some((value, self.pos - start))
    }
    /// Exactly `count` ASCII digits (`MM`, `SSSSSS`).
    fn fixed(&mut self, count: usize) -> Option<i64> {
        let value = fixed_digits(self.text, self.pos, count)?;
        self.pos += count;
        Some(value)
    }
    fn done(&self) -> bool {
        self.pos == self.text.len()
    }
}

/// `yyyy` (`YEAR_OF_ERA`, 4 to 19 digits, `EXCEEDS_PAD`, strict): four digits, or `+` and more;
/// a year of era outside 1..=999,999,999 does not resolve.
fn year_of_era(cursor: &mut Cursor) -> Option<i64> {
    let plus = cursor.literal(b'+').is_some();
    let (year, count) = cursor.digits(19)?;
    let signed_right = if plus { count > 4 } else { count == 4 };
    (signed_right && (1..=999_999_999).contains(&year)).then_some(year)
}

/// `[XX][X]`: an optional two-digit value, then an optional value of any width (`SignStyle.NORMAL`).
/// A second value that differs from the first, or `-0`, fails its optional section, which gives
/// the text back; `Err` for a negative value alone, which never resolves.
fn one_or_two(cursor: &mut Cursor) -> Result<Option<i64>, ()> {
    let two = cursor.fixed(2);
    let start = cursor.pos;
    let negative = cursor.literal(b'-').is_some();
    let any = match cursor.digits(19) {
        Some((value, _)) if negative && value != 0 && two.is_none() => return Err(()),
        Some((value, _)) if !negative && two.is_none_or(|two| two == value) => Some(value),
        _ => {
            cursor.pos = start;
            None
        }
    };
    Ok(two.or(any))
}

/// The fields the default formatter parsed, before they resolve.
#[derive(Default)]
struct Parsed {
    month: Option<i64>,
    day: Option<i64>,
    hour: Option<i64>,
    minute: Option<i64>,
    second: Option<i64>,
    nano: Option<i64>,
}

fn default_format(text: &[u8]) -> Option<Local> {
    let mut cursor = Cursor { text, pos: 0 };
    let year = year_of_era(&mut cursor)?;
    let mut parsed = Parsed::default();
    cursor.literal(b'-')?;
    parsed.month = one_or_two(&mut cursor).ok()?;
    cursor.literal(b'-')?;
    parsed.day = one_or_two(&mut cursor).ok()?;
    if !cursor.done() {
        // The optional time section: what it cannot read is left unparsed, which fails.
        cursor.literal(b' ')?;
        parsed.hour = one_or_two(&mut cursor).ok()?;
        cursor.literal(b':')?;
        parsed.minute = one_or_two(&mut cursor).ok()?;
        cursor.literal(b':')?;
        parsed.second = one_or_two(&mut cursor).ok()?;
        if cursor.literal(b'.').is_some() {
            parsed.nano = Some(fraction(&mut cursor, 9));
        }
    }
    if !cursor.done() {
        return None;
    }
    resolve(year, &parsed)
}

/// `appendFraction(NANO_OF_SECOND, 0, max, true)` after its `.`: no digits is zero.
fn fraction(cursor: &mut Cursor, max: usize) -> i64 {
    match cursor.digits(max) {
        Some((value, count)) => value * 10i64.pow(9 - count as u32),
        None => 0,
    }
}

/// The smart resolver, then `DateTimeUtils.fromTemporalAccessor`: a field that did not resolve
/// is read if present (in its range) and defaults otherwise; nanoseconds keep milliseconds.
fn resolve(year: i64, p: &Parsed) -> Option<Local> {
    let in_range = |value: Option<i64>, low: i64, high: i64| value.is_none_or(|v| (low..=high).contains(&v));
    if !in_range(p.month, 1, 12) || !in_range(p.day, 1, 31) || !in_range(p.nano, 0, 999_999_999) {
        return None;
    }
    let (month, mut day) = (p.month.unwrap_or(1), p.day.unwrap_or(1));
    if p.month.is_some() && p.day.is_some() {
        day = day.min(days_in_month(year, month));
    }
    let (minute, second, nano) = (p.minute.unwrap_or(0), p.second.unwrap_or(0), p.nano.unwrap_or(0));
    // The hour resolves with the rest unless a field between is missing and a later one is not.
    let resolves = p.hour.is_some()
        && !(p.minute.is_none() && (p.second.is_some() || p.nano.is_some()))
        && !(p.minute.is_some() && p.second.is_none() && p.nano.is_some());
    let hour = p.hour.unwrap_or(0);
    let next_midnight = resolves && hour == 24 && minute == 0 && second == 0 && nano == 0;
    if !next_midnight && (hour > 23 || minute > 59 || second > 59) {
        return None;
    }
    let local = Local { year, month, day, second_of_day: (hour * 60 + minute) * 60 + second, nano: millis_only(nano) };
    match next_midnight {
        // The day after resolves only with a whole date.
        true if p.month.is_some() && p.day.is_some() => Some(day_after(local)),
        true => Some(Local { second_of_day: 0, ..local }),
        false => Some(local),
    }
}

fn millis_only(nano: i64) -> i64 {
    nano - nano % 1_000_000
}

fn day_after(local: Local) -> Local {
    let Local { year, month, day, .. } = local;
    let (year, month, day) = match (day < days_in_month(year, month), month) {
        (true, _) => (year, month, day + 1),
        (false, 12) => (year + 1, 1, 1),
        (false, _) => (year, month + 1, 1),
    };
    Local { year, month, day, second_of_day: 0, nano: 0 }
}

/// `DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS")`, strict, smart resolver.
fn ogg_pattern(text: &[u8]) -> Option<Local> {
    let mut cursor = Cursor { text, pos: 0 };
    let year = year_of_era(&mut cursor)?;
    let field = |before: u8, cursor: &mut Cursor| cursor.literal(before).and_then(|()| cursor.fixed(2));
    let month = field(b'-', &mut cursor)?;
    let day = field(b'-', &mut cursor)?;
    let hour = field(b'T', &mut cursor)?;
    let minute = field(b':', &mut cursor)?;
    let second = field(b':', &mut cursor)?;
    cursor.literal(b'.')?;
    let nano = cursor.fixed(6)? * 1000;
    if !cursor.done() {
        return None;
    }
    let parsed = Parsed {
        month: Some(month),
        day: Some(day),
        hour: Some(hour),
        minute: Some(minute),
        second: Some(second),
        nano: Some(nano),
    };
    resolve(year, &parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values from Flink 2.2.1's and 1.20.3's `DateTimeUtils` (epoch millis, nanos of
    /// the milli), run on the text in the first column.
    fn millis(text: &str, parse: fn(&str) -> Result<Value, String>) -> Option<(i64, i32)> {
        match parse(text) {
            Ok(Value::Timestamp { millis, nano_of_milli }) => Some((millis, nano_of_milli)),
            Ok(Value::Null) => Some((i64::MIN, 0)),
            _ => None,
        }
    }

    #[test]
    fn the_default_formatter_reads_what_flink_reads() {
        let cases: &[(&str, Option<(i64, i32)>)] = &[
            ("2020-05-13 15:40:06.123456", Some((1589384406123, 0))),
            ("2020-05-13 15:40:6", Some((1589384406000, 0))),
            ("2020-5-3 5:4:6.1", Some((1588482246100, 0))),
            ("2020-05-13", Some((1589328000000, 0))),
            ("2020-02-31 10:00:00", Some((1582970400000, 0))),
            ("2021-02-29", Some((1614470400000, 0))),
            ("2020-05-13 24:00:00.000", Some((1589414400000, 0))),
            ("2020-011-01", Some((1577836800000, 0))),
            ("2020-05-13 15:40:06.", Some((1589384406000, 0))),
            ("2020--", Some((1577836800000, 0))),
            ("2020-05-", Some((1588291200000, 0))),
            ("2020-05-13 :30:00", Some((1589329800000, 0))),
            ("2020-05-13 1::", Some((1589331600000, 0))),
            ("+12020-05-13 15:40:06", Some((317158904406000, 0))),
            ("+999999999-12-31", Some((-5336598314724703232, 0))),
            ("1969-12-31 23:59:59.999", Some((-1, 0))),
            ("1500-02-30 00:00:00", Some((-14826758400000, 0))),
            ("2020-05-13T15:40:06.123456", None),
            ("2020-05-13 25:61:61", None),
            ("2020-13-01 00:00:00", None),
            ("2020-5-013", None),
            ("2020-05-13 15:40:06.1234567890", None),
            ("+2020-05-13 15:40:06", None),
            ("0000-01-01 00:00:00", None),
            ("12020-05-13 15:40:06", None),
            ("  2020-05-13 15:40:06.5  ", None),
            ("2020-05-13 15:40", None),
            ("2020-05-13 12:30:60", None),
            ("2020-00-10", None),
            ("-2020-05-13", None),
            ("+1000000000-01-01", None),
            ("x", None),
        ];
        for (text, expected) in cases {
            assert_eq!(millis(text, parse_default), *expected, "{text}");
        }
    }

    #[test]
    fn the_ogg_pattern_reads_what_flink_reads_and_falls_back_to_java_sql() {
        const NULL: Option<(i64, i32)> = Some((i64::MIN, 0));
        let cases: &[(&str, Option<(i64, i32)>)] = &[
            ("2020-05-13T15:40:06.123456", Some((1589384406123, 0))),
            ("2020-02-31T10:00:00.000000", Some((1582970400000, 0))),
            ("2020-05-13T24:00:00.000000", Some((1589414400000, 0))),
            ("2020-04-31T10:00:00.000000", Some((1588240800000, 0))),
            ("2020-05-13T15:40:06.123456789", NULL),
            ("2020-05-13T15:40:06.12345", NULL),
            ("2020-05-13T15:40:06", NULL),
            ("2020-05-13T24:00:00.000001", NULL),
            ("12020-05-13T15:40:06.000000", NULL),
            ("2020-05-13T15:40:06.123456Z", NULL),
            (" 2020-05-13T15:40:06.123456", NULL),
            ("x", NULL),
        ];
        for (text, expected) in cases {
            assert_eq!(millis(text, parse_with_ogg_pattern), *expected, "{text}");
        }
    }
}
