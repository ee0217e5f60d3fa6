//! DATE, TIME and TIMESTAMP text as Flink's `java.time` formatters parse it: `ISO_LOCAL_DATE`
//! (strict), Flink's SQL time and timestamp formats (the default "smart" resolver: day 31 of a
//! short month is its last day, `24:00:00` is the next midnight), `ISO_LOCAL_DATE_TIME` (strict),
//! and the `Z`-suffixed forms of TIMESTAMP_LTZ.

/// A parsed local date-time: days since 1970-01-01 and nanoseconds of the day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DateTime {
    pub epoch_day: i64,
    pub nano_of_day: i64,
}

impl DateTime {
    pub(crate) fn epoch_millis(self) -> i64 {
        self.epoch_day * 86_400_000 + self.nano_of_day / 1_000_000
    }
    pub(crate) fn nano_of_milli(self) -> i32 {
        (self.nano_of_day % 1_000_000) as i32
    }
}

/// A local date-time as `LocalDateTime.of` takes its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LocalDateTime {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub second_of_day: i64,
    pub nano: i64,
}

impl LocalDateTime {
    /// `TimestampData.fromLocalDateTime`: epoch milliseconds (Java long arithmetic, which wraps)
    /// and nanoseconds of the millisecond.
    pub(crate) fn timestamp_data(self) -> (i64, i32) {
        let epoch_day = days_from_civil(self.year, self.month, self.day);
        let nano_of_day = self.second_of_day * 1_000_000_000 + self.nano;
        let millis = epoch_day.wrapping_mul(86_400_000).wrapping_add(nano_of_day / 1_000_000);
        (millis, (nano_of_day % 1_000_000) as i32)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Resolver {
    Strict,
    Smart,
}

struct Cursor<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn digits(&mut self, count: usize) -> Option<i64> {
        let value = fixed_digits(self.text, self.pos, count)?;
        self.pos += count;
        Some(value)
    }
    fn literal(&mut self, byte: u8) -> Option<()> {
        (self.text.get(self.pos) == Some(&byte)).then(|| self.pos += 1)
    }
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }
    fn done(&self) -> bool {
        self.pos == self.text.len()
    }
}

/// `ISO_LOCAL_DATE` as a strict parser: days since the epoch.
pub(crate) fn parse_date(text: &str) -> Option<i64> {
    parse_date_bytes(text.as_bytes())
}

/// [`parse_date`] of text as bytes (text that is not ASCII never parses).
pub(crate) fn parse_date_bytes(text: &[u8]) -> Option<i64> {
    if let Some(day) = fixed_date(text).filter(|_| text.len() == 10) {
        return Some(day);
    }
    let mut cursor = Cursor { text, pos: 0 };
    let day = date(&mut cursor, Resolver::Strict)?;
    cursor.done().then_some(day)
}

/// Flink's SQL time format `HH:mm:ss[.fffffffff]`: nanoseconds of the day.
pub(crate) fn parse_sql_time(text: &str) -> Option<i64> {
    parse_sql_time_bytes(text.as_bytes())
}

/// [`parse_sql_time`] of text as bytes.
pub(crate) fn parse_sql_time_bytes(text: &[u8]) -> Option<i64> {
    let mut cursor = Cursor { text, pos: 0 };
    let (nanos, _) = time(&mut cursor, true, Resolver::Smart)?;
    cursor.done().then_some(nanos)
}

/// A TIMESTAMP or TIMESTAMP_LTZ text in the SQL (`' '`) or ISO-8601 (`'T'`) form; `zulu` for
/// the TIMESTAMP_LTZ forms, which end in a literal `Z`.
pub(crate) fn parse_timestamp(text: &str, iso: bool, zulu: bool) -> Option<DateTime> {
    parse_timestamp_bytes(text.as_bytes(), iso, zulu)
}

/// [`parse_timestamp`] of text as bytes.
pub(crate) fn parse_timestamp_bytes(text: &[u8], iso: bool, zulu: bool) -> Option<DateTime> {
    fixed_timestamp(text, iso, zulu).or_else(|| general_timestamp(text, iso, zulu))
}

/// A string in the fixed layout of [`fixed_timestamp`] at the start of `rest` (the bytes after
/// its opening quote), read without looking for its end first: the timestamp and the bytes
/// taken through the closing quote. The layout has no quote or backslash, so the text is the
/// one a plain string read would give; `None` leaves any other text to [`parse_timestamp_bytes`].
#[inline]
pub(crate) fn fixed_quoted_timestamp(rest: &[u8], iso: bool, zulu: bool) -> Option<(DateTime, usize)> {
    let mut end = 19;
    if rest.get(end) == Some(&b'.') {
        end += 1;
        while rest.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
    }
    if zulu && rest.get(end) == Some(&b'Z') {
        end += 1;
    }
    if rest.get(end) != Some(&b'"') {
        return None;
    }
    Some((fixed_timestamp(&rest[..end], iso, zulu)?, end + 1))
}

/// [`parse_timestamp_bytes`] without the fixed-layout fast path: every form Flink's formatters read.
fn general_timestamp(text: &[u8], iso: bool, zulu: bool) -> Option<DateTime> {
    let mut cursor = Cursor { text, pos: 0 };
    // ISO_LOCAL_DATE_TIME is strict; Flink's composed formatters resolve smartly.
    let resolver = if iso && !zulu { Resolver::Strict } else { Resolver::Smart };
    let day = date(&mut cursor, resolver)?;
    cursor.literal(if iso { b'T' } else { b' ' })?;
    let (nanos, next_day) = time(&mut cursor, !iso, resolver)?;
    if zulu {
        cursor.literal(b'Z')?;
    }
    cursor.done().then_some(DateTime { epoch_day: day + i64::from(next_day), nano_of_day: nanos })
}

/// The value of the two ASCII digits at `at` (`at + 1 < text.len()`).
#[inline(always)]
fn two_digits(text: &[u8], at: usize) -> Option<i64> {
    let (tens, ones) = (text[at].wrapping_sub(b'0'), text[at + 1].wrapping_sub(b'0'));
    (tens < 10 && ones < 10).then(|| i64::from(tens * 10 + ones))
}

/// A `yyyy-MM-dd` prefix of `text` that every resolver reads alike (a four-digit year, a day
/// that its month has): its epoch day; `None` sends the text to the general parser.
#[inline(always)]
fn fixed_date(text: &[u8]) -> Option<i64> {
    if text.len() < 10 || text[4] != b'-' || text[7] != b'-' {
        return None;
    }
    let year = two_digits(text, 0)? * 100 + two_digits(text, 2)?;
    let (month, day) = (two_digits(text, 5)?, two_digits(text, 8)?);
    let valid = (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month);
    valid.then(|| days_from_civil(year, month, day))
}

/// Nanoseconds per unit of a fraction's last digit, by its digit count.
const FRACTION_SCALE: [i64; 10] = [0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];

/// The layout Flink writes, `yyyy-MM-dd?HH:mm:ss[.f{1,9}][Z]` with values that every resolver
/// reads alike (no 24:00, no day past its month's last), read without the general parser.
#[inline(always)]
fn fixed_timestamp(text: &[u8], iso: bool, zulu: bool) -> Option<DateTime> {
    let (epoch_day, second_of_day) = fixed_head(text.first_chunk::<19>()?, if iso { b'T' } else { b' ' })?;
    let mut rest = &text[19..];
    if zulu {
        rest = rest.strip_suffix(b"Z")?;
    }
    let mut nano = 0;
    if let Some((b'.', fraction)) = rest.split_first() {
        if fraction.is_empty() || fraction.len() > 9 {
            return None;
        }
        let mut digits = 0i64;
        for &byte in fraction {
            let digit = byte.wrapping_sub(b'0');
            if digit > 9 {
                return None;
            }
            digits = digits * 10 + i64::from(digit);
        }
        nano = digits * FRACTION_SCALE[fraction.len()];
    } else if !rest.is_empty() {
        return None;
    }
    Some(DateTime { epoch_day, nano_of_day: second_of_day * 1_000_000_000 + nano })
}

/// ASCII `0` in every byte.
const ZEROS: u64 = 0x3030_3030_3030_3030;

/// The bytes of `word` that `digits` selects (0xFF each) as digit values, the others zero;
/// `None` when one of them is not an ASCII digit.
#[inline(always)]
fn digit_values(word: u64, digits: u64) -> Option<u64> {
    let values = (word ^ ZEROS) & digits;
    // A digit leaves a nibble, and adding 6 to it carries into bit 4 from 10 on.
    let nibbles = values & 0xF0F0_F0F0_F0F0_F0F0 == 0;
    let below_ten = (values.wrapping_add(0x0606_0606_0606_0606 & digits)) & 0x1010_1010_1010_1010 == 0;
    (nibbles && below_ten).then_some(values)
}

/// The number of the two digit values at bytes `at` and `at + 1` of `values`.
#[inline(always)]
fn pair(values: u64, at: u32) -> i64 {
    (((values >> (8 * at)) & 0xFF) * 10 + ((values >> (8 * at + 8)) & 0xFF)) as i64
}

/// `yyyy-MM-dd?HH:mm:ss` (`?` the `separator`) with values every resolver reads alike (no
/// 24:00, no day past its month's last): its epoch day and second of the day. Read a word at a
/// time: `yyyy-MM-`, `dd?` and `HH:mm:ss`.
#[inline(always)]
fn fixed_head(text: &[u8; 19], separator: u8) -> Option<(i64, i64)> {
    let word = |at: usize| u64::from_le_bytes(text[at..at + 8].try_into().expect("eight bytes"));
    let (date, day, time) = (word(0), word(8), word(11));
    let separators = date & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000
        && day & 0xFF_0000 == u64::from(separator) << 16
        && time & 0x0000_FF00_00FF_0000 == 0x0000_3A00_003A_0000;
    if !separators {
        return None;
    }
    let date = digit_values(date, 0x00FF_FF00_FFFF_FFFF)?;
    let day = pair(digit_values(day, 0xFFFF)?, 0);
    let time = digit_values(time, 0xFFFF_00FF_FF00_FFFF)?;
    let (year, month) = (pair(date, 0) * 100 + pair(date, 2), pair(date, 5));
    let (hour, minute, second) = (pair(time, 0), pair(time, 3), pair(time, 6));
    let valid = (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month);
    if !valid || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    Some((four_digit_days_from_civil(year, month, day), (hour * 60 + minute) * 60 + second))
}

/// [`days_from_civil`] of a year in `0..=9999`, in unsigned arithmetic (its divisions by
/// constants are cheaper): the year counted 400 later, one era more, so it never goes below 0.
#[inline(always)]
fn four_digit_days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let (year, month, day) = (year as u64, month as u64, day as u64);
    let y = year + 400 - u64::from(month <= 2);
    let (era, yoe) = (y / 400, y % 400);
    let mp = if month > 2 { month - 3 } else { month + 9 };
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    (era * 146_097 + doe) as i64 - 719_468 - 146_097
}

fn date(cursor: &mut Cursor, resolver: Resolver) -> Option<i64> {
    let year = year(cursor)?;
    cursor.literal(b'-')?;
    let month = cursor.digits(2)?;
    cursor.literal(b'-')?;
    let mut day = cursor.digits(2)?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let last = days_in_month(year, month);
    if day > last {
        match resolver {
            Resolver::Strict => return None,
            Resolver::Smart => day = last,
        }
    }
    Some(days_from_civil(year, month, day))
}

/// `appendValue(YEAR, 4, 10, EXCEEDS_PAD)`: four digits, or a sign and up to ten.
fn year(cursor: &mut Cursor) -> Option<i64> {
    let sign = match cursor.peek()? {
        b'+' => Some(1),
        b'-' => Some(-1),
        _ => None,
    };
    if sign.is_some() {
        cursor.pos += 1;
    }
    let start = cursor.pos;
    while cursor.peek().is_some_and(|b| b.is_ascii_digit()) && cursor.pos - start < 10 {
        cursor.pos += 1;
    }
    let count = cursor.pos - start;
    // A '+' is only allowed when more than four digits follow; without a sign exactly four.
    let valid = match sign {
        None => count == 4,
        Some(1) => count > 4,
        _ => count >= 4,
    };
    if !valid {
        return None;
    }
    let digits = std::str::from_utf8(&cursor.text[start..cursor.pos]).ok()?.parse::<i64>().ok()?;
    let year = sign.unwrap_or(1) * digits;
    (-999_999_999..=999_999_999).contains(&year).then_some(year)
}

/// `HH:mm[:ss[.f]]` (seconds required when `seconds`): nanoseconds of day, and whether it was
/// `24:00` resolved to the next day.
fn time(cursor: &mut Cursor, seconds: bool, resolver: Resolver) -> Option<(i64, bool)> {
    let hour = cursor.digits(2)?;
    cursor.literal(b':')?;
    let minute = cursor.digits(2)?;
    let mut second = 0;
    let mut nano = 0;
    let has_seconds = if seconds {
        cursor.literal(b':')?;
        true
    } else {
        cursor.literal(b':').is_some()
    };
    if has_seconds {
        second = cursor.digits(2)?;
        if cursor.peek() == Some(b'.') {
            cursor.pos += 1;
            let start = cursor.pos;
            while cursor.peek().is_some_and(|b| b.is_ascii_digit()) && cursor.pos - start < 9 {
                cursor.pos += 1;
            }
            let digits = &cursor.text[start..cursor.pos];
            nano =
                digits.iter().fold(0i64, |acc, &d| acc * 10 + i64::from(d - b'0')) * 10i64.pow(9 - digits.len() as u32);
        }
    }
    if minute > 59 || second > 59 {
        return None;
    }
    if hour == 24 && resolver == Resolver::Smart && minute == 0 && second == 0 && nano == 0 {
        return Some((0, true));
    }
    if hour > 23 {
        return None;
    }
    Some((((hour * 60 + minute) * 60 + second) * 1_000_000_000 + nano, false))
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// The number spelled by exactly `count` ASCII digits at `text[at..]`.
pub(crate) fn fixed_digits(text: &[u8], at: usize, count: usize) -> Option<i64> {
    let slice = text.get(at..at + count)?;
    if !slice.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(slice.iter().fold(0, |acc, &d| acc * 10 + i64::from(d - b'0')))
}

pub(crate) fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
#[inline]
pub(crate) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_strict() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2024-02-29"), Some(19_782));
        assert_eq!(parse_date("2024-02-30"), None);
        assert_eq!(parse_date("+10000-01-01"), Some(2_932_897));
        assert_eq!(parse_date("10000-01-01"), None);
        assert_eq!(parse_date("+2024-01-01"), None);
        assert_eq!(parse_date("-0001-12-31"), Some(-719_529));
        assert_eq!(parse_date("2024-1-01"), None);
    }

    #[test]
    fn sql_timestamps_resolve_smartly() {
        let feb30 = parse_timestamp("2024-02-30 01:02:03.5", false, false).unwrap();
        assert_eq!(feb30.epoch_day, parse_date("2024-02-29").unwrap());
        assert_eq!(feb30.nano_of_day, 3_723_500_000_000);
        let midnight = parse_timestamp("2024-01-01 24:00:00", false, false).unwrap();
        assert_eq!((midnight.epoch_day, midnight.nano_of_day), (parse_date("2024-01-02").unwrap(), 0));
        assert!(parse_timestamp("2024-01-01 24:00:01", false, false).is_none());
        assert!(parse_timestamp("2024-01-01 01:02", false, false).is_none());
        assert!(parse_timestamp("2024-01-01 01:02:03.1234567891", false, false).is_none());
    }

    #[test]
    fn iso_timestamps_and_zulu() {
        assert!(parse_timestamp("2024-01-01T01:02", true, false).is_some());
        assert!(parse_timestamp("2024-02-30T01:02:03", true, false).is_none());
        assert!(parse_timestamp("2024-01-01T01:02:03Z", true, true).is_some());
        assert!(parse_timestamp("2024-01-01T01:02:03", true, true).is_none());
        assert!(parse_timestamp("2024-01-01 01:02:03Z", false, true).is_some());
    }

    #[test]
    fn the_fixed_layout_reads_as_the_general_parser_does() {
        let general = |text: &str, iso: bool, zulu: bool| general_timestamp(text.as_bytes(), iso, zulu);
        let mut seed = 3u64;
        let mut digit = |range: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % range
        };
        for _ in 0..20_000 {
            let fraction = match digit(4) {
                0 => String::new(),
                1 => ".".to_string(),
                _ => format!(".{}", "123456789012".get(..digit(12) as usize).unwrap_or("")),
            };
            let text = format!(
                "{:04}-{:02}-{:02}{}{:02}:{:02}:{:02}{fraction}{}",
                [1970, 2000, 2024, 2023, 1900, 0, 9999][digit(7) as usize],
                digit(14),
                digit(33),
                [" ", "T"][digit(2) as usize],
                digit(26),
                digit(61),
                digit(61),
                ["", "Z"][digit(2) as usize]
            );
            for (iso, zulu) in [(false, false), (true, false), (false, true), (true, true)] {
                if let Some(fixed) = fixed_timestamp(text.as_bytes(), iso, zulu) {
                    assert_eq!(Some(fixed), general(&text, iso, zulu), "{text} {iso} {zulu}");
                }
                assert_eq!(parse_timestamp(&text, iso, zulu), general(&text, iso, zulu), "{text}");
            }
            let day = &text[..10];
            let mut cursor = Cursor { text: day.as_bytes(), pos: 0 };
            let strict = date(&mut cursor, Resolver::Strict).filter(|_| cursor.done());
            assert_eq!(parse_date(day), strict, "{day}");
        }
    }

    #[test]
    fn each_byte_of_the_fixed_layout_changed_reads_as_the_general_parser_does() {
        for text in ["2023-11-14 22:13:20.123", "0000-02-29T23:59:59Z", "9999-12-31 00:00:00.5Z"] {
            for at in 0..text.len() {
                for byte in 0..=255u8 {
                    let mut bytes = text.as_bytes().to_vec();
                    bytes[at] = byte;
                    for (iso, zulu) in [(false, false), (true, false), (false, true), (true, true)] {
                        let parsed = parse_timestamp_bytes(&bytes, iso, zulu);
                        assert_eq!(parsed, general_timestamp(&bytes, iso, zulu), "{bytes:?} {iso} {zulu}");
                        // As a JSON string: the text a plain string read gives ends at a quote
                        // or backslash.
                        let quoted = [&bytes[..], b"\","].concat();
                        let plain = quoted.iter().position(|&b| b == b'"' || b == b'\\').expect("a quote");
                        if let Some((fixed, taken)) = fixed_quoted_timestamp(&quoted, iso, zulu) {
                            assert_eq!(
                                (Some(fixed), taken),
                                (parse_timestamp_bytes(&quoted[..plain], iso, zulu), plain + 1)
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn four_digit_years_count_days_as_the_general_formula() {
        for year in 0..=9999 {
            for month in 1..=12 {
                for day in [1, 28, days_in_month(year, month)] {
                    assert_eq!(four_digit_days_from_civil(year, month, day), days_from_civil(year, month, day));
                }
            }
        }
    }

    #[test]
    fn times() {
        assert_eq!(parse_sql_time("01:02:03.004"), Some(3_723_004_000_000));
        assert_eq!(parse_sql_time("1:02:03"), None);
    }
}
