//! DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ as Flink's JSON format writes them (quoted).
//!
//! Flink formats through `java.time` (`ISO_LOCAL_DATE`, `HH:mm:ss` + a trimmed nano fraction), so
//! the calendar here is the proleptic Gregorian one and years print the ISO way: four digits for
//! 0000..9999, a `-` before negative years (`-0001`), a `+` before years past 9999 (`+10000`).
//! Fields become digits in the lanes of one word (several fields per multiply) and go out as
//! whole words, with trailing fraction zeros trimmed by a count of zero bits. DATE and TIMESTAMP
//! writers take a cache ([`DayCache`], [`SecondCache`]), kept per column for a batch, so
//! consecutive values on the same day or second skip the calendar arithmetic; a fresh cache
//! formats from scratch.
use super::sink::ByteSink;
use super::{digit_values, ASCII_ZEROS};
use crate::options::{FlinkVersion, TimestampFormat};

const MILLIS_PER_DAY: i64 = 86_400_000;
const NANOS_PER_MILLI: u32 = 1_000_000;
/// Days in a 400-year Gregorian cycle.
const DAYS_PER_ERA: i64 = 146_097;
/// Days from 0000-03-01 (the start of a cycle in the March-based year) to 1970-01-01.
const EPOCH_OFFSET_FROM_ERA_START: i64 = 719_468;

static DIGIT_PAIRS: [u8; 200] = build_digit_pairs();

const fn build_digit_pairs() -> [u8; 200] {
    let mut table = [0u8; 200];
    let mut n = 0;
    while n < 100 {
        table[2 * n] = b'0' + (n / 10) as u8;
        table[2 * n + 1] = b'0' + (n % 10) as u8;
        n += 1;
    }
    table
}

/// Writes `n` (< 100) as two digits at `dst[0..2]`.
#[inline(always)]
fn put_pair(dst: &mut [u8], n: u32) {
    let at = 2 * n as usize;
    dst[..2].copy_from_slice(&DIGIT_PAIRS[at..at + 2]);
}

/// Proleptic Gregorian `(year, month 1..=12, day 1..=31)` of a count of days since 1970-01-01.
///
/// Exact for every `i64` (no overflow); the year range of `java.time` (±999,999,999) is reached
/// at about ±3.65e11 days, beyond which Java would throw and this extrapolates.
pub fn civil_from_epoch_day(epoch_day: i64) -> (i64, u32, u32) {
    // Split into whole 400-year cycles first so that adding the offset can never overflow.
    let shifted = epoch_day.rem_euclid(DAYS_PER_ERA) + EPOCH_OFFSET_FROM_ERA_START;
    let era = epoch_day.div_euclid(DAYS_PER_ERA) + shifted / DAYS_PER_ERA;
    // 0..=146096, counted from a March 1st.
    let day_of_era = (shifted % DAYS_PER_ERA) as u32;
    // Years of the cycle, correcting for the leap days of every 4th, 100th and 400th year.
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    // Months counted from March (0) so that February, with the leap day, comes last.
    let march_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * march_month + 2) / 5 + 1;
    let month = if march_month < 10 { march_month + 3 } else { march_month - 9 };
    let year = i64::from(year_of_era) + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Days from 1970-01-01 back to 0000-01-01 and on to 9999-12-31: the days whose year prints as
/// four plain digits, which [`civil_of_four_digit_year`] covers.
const FOUR_DIGIT_YEARS: std::ops::RangeInclusive<i64> = -719_528..=2_932_896;

/// [`civil_from_epoch_day`] for a day of [`FOUR_DIGIT_YEARS`], in `u32` arithmetic only: every
/// division is by a constant (a multiply and a shift), with no sign fixups.
#[inline]
fn civil_of_four_digit_year(epoch_day: i64) -> (u32, u32, u32) {
    debug_assert!(FOUR_DIGIT_YEARS.contains(&epoch_day));
    // Days since -0400-03-01: positive for the whole range, and a cycle start, so the March-based
    // calendar below needs no era split. Four times it plus three is still far below 2^32.
    let day_number = (epoch_day + EPOCH_OFFSET_FROM_ERA_START + DAYS_PER_ERA) as u32;
    // In quarter days the centuries (36_524.25 days) and the four-year spans (1461 / 4 days)
    // are whole numbers, so each split is one division, its quotient and remainder.
    let quarters = 4 * day_number + 3;
    let century = quarters / 146_097;
    let quarters_of_century = quarters % 146_097 / 4 * 4 + 3;
    let year_of_century = quarters_of_century / 1461;
    // 0 for March 1st; February, with the leap day, comes last.
    let day_of_year = quarters_of_century % 1461 / 4;
    let march_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * march_month + 2) / 5 + 1;
    let (month, january_or_february) = if march_month < 10 { (march_month + 3, 0) } else { (march_month - 9, 1) };
    (100 * century + year_of_century + january_or_february - 400, month, day)
}

/// `"yyyy-MM` of a year below 10_000 as the bytes of one little-endian word: the two digit
/// pairs of the year and the month in lanes, split into tens and ones with one multiply for all
/// (as [`clock_word`]).
#[inline(always)]
fn date_head(year: u32, month: u32) -> u64 {
    let fields = u64::from(year / 100) << 8 | u64::from(year % 100) << 24 | u64::from(month) << 48;
    let tens = ((fields * 103) >> 10) & 0x000F_0000_0F00_0F00;
    let ones = fields - 10 * tens;
    // Tens at bytes 1, 3 and 6, ones one byte up; `"` at byte 0 and `-` at byte 5.
    tens | ones << 8 | 0x3030_2D30_3030_3022
}

/// The text of one date, `"yyyy-MM-dd"` with ISO year signs, quotes included.
#[derive(Clone, Copy)]
pub struct DateText {
    /// Of the quoted text.
    len: u8,
    /// `"`, a sign and up to 17 year digits (any `i64` day), `-MM-dd`, `"`.
    bytes: [u8; 32],
}

impl DateText {
    pub fn from_epoch_day(epoch_day: i64) -> DateText {
        if !FOUR_DIGIT_YEARS.contains(&epoch_day) {
            return DateText::of_wide_year(epoch_day);
        }
        let (year, month, day) = civil_of_four_digit_year(epoch_day);
        let mut bytes = [0; 32];
        bytes[..8].copy_from_slice(&date_head(year, month).to_le_bytes());
        // `-dd"`
        let tail = 0x2230_302D | (day / 10) << 8 | (day % 10) << 16;
        bytes[8..12].copy_from_slice(&tail.to_le_bytes());
        DateText { len: 12, bytes }
    }

    /// A year with a sign or more than four digits.
    #[cold]
    fn of_wide_year(epoch_day: i64) -> DateText {
        let (year, month, day) = civil_from_epoch_day(epoch_day);
        let mut text = DateText { len: 0, bytes: [0; 32] };
        text.bytes[0] = b'"';
        let at = 1 + write_wide_year(&mut text.bytes[1..], year);
        text.bytes[at] = b'-';
        put_pair(&mut text.bytes[at + 1..], month);
        text.bytes[at + 3] = b'-';
        put_pair(&mut text.bytes[at + 4..], day);
        text.bytes[at + 6] = b'"';
        text.len = (at + 7) as u8;
        text
    }

    /// Without the quotes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[1..self.len as usize - 1]
    }
}

/// A year outside 0..=9999: `+` and its digits, or `-` and at least four digits.
#[cold]
fn write_wide_year(dst: &mut [u8], year: i64) -> usize {
    dst[0] = if year < 0 { b'-' } else { b'+' };
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(year.unsigned_abs()).as_bytes();
    let pad = 4usize.saturating_sub(digits.len());
    dst[1..1 + pad].fill(b'0');
    dst[1 + pad..1 + pad + digits.len()].copy_from_slice(digits);
    1 + pad + digits.len()
}

/// Remembers the formatted date of the last epoch day asked for: timestamps in a batch usually
/// share a day, so most calls are one comparison and a copy.
#[derive(Clone, Copy)]
pub struct DayCache {
    epoch_day: i64,
    date: DateText,
}

impl Default for DayCache {
    fn default() -> Self {
        DayCache::new()
    }
}

impl DayCache {
    /// Empty: the first call formats its day. (`i64::MIN` is no day a caller can ask for:
    /// days come from an `i32` or from epoch milliseconds divided by a day.)
    pub const fn new() -> DayCache {
        DayCache { epoch_day: i64::MIN, date: DateText { len: 0, bytes: [0; 32] } }
    }

    /// The text of `epoch_day`, recomputed only when the day changes.
    #[inline]
    pub fn date(&mut self, epoch_day: i64) -> &DateText {
        if epoch_day != self.epoch_day {
            self.epoch_day = epoch_day;
            self.date = DateText::from_epoch_day(epoch_day);
        }
        &self.date
    }
}

/// `HH:mm:ss` of `second_of_day` (< 86_400) as the bytes of one little-endian word: the three
/// fields in lanes three bytes apart, each split into tens and ones with one multiply for all.
#[inline(always)]
fn clock_word(second_of_day: u32) -> u64 {
    let hours = second_of_day / 3600;
    let minutes_and_seconds = second_of_day - 3600 * hours;
    let minutes = minutes_and_seconds / 60;
    let seconds = minutes_and_seconds - 60 * minutes;
    let fields = u64::from(hours) | u64::from(minutes) << 24 | u64::from(seconds) << 48;
    // `x * 103 >> 10` is `x / 10` below 179; the mask drops the bits a lane shifts into the
    // next one down.
    let tens = ((fields * 103) >> 10) & 0x000F_0000_0F00_000F;
    let ones = fields - 10 * tens;
    // Tens at bytes 0, 3, 6, ones one byte up, colons at bytes 2 and 5.
    tens | ones << 8 | 0x3030_3A30_303A_3030
}

/// Stores `.` and the nine digits of `nano_of_second` (< 10^9) at `dst[0..10]` and returns how
/// many to keep: none for zero, else up to the last digit that is not zero (2..=10).
///
/// The first digit goes apart and the other eight into the lanes of one word, whose trailing
/// zero digits are its high zero bytes: the trim is a count of leading zero bits, with no loop
/// and no division but the first digit's.
#[inline(always)]
fn put_fraction(dst: &mut [u8; 10], nano_of_second: u32) -> usize {
    let first = nano_of_second / 100_000_000;
    let rest = digit_values(nano_of_second - first * 100_000_000);
    dst[..2].copy_from_slice(&[b'.', b'0' + first as u8]);
    dst[2..].copy_from_slice(&(rest + ASCII_ZEROS).to_le_bytes());
    // All eight zero: 64 leading zero bits, none kept (the first digit is then not zero).
    let kept = 2 + 8 - (rest.leading_zeros() / 8) as usize;
    if nano_of_second == 0 {
        0
    } else {
        kept
    }
}

/// `"HH:mm:ss[.fff]"` from milliseconds of the day; the fraction only from Flink 2.3 on.
/// Writes at most [`TIME_BOUND`] bytes.
///
/// Flink only ever holds 0..86_399_999 here; other values wrap around the day instead of failing.
/// Inlined into the TIME accessor's write: a call per value costs more than the body
/// (docs/performance.md).
#[inline]
pub fn write_time_json<S: ByteSink>(out: &mut S, millis_of_day: i32, version: FlinkVersion) {
    let millis = millis_of_day.rem_euclid(MILLIS_PER_DAY as i32) as u32;
    let mut text = [0u8; TIME_BOUND];
    text[0] = b'"';
    text[1..9].copy_from_slice(&clock_word(millis / 1000).to_le_bytes());
    let (fraction, kept) = if version.time_has_fraction() { millis_fraction(millis % 1000) } else { (0, 0) };
    text[9..13].copy_from_slice(&fraction.to_le_bytes());
    text[9 + kept] = b'"';
    out.put_chunk(&text, 10 + kept);
}

/// `.` and the three digits of `milli_of_second` (< 1000) as the bytes of one word, and how many
/// of them to keep: none for zero, else up to the last digit that is not zero (as
/// [`put_fraction`], with three digits instead of nine).
#[inline(always)]
fn millis_fraction(milli_of_second: u32) -> (u32, usize) {
    let hundreds = milli_of_second / 100;
    let rest = milli_of_second - 100 * hundreds;
    let tens = (rest * 103) >> 10;
    let digits = hundreds << 8 | tens << 16 | (rest - 10 * tens) << 24;
    let kept = 4 - (digits.leading_zeros() / 8) as usize;
    let kept = if milli_of_second == 0 { 0 } else { kept };
    (digits + 0x3030_302E, kept)
}

/// The most bytes [`write_time_json`] writes (its whole text buffer).
pub const TIME_BOUND: usize = 24;

/// `timestamp-format.standard` as a type: a writer made for one side (generated code knows the
/// format of each side) has its separator as a constant instead of reading an option per value.
pub trait TimestampStandard {
    /// Between the date and the time.
    const SEPARATOR: u8;
}

/// `'SQL'`: `yyyy-MM-dd HH:mm:ss`.
pub enum Sql {}

/// `'ISO-8601'`: `yyyy-MM-ddTHH:mm:ss`.
pub enum Iso8601 {}

impl TimestampStandard for Sql {
    const SEPARATOR: u8 = b' ';
}

impl TimestampStandard for Iso8601 {
    const SEPARATOR: u8 = b'T';
}

/// How a timestamp is spelled: the separator of its side's standard, and the `Z` of
/// TIMESTAMP_LTZ. Generated code makes it from constants ([`Spelling::of`]), so it folds away;
/// the dynamic encoder's, made once a batch, carries its cache tag made too, so that no value
/// builds it again.
#[derive(Clone, Copy)]
pub struct Spelling {
    separator: u8,
    ltz: bool,
    /// In the top byte of a cache key's second half; never zero, so an empty cache matches no key.
    tag: u32,
}

impl Spelling {
    #[inline(always)]
    pub const fn of<F: TimestampStandard>(ltz: bool) -> Spelling {
        let tag = (F::SEPARATOR as u32 | (ltz as u32) << 7) << 24;
        Spelling { separator: F::SEPARATOR, ltz, tag }
    }

    #[inline(always)]
    pub fn new(format: TimestampFormat, ltz: bool) -> Spelling {
        match format {
            TimestampFormat::Sql => Spelling::of::<Sql>(ltz),
            TimestampFormat::Iso8601 => Spelling::of::<Iso8601>(ltz),
        }
    }
}

/// Remembers the text of the last timestamp written and of its second. In a batch most
/// timestamps repeat the previous row's value or at least its second: then writing one is a
/// fixed-size copy (plus the fraction), with no calendar or clock arithmetic.
#[derive(Clone, Copy)]
pub struct SecondCache {
    epoch_second: i64,
    /// `b' '` or `b'T'`; 0 until the first fill.
    separator: u8,
    /// Length of `"`, date, separator and `HH:mm:ss` at the start of `text`.
    prefix_len: u8,
    /// The key of the value `text` holds (see [`write_timestamp_keyed`]) with its spelling tag.
    last: (i64, u32),
    /// Length of the whole text.
    len: u8,
    /// The prefix (at most 34 bytes for any `i64` day), then fraction, `Z` and `"` (at most 12).
    text: [u8; 48],
    day: DayCache,
}

impl Default for SecondCache {
    fn default() -> Self {
        SecondCache::new()
    }
}

impl SecondCache {
    pub const fn new() -> SecondCache {
        let day = DayCache::new();
        SecondCache { epoch_second: 0, separator: 0, prefix_len: 0, last: (0, 0), len: 0, text: [0; 48], day }
    }

    /// `"`, the date, the separator and `HH:mm:ss` of `epoch_second`.
    #[cold]
    fn fill_prefix(&mut self, epoch_second: i64, separator: u8) {
        let date = self.day.date(epoch_second.div_euclid(86_400));
        let second_of_day = epoch_second.rem_euclid(86_400) as u32;
        // Whole buffers: fixed-size copies, where slices of the date's length would call `memcpy`.
        self.text[..32].copy_from_slice(&date.bytes);
        // Over the date's closing quote.
        let at = date.len as usize - 1;
        self.text[at] = separator;
        self.text[at + 1..at + 9].copy_from_slice(&clock_word(second_of_day).to_le_bytes());
        self.prefix_len = (at + 9) as u8;
        self.epoch_second = epoch_second;
        self.separator = separator;
    }

    /// Rewrites `text` for a value; `nano_of_milli` is normalized (< 1_000_000). Inlined into
    /// each accessor: a call per new value cost more than its frame (docs/performance.md).
    #[inline(always)]
    fn fill(&mut self, epoch_millis: i64, nano_of_milli: u32, separator: u8, ltz: bool) {
        let epoch_second = epoch_millis.div_euclid(1000);
        if epoch_second != self.epoch_second || separator != self.separator {
            self.fill_prefix(epoch_second, separator);
        }
        let at = self.prefix_len as usize;
        let nano_of_second = epoch_millis.rem_euclid(1000) as u32 * NANOS_PER_MILLI + nano_of_milli;
        let end = at + put_fraction(text_at(&mut self.text, at), nano_of_second);
        // Both suffixes as one store: `Z"`, or `"` and a byte past the end.
        let suffix = if ltz { *b"Z\"" } else { *b"\"\"" };
        self.text[end..end + 2].copy_from_slice(&suffix);
        self.len = (end + 1 + usize::from(ltz)) as u8;
    }
}

/// The ten bytes of `text` from `at` (a prefix length, at most 34).
#[inline(always)]
fn text_at(text: &mut [u8; 48], at: usize) -> &mut [u8; 10] {
    (&mut text[at..at + 10]).try_into().unwrap()
}

/// The writer every timestamp goes through. `key` identifies the value for its caller (a raw
/// Arrow value of one unit, or normalized epoch milliseconds and nanoseconds; its second half
/// below 2^24): when it is the cache's last, in the same spelling, the cached text is copied and
/// `parts` is not called; otherwise `parts()` gives the value's epoch milliseconds and normalized
/// nanoseconds of the millisecond. Writes [`TIMESTAMP_BOUND`] bytes and keeps the text's length.
#[inline(always)]
pub fn write_timestamp_keyed<S: ByteSink>(
    out: &mut S,
    cache: &mut SecondCache,
    key: (i64, u32),
    spelling: Spelling,
    parts: impl FnOnce() -> (i64, u32),
) {
    let last = (key.0, key.1 | spelling.tag);
    if cache.last != last {
        let (epoch_millis, nano_of_milli) = parts();
        cache.fill(epoch_millis, nano_of_milli, spelling.separator, spelling.ltz);
        cache.last = last;
    }
    // A fixed-size copy then a cut, as in `format::write_int`.
    out.put_chunk(&cache.text, cache.len as usize);
}

/// A timestamp from epoch milliseconds plus nanoseconds within the millisecond (Flink's
/// `TimestampData`); `ltz` adds the `Z` suffix. Reuses the text of the previous call's value or
/// second; writes [`TIMESTAMP_BOUND`] bytes and keeps the text's length.
#[inline]
pub fn write_timestamp_json<S: ByteSink>(
    out: &mut S,
    cache: &mut SecondCache,
    epoch_millis: i64,
    nano_of_milli: u32,
    format: TimestampFormat,
    ltz: bool,
) {
    let parts = normalize_nanos(epoch_millis, nano_of_milli);
    write_timestamp_keyed(out, cache, parts, Spelling::new(format, ltz), || parts);
}

/// The most bytes [`write_timestamp_json`] writes (its whole text buffer).
pub const TIMESTAMP_BOUND: usize = 48;

/// `"yyyy-MM-dd"` from days since 1970-01-01 (Java ISO years: `-0001`, `+10000`), reusing the
/// cache's text when the day repeats; writes at most [`DATE_BOUND`] bytes.
#[inline]
pub fn write_date_json<S: ByteSink>(out: &mut S, cache: &mut DayCache, epoch_day: i64) {
    let date = cache.date(epoch_day);
    out.put_chunk(&date.bytes, date.len as usize);
}

/// The most bytes [`write_date_json`] writes.
pub const DATE_BOUND: usize = 32;

/// Flink keeps nano-of-milli in 0..999_999; carry any excess into the milliseconds.
#[inline(always)]
fn normalize_nanos(epoch_millis: i64, nano_of_milli: u32) -> (i64, u32) {
    if nano_of_milli < NANOS_PER_MILLI {
        return (epoch_millis, nano_of_milli);
    }
    let carry = i64::from(nano_of_milli / NANOS_PER_MILLI);
    (epoch_millis.saturating_add(carry), nano_of_milli % NANOS_PER_MILLI)
}

#[cfg(test)]
mod tests {
    use super::*;
    use FlinkVersion::{V1_20, V2_2, V2_3};
    use TimestampFormat::{Iso8601, Sql};

    fn date(epoch_day: i64) -> String {
        let mut out = Vec::new();
        write_date_json(&mut out, &mut DayCache::new(), epoch_day);
        String::from_utf8(out).unwrap()
    }

    fn time(millis: i32, version: FlinkVersion) -> String {
        let mut out = Vec::new();
        write_time_json(&mut out, millis, version);
        String::from_utf8(out).unwrap()
    }

    fn timestamp(millis: i64, nanos: u32, format: TimestampFormat, ltz: bool) -> String {
        let mut out = Vec::new();
        write_timestamp_json(&mut out, &mut SecondCache::new(), millis, nanos, format, ltz);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn date_examples() {
        let rows = [
            (0, "1970-01-01"),
            (-1, "1969-12-31"),
            (-719_528, "0000-01-01"),
            (-719_529, "-0001-12-31"),
            (-354_285, "1000-01-01"),
            (2_932_896, "9999-12-31"),
            (2_932_897, "+10000-01-01"),
        ];
        for (day, expected) in rows {
            assert_eq!(date(day), format!("\"{expected}\""), "day {day}");
        }
    }

    #[test]
    fn time_examples() {
        let rows = [
            (0, "00:00:00", "00:00:00"),
            (1, "00:00:00.001", "00:00:00"),
            (10, "00:00:00.01", "00:00:00"),
            (100, "00:00:00.1", "00:00:00"),
            (120, "00:00:00.12", "00:00:00"),
            (45_296_789, "12:34:56.789", "12:34:56"),
            (45_296_100, "12:34:56.1", "12:34:56"),
            (86_399_999, "23:59:59.999", "23:59:59"),
        ];
        for (millis, v23, older) in rows {
            assert_eq!(time(millis, V2_3), format!("\"{v23}\""), "{millis}");
            assert_eq!(time(millis, V2_2), format!("\"{older}\""), "{millis}");
            assert_eq!(time(millis, V1_20), format!("\"{older}\""), "{millis}");
        }
    }

    #[test]
    fn times_match_the_reference_text() {
        for millis in (0..86_400_000).step_by(997).chain(0..3000).chain(86_397_000..86_400_000) {
            let (second, milli) = (millis / 1000, millis % 1000);
            let clock = format!("{:02}:{:02}:{:02}", second / 3600, second / 60 % 60, second % 60);
            let fraction = format!("{milli:03}");
            let fraction = fraction.trim_end_matches('0');
            let with_fraction = if milli == 0 { clock.clone() } else { format!("{clock}.{fraction}") };
            assert_eq!(time(millis, V2_3), format!("\"{with_fraction}\""), "{millis}");
            assert_eq!(time(millis, V2_2), format!("\"{clock}\""), "{millis}");
        }
    }

    /// 2024-01-02 03:04:05 UTC.
    const JAN_2_2024_030405: i64 = 1_704_164_645_000;

    #[test]
    fn timestamp_examples() {
        let day = |d: i64| d * MILLIS_PER_DAY;
        let rows: [(i64, u32, &str); 13] = [
            (JAN_2_2024_030405, 0, "2024-01-02?03:04:05"),
            (JAN_2_2024_030405 - 11_045_000, 0, "2024-01-02?00:00:00"),
            (JAN_2_2024_030405 + 100, 0, "2024-01-02?03:04:05.1"),
            (JAN_2_2024_030405 + 120, 0, "2024-01-02?03:04:05.12"),
            (JAN_2_2024_030405 + 123, 0, "2024-01-02?03:04:05.123"),
            (JAN_2_2024_030405, 1000, "2024-01-02?03:04:05.000001"),
            (JAN_2_2024_030405, 1, "2024-01-02?03:04:05.000000001"),
            (-1, 0, "1969-12-31?23:59:59.999"),
            (day(-719_528), 0, "0000-01-01?00:00:00"),
            (day(-719_529 - 364), 0, "-0001-01-01?00:00:00"),
            (day(-354_285) - 1000, 0, "0999-12-31?23:59:59"),
            (day(2_932_897), 0, "+10000-01-01?00:00:00"),
            (day(2_932_897) - 1, 999_999, "9999-12-31?23:59:59.999999999"),
        ];
        for (millis, nanos, pattern) in rows {
            for (format, separator) in [(Sql, " "), (Iso8601, "T")] {
                let expected = pattern.replace('?', separator);
                assert_eq!(timestamp(millis, nanos, format, false), format!("\"{expected}\""));
                assert_eq!(timestamp(millis, nanos, format, true), format!("\"{expected}Z\""));
            }
        }
        assert_eq!(timestamp(0, 0, Sql, true), "\"1970-01-01 00:00:00Z\"");
        assert_eq!(timestamp(0, 0, Iso8601, true), "\"1970-01-01T00:00:00Z\"");
    }

    #[test]
    fn timestamp_extremes_of_i64_millis() {
        // `Instant.ofEpochMilli(Long.MAX_VALUE / Long.MIN_VALUE)` as java.time prints them.
        assert_eq!(timestamp(i64::MAX, 0, Iso8601, true), "\"+292278994-08-17T07:12:55.807Z\"");
        assert_eq!(timestamp(i64::MIN, 0, Iso8601, true), "\"-292275055-05-16T16:47:04.192Z\"");
        // Excess nanos carry into the milliseconds instead of printing a bad fraction.
        assert_eq!(timestamp(-1, 1_000_001, Sql, false), "\"1970-01-01 00:00:00.000000001\"");
        // u32::MAX ns = 4294 ms + 967295 ns; the millis saturate at i64::MAX.
        assert_eq!(timestamp(i64::MAX, u32::MAX, Sql, false), "\"+292278994-08-17 07:12:55.807967295\"");
    }

    #[test]
    fn wide_years() {
        assert_eq!(date(-719_528 - 365), "\"-0001-01-01\"");
        assert_eq!(date(-719_528 - 366), "\"-0002-12-31\"");
        // Negative years pad to four digits, wider years are not padded; `+` only above 9999.
        for (year, prefix) in [(-999, "\"-0999-"), (-12_345, "\"-12345-"), (123_456, "\"+123456-"), (999, "\"0999-")] {
            let day = ((year - 1970) as f64 * 365.2425) as i64 + 40;
            assert_eq!(reference_civil(day).0, year);
            assert!(date(day).starts_with(prefix), "{year}: {}", date(day));
        }
        assert_eq!(DateText::from_epoch_day(i64::MAX).as_bytes(), civil_text(i64::MAX).as_bytes());
        assert_eq!(DateText::from_epoch_day(i64::MIN).as_bytes(), civil_text(i64::MIN).as_bytes());
    }

    /// Independent calendar: whole 400-year cycles, then a year loop, then a month loop.
    fn reference_civil(epoch_day: i64) -> (i64, u32, u32) {
        let is_leap = |y: i64| y.rem_euclid(4) == 0 && (y.rem_euclid(100) != 0 || y.rem_euclid(400) == 0);
        let year_len = |y: i64| if is_leap(y) { 366 } else { 365 };
        // 1970-01-01 is day 0; 2000-01-01 starts a cycle and is day 10957.
        let from_2000 = i128::from(epoch_day) - 10_957;
        let cycles = from_2000.div_euclid(146_097);
        let mut rest = from_2000.rem_euclid(146_097) as i64;
        let mut year = 2000 + cycles as i64 * 400;
        while rest >= year_len(year) {
            rest -= year_len(year);
            year += 1;
        }
        let month_lens = [31, if is_leap(year) { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
        let mut month = 0;
        while rest >= month_lens[month] {
            rest -= month_lens[month];
            month += 1;
        }
        (year, month as u32 + 1, rest as u32 + 1)
    }

    /// ISO text from the reference calendar.
    fn civil_text(epoch_day: i64) -> String {
        let (y, m, d) = reference_civil(epoch_day);
        let year = match y {
            0..=9999 => format!("{y:04}"),
            10000.. => format!("+{y}"),
            _ => format!("-{:04}", y.unsigned_abs()),
        };
        format!("{year}-{m:02}-{d:02}")
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    #[test]
    fn civil_matches_reference_on_random_days() {
        let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
        let millis_day_range = i64::MAX / MILLIS_PER_DAY + 1;
        for round in 0..20_000 {
            let raw = rng.next() as i64;
            let day = match round % 4 {
                0 => raw % millis_day_range,
                1 => raw % 5_000_000,
                2 => raw % 400_000_000_000,
                _ => raw,
            };
            assert_eq!(civil_from_epoch_day(day), reference_civil(day), "day {day}");
            assert_eq!(DateText::from_epoch_day(day).as_bytes(), civil_text(day).as_bytes(), "day {day}");
        }
    }

    #[test]
    fn civil_walks_day_by_day() {
        // Every day from 1600-01-01 to 2400-12-31, advancing a plain (y, m, d) counter.
        let start = -135_140; // 1600-01-01
        assert_eq!(reference_civil(start), (1600, 1, 1));
        let (mut y, mut m, mut d) = (1600i64, 1u32, 1u32);
        for day in start..start + 293_000 {
            assert_eq!(civil_from_epoch_day(day), (y, m, d), "day {day}");
            let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
            let len = match m {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            d += 1;
            if d > len {
                d = 1;
                m += 1;
                if m > 12 {
                    m = 1;
                    y += 1;
                }
            }
        }
    }

    #[test]
    fn fractions_trim_trailing_zeros() {
        let mut rng = Rng(42);
        for round in 0..20_000u32 {
            let nanos = match round % 3 {
                0 => (rng.next() % 1000) as u32 * 1_000_000,
                1 => (rng.next() % 1_000_000) as u32 * 1000,
                _ => (rng.next() % 1_000_000_000) as u32,
            };
            let mut text = [0u8; 10];
            let len = put_fraction(&mut text, nanos);
            let fraction = format!("{nanos:09}");
            let fraction = fraction.trim_end_matches('0');
            let expected = if nanos == 0 { String::new() } else { format!(".{fraction}") };
            if nanos.is_multiple_of(1_000_000) {
                let (word, kept) = millis_fraction(nanos / 1_000_000);
                assert_eq!(&word.to_le_bytes()[..kept], expected.as_bytes(), "{nanos}");
            }
            assert_eq!(&text[..len], expected.as_bytes(), "{nanos}");
        }
    }

    #[test]
    fn four_digit_years_walk_day_by_day() {
        // Every day from 0000-01-01 to 9999-12-31, against a plain (y, m, d) counter.
        let (mut y, mut m, mut d) = (0u32, 1u32, 1u32);
        for day in FOUR_DIGIT_YEARS {
            assert_eq!(civil_of_four_digit_year(day), (y, m, d), "day {day}");
            assert_eq!(DateText::from_epoch_day(day).as_bytes(), format!("{y:04}-{m:02}-{d:02}").as_bytes());
            (y, m, d) = next_day(y, m, d);
        }
        assert_eq!((y, m, d), (10_000, 1, 1));
    }

    fn next_day(y: u32, m: u32, d: u32) -> (u32, u32, u32) {
        let leap = y.is_multiple_of(4) && (!y.is_multiple_of(100) || y.is_multiple_of(400));
        let len = match m {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        match (d < len, m < 12) {
            (true, _) => (y, m, d + 1),
            (false, true) => (y, m + 1, 1),
            (false, false) => (y + 1, 1, 1),
        }
    }

    #[test]
    fn clock_words_spell_every_second_of_the_day() {
        for second in 0..86_400u32 {
            let expected = format!("{:02}:{:02}:{:02}", second / 3600, second / 60 % 60, second % 60);
            assert_eq!(clock_word(second).to_le_bytes(), expected.as_bytes(), "{second}");
        }
    }

    /// Timestamp text built the plain way: the reference calendar, `format!` and a trimmed string.
    fn reference_timestamp(millis: i64, nanos: u32, format: TimestampFormat, ltz: bool) -> String {
        let second = millis.div_euclid(1000);
        let nano_of_second = millis.rem_euclid(1000) as u32 * 1_000_000 + nanos;
        let of_day = second.rem_euclid(86_400);
        let clock = format!("{:02}:{:02}:{:02}", of_day / 3600, of_day / 60 % 60, of_day % 60);
        let fraction = format!("{nano_of_second:09}");
        let fraction = fraction.trim_end_matches('0');
        let fraction = if fraction.is_empty() { String::new() } else { format!(".{fraction}") };
        let separator = if format == Sql { ' ' } else { 'T' };
        let zone = if ltz { "Z" } else { "" };
        format!("\"{}{separator}{clock}{fraction}{zone}\"", civil_text(second.div_euclid(86_400)))
    }

    #[test]
    fn timestamps_match_the_reference_text() {
        let mut rng = Rng(0x7157_A3B5);
        let year_0 = -719_528 * MILLIS_PER_DAY;
        let year_10000 = 2_932_897 * MILLIS_PER_DAY;
        let edges = [0, -1, 1, year_0, year_0 - 1, year_10000, year_10000 - 1, i64::MAX, i64::MIN];
        let mut cache = SecondCache::new();
        for round in 0..200_000u64 {
            let raw = rng.next() as i64;
            let millis = match round % 5 {
                0 => edges[(round / 5 % edges.len() as u64) as usize],
                1 => raw % (year_10000 - year_0) + year_0,
                2 => raw % 4_000_000_000_000,
                3 => raw % (400 * year_10000),
                _ => raw,
            };
            // Every count of trailing zeros in the nine digits of the fraction.
            let nanos =
                (rng.next() % 1_000_000) as u32 / 10u32.pow((round / 5 % 7) as u32) * 10u32.pow((round / 5 % 7) as u32);
            let (format, ltz) = [(Sql, false), (Sql, true), (Iso8601, false), (Iso8601, true)][(round % 4) as usize];
            let expected = reference_timestamp(millis, nanos, format, ltz);
            assert_eq!(timestamp(millis, nanos, format, ltz), expected, "{millis} {nanos}");
            let mut cached = Vec::new();
            write_timestamp_json(&mut cached, &mut cache, millis, nanos, format, ltz);
            assert_eq!(cached, expected.as_bytes(), "{millis} {nanos}");
        }
    }

    #[test]
    fn cached_matches_uncached() {
        let mut rng = Rng(7);
        let mut cache = DayCache::new();
        let mut second_cache = SecondCache::new();
        let mut previous = (0, 0);
        let mut base = JAN_2_2024_030405;
        for round in 0..20_000 {
            if round % 50 == 0 {
                base = (rng.next() as i64) / 4;
            }
            // Runs within one second, within one day, anywhere; and the extremes.
            let spread = [2_000, 200_000_000, u64::MAX >> 2][round / 50 % 3];
            let millis = match round % 997 {
                0 => i64::MAX,
                1 => i64::MIN,
                2 => 0,
                _ => base.saturating_add((rng.next() % spread) as i64),
            };
            let nanos = (rng.next() % 1_000_000) as u32;
            // Repeats of the previous value (the common case in a batch).
            let (millis, nanos) = if round % 5 == 0 { previous } else { (millis, nanos) };
            previous = (millis, nanos);
            let (format, ltz) = match round % 7 {
                0..=2 => (Sql, false),
                3 => (Sql, true),
                4 => (Iso8601, false),
                _ => (Iso8601, true),
            };
            let mut cached = Vec::new();
            write_timestamp_json(&mut cached, &mut second_cache, millis, nanos, format, ltz);
            assert_eq!(cached, timestamp(millis, nanos, format, ltz).into_bytes(), "{millis} {nanos}");
            let day = millis.div_euclid(MILLIS_PER_DAY);
            let mut cached_date = Vec::new();
            write_date_json(&mut cached_date, &mut cache, day);
            assert_eq!(cached_date, date(day).into_bytes());
        }
    }
}
