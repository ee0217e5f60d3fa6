//! The bytes of a message read as the common case needs them: whitespace, plain names, strings
//! (escapes decoded, UTF-8 checked), JSON numbers and literals. Every reader gives `None` where
//! the common case ends (a byte Jackson would refuse, or one only `direct` reads exactly), and
//! may then leave the position anywhere: the message is read again from the start.
use std::borrow::Cow;

use super::block::masks;
use super::PlanLimits;
use crate::decode::lexer::simple_escape;

/// Bytes expected at the position, compared a word at a time when they fit two words.
/// Generated decoders hold theirs as constants (`Prefix::of`).
#[derive(Debug)]
pub struct Prefix {
    bytes: Cow<'static, [u8]>,
    words: [u64; 2],
    masks: [u64; 2],
}

impl Prefix {
    pub(crate) fn new(bytes: Vec<u8>) -> Prefix {
        let (words, masks) = words_of(&bytes);
        Prefix { bytes: Cow::Owned(bytes), words, masks }
    }

    /// The prefix of a constant.
    pub const fn of(bytes: &'static [u8]) -> Prefix {
        let (words, masks) = words_of(bytes);
        Prefix { bytes: Cow::Borrowed(bytes), words, masks }
    }

    /// The bytes expected.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }
}

/// The first 16 bytes as two little-endian words, and which of their bytes count.
const fn words_of(bytes: &[u8]) -> ([u64; 2], [u64; 2]) {
    let (mut words, mut masks) = ([0u64; 2], [0u64; 2]);
    let mut k = 0;
    while k < bytes.len() && k < 16 {
        words[k / 8] |= (bytes[k] as u64) << (8 * (k % 8));
        masks[k / 8] |= 0xFF << (8 * (k % 8));
        k += 1;
    }
    (words, masks)
}

pub(crate) struct Scan<'a> {
    pub input: &'a [u8],
    pub pos: usize,
}

impl<'a> Scan<'a> {
    /// The next byte after JSON whitespace (not consumed).
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        loop {
            let byte = *self.input.get(self.pos)?;
            // Every whitespace byte is at most a space: one comparison for the others.
            if byte > b' ' || !matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(byte);
            }
            self.pos += 1;
        }
    }

    /// Consumes `byte` after whitespace.
    #[inline]
    pub fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    /// Consumes `prefix` when the input goes on with it.
    #[inline]
    pub fn eat_prefix(&mut self, prefix: &Prefix) -> bool {
        let rest = &self.input[self.pos..];
        let words_match = |bytes: u128| {
            let (low, high) = (bytes as u64, (bytes >> 64) as u64);
            low & prefix.masks[0] == prefix.words[0] && high & prefix.masks[1] == prefix.words[1]
        };
        let found = match (rest.first_chunk::<16>(), self.input.last_chunk::<16>()) {
            (Some(chunk), _) if prefix.len() <= 16 => words_match(u128::from_le_bytes(*chunk)),
            // Within the message's last 16 bytes (a changelog's operation member): those bytes
            // shifted down to the position, rather than a `memcmp` call.
            (None, Some(last)) if prefix.len() <= rest.len() => {
                words_match(u128::from_le_bytes(*last) >> (8 * (16 - rest.len())))
            }
            _ => rest.starts_with(&prefix.bytes),
        };
        if found {
            self.pos += prefix.len();
        }
        found
    }

    /// `literal` at the position (a delimiter must follow; the caller checks it).
    #[inline]
    pub fn literal(&mut self, literal: &[u8]) -> Option<()> {
        self.input[self.pos..].starts_with(literal).then(|| self.pos += literal.len())
    }

    /// After a name's opening quote: the name's raw bytes (no escape; valid UTF-8 checked by
    /// the caller when it matters).
    #[inline]
    pub fn name(&mut self) -> Option<&'a [u8]> {
        let rest = &self.input[self.pos..];
        let (length, _) = plain_run(rest);
        (rest.get(length)? == &b'"').then(|| {
            self.pos += length + 1;
            &rest[..length]
        })
    }

    /// Past the string's raw bytes up to its next quote, backslash or control byte (16 at a time
    /// while they last); whether any of them was a non-ASCII byte.
    #[inline]
    fn raw_run(&mut self) -> bool {
        let mut high = false;
        while let Some(block) = self.input[self.pos..].first_chunk::<16>() {
            let (stops, high_bytes) = masks(block);
            if stops != 0 {
                let run = stops.trailing_zeros() as usize;
                self.pos += run;
                return high || high_bytes & ((1 << run) - 1) != 0;
            }
            high |= high_bytes != 0;
            self.pos += 16;
        }
        let (run, run_high) = plain_run(&self.input[self.pos..]);
        self.pos += run;
        high || run_high
    }

    /// After a string's opening quote: its text appended to `out` (escapes decoded; surrogate
    /// escapes, invalid UTF-8 or a string over `max_length` bytes are not the common case).
    pub fn string_into(&mut self, out: &mut Vec<u8>, max_length: usize) -> Option<()> {
        let (start, written) = (self.pos, out.len());
        let mut high = false;
        loop {
            let rest = &self.input[self.pos..];
            // `raw_run`'s scan, with each block copied blind while it is scanned (a copy of
            // the run afterwards cost about 5% more instructions a changelog message).
            if let Some(block) = rest.first_chunk::<16>() {
                // The whole block is copied, then cut back to the run before a stop.
                let (stops, high_bytes) = masks(block);
                out.extend_from_slice(block);
                if stops == 0 {
                    high |= high_bytes != 0;
                    self.pos += 16;
                    continue;
                }
                let run = stops.trailing_zeros() as usize;
                high |= high_bytes & ((1 << run) - 1) != 0;
                out.truncate(out.len() - 16 + run);
                self.pos += run;
            } else {
                let (run, run_high) = plain_run(rest);
                high |= run_high;
                out.extend_from_slice(&rest[..run]);
                self.pos += run;
            }
            if *self.input.get(self.pos)? == b'"' {
                break;
            }
            let (character, length) = simple_escape(&self.input[self.pos + 1..])?;
            let mut buffer = [0u8; 4];
            out.extend_from_slice(character.encode_utf8(&mut buffer).as_bytes());
            self.pos += 1 + length;
        }
        self.pos += 1;
        // Jackson counts UTF-16 units, never more than the bytes.
        let short = self.pos - start - 1 <= max_length;
        // Escapes give whole characters, so the text is UTF-8 exactly when each raw run is.
        (short && (!high || std::str::from_utf8(&out[written..]).is_ok())).then_some(())
    }

    /// After a string's opening quote: past its closing quote, accepted exactly where
    /// `string_into` accepts it, without copying its text (a skipped value is never kept).
    pub fn skip_string(&mut self, max_length: usize) -> Option<()> {
        let start = self.pos;
        loop {
            let run_start = self.pos;
            // Escapes give whole characters: the text is UTF-8 exactly when each raw run is.
            if self.raw_run() && std::str::from_utf8(&self.input[run_start..self.pos]).is_err() {
                return None;
            }
            if *self.input.get(self.pos)? == b'"' {
                break;
            }
            let (_, length) = simple_escape(&self.input[self.pos + 1..])?;
            self.pos += 1 + length;
        }
        self.pos += 1;
        (self.pos - start - 1 <= max_length).then_some(())
    }

    /// After a string's opening quote: the raw bytes of a string without escapes.
    #[inline]
    pub fn plain_string(&mut self) -> Option<&'a [u8]> {
        let rest = &self.input[self.pos..];
        let (length, _) = plain_run(rest);
        (rest.get(length)? == &b'"').then(|| {
            self.pos += length + 1;
            &rest[..length]
        })
    }

    /// A JSON integer token of up to 18 digits.
    #[inline(always)]
    pub fn integer(&mut self) -> Option<i64> {
        let input = self.input;
        let negative = input.get(self.pos) == Some(&b'-');
        let start = self.pos + usize::from(negative);
        let mut pos = start;
        let mut magnitude: i64 = 0;
        // Eight bytes at a time while they are all digits; the last few bytes one by one.
        loop {
            let Some(chunk) = input.get(pos..).and_then(<[u8]>::first_chunk::<8>) else {
                while let Some(digit) = input.get(pos).map(|b| b.wrapping_sub(b'0')).filter(|&d| d < 10) {
                    magnitude = magnitude.wrapping_mul(10).wrapping_add(i64::from(digit));
                    pos += 1;
                }
                break;
            };
            let (count, value) = leading_digits(u64::from_le_bytes(*chunk));
            magnitude = magnitude.wrapping_mul(POWERS_OF_TEN[count]).wrapping_add(value as i64);
            pos += count;
            if count < 8 || pos - start > 18 {
                break;
            }
        }
        let digits = pos - start;
        if digits > 18 {
            return None;
        }
        let leading_zero = digits > 1 && input[start] == b'0';
        if digits == 0 || leading_zero || matches!(input.get(pos), Some(b'0'..=b'9' | b'.' | b'e' | b'E')) {
            return None;
        }
        self.pos = pos;
        Some(if negative { -magnitude } else { magnitude })
    }

    /// A JSON number token (Jackson's grammar), as text.
    pub fn number(&mut self, max_length: usize) -> Option<&'a str> {
        let input = self.input;
        let start = self.pos;
        let mut pos = start + usize::from(input.get(start) == Some(&b'-'));
        let digits = |pos: &mut usize| {
            let from = *pos;
            while let Some(chunk) = input.get(*pos..).and_then(<[u8]>::first_chunk::<8>) {
                let count = digit_count(u64::from_le_bytes(*chunk));
                *pos += count;
                if count < 8 {
                    return *pos - from;
                }
            }
            while input.get(*pos).is_some_and(u8::is_ascii_digit) {
                *pos += 1;
            }
            *pos - from
        };
        let int_start = pos;
        let int_digits = digits(&mut pos);
        if int_digits == 0 || (int_digits > 1 && input[int_start] == b'0') {
            return None;
        }
        if input.get(pos) == Some(&b'.') {
            pos += 1;
            if digits(&mut pos) == 0 {
                return None;
            }
        }
        if matches!(input.get(pos), Some(b'e' | b'E')) {
            pos += 1;
            if matches!(input.get(pos), Some(b'+' | b'-')) {
                pos += 1;
            }
            if digits(&mut pos) == 0 {
                return None;
            }
        }
        if pos - start > max_length {
            return None;
        }
        self.pos = pos;
        let token = &input[start..pos];
        debug_assert!(token.is_ascii());
        // SAFETY: every byte of `token` was matched above as an ASCII digit, `-`, `+`, `.`, `e` or
        // `E`, so it is UTF-8 (checking it again costs as much as finding it).
        Some(unsafe { std::str::from_utf8_unchecked(token) })
    }

    /// Skips a scalar value (string, number or literal) as Jackson's skip would accept it.
    pub fn skip_scalar(&mut self, limits: &PlanLimits) -> Option<()> {
        match *self.input.get(self.pos)? {
            b'"' => {
                self.pos += 1;
                self.skip_string(limits.max_string_length)
            }
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.number(limits.max_number_length).map(drop),
        }
    }
}

impl Scan<'_> {
    /// Skips any JSON value (at a non-whitespace byte), checked as Jackson's tree reads it.
    pub fn skip_value(&mut self, limits: &PlanLimits, depth: usize) -> Option<()> {
        let close = match *self.input.get(self.pos)? {
            b'{' => b'}',
            b'[' => b']',
            _ => return self.skip_scalar(limits),
        };
        if depth == 32 {
            return None;
        }
        self.pos += 1;
        if self.peek()? == close {
            self.pos += 1;
            return Some(());
        }
        loop {
            if close == b'}' {
                self.eat(b'"')?;
                self.skip_string(limits.max_name_length)?;
                self.eat(b':')?;
            }
            self.peek()?;
            self.skip_value(limits, depth + 1)?;
            match self.peek()? {
                b',' => self.pos += 1,
                byte if byte == close => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }
}

const POWERS_OF_TEN: [i64; 9] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

/// How many ASCII digits the eight bytes of `word` (first byte lowest) start with.
#[inline]
fn digit_count(word: u64) -> usize {
    let x = word.wrapping_sub(0x3030_3030_3030_3030);
    let not_digit = (x | x.wrapping_add(0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080;
    (not_digit.trailing_zeros() / 8) as usize
}

/// How many ASCII digits the eight bytes of `word` (first byte lowest) start with, and their
/// value. A borrow or carry only moves up, so the lowest byte flagged as not a digit is exact.
#[inline]
fn leading_digits(word: u64) -> (usize, u64) {
    let x = word.wrapping_sub(0x3030_3030_3030_3030);
    let count = digit_count(word);
    if count == 0 {
        return (0, 0);
    }
    // The digits moved to the top bytes, zeros below them: an eight-digit number.
    let x = x << (8 * (8 - count));
    // Pairs, then the two halves of four (the multipliers place them: 100 + 10^6 << 32 and
    // 1 + 10^4 << 32).
    let x = x.wrapping_mul(10).wrapping_add(x >> 8);
    const LOW: u64 = 0x0000_00FF_0000_00FF;
    let value =
        (x & LOW).wrapping_mul(0x000F_4240_0000_0064).wrapping_add((x >> 16 & LOW).wrapping_mul(0x0000_2710_0000_0001));
    (count, value >> 32)
}

/// The length of the run of bytes other than `"` and `\\` that `bytes` starts with, eight bytes
/// at a time (the lowest flagged byte of a word is exact), and whether a byte of it (or one a
/// little past it) is not ASCII.
#[inline]
pub(super) fn plain_run(bytes: &[u8]) -> (usize, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_bytes = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
    let mut high = 0;
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        high |= word;
        let hits = zero_bytes(word ^ (ONES * u64::from(b'"'))) | zero_bytes(word ^ (ONES * u64::from(b'\\')));
        if hits != 0 {
            return (at + hits.trailing_zeros() as usize / 8, high & HIGH != 0);
        }
        at += 8;
    }
    let tail = &bytes[at..];
    let length = tail.iter().position(|&b| b == b'"' || b == b'\\').unwrap_or(tail.len());
    let tail_high = tail[..length].iter().any(|&b| b >= 0x80);
    (at + length, high & HIGH != 0 || tail_high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_runs_end_at_the_first_quote_or_backslash() {
        let mut seed = 11u64;
        for _ in 0..3000 {
            let bytes: Vec<u8> = (0..(seed % 40) as usize)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    [b'a', b'"', b'\\', 0x80, 0xFF, 0x00, b'!', b'#', b'b', b'c'][(seed >> 60) as usize % 10]
                })
                .collect();
            let naive = bytes.iter().position(|&b| b == b'"' || b == b'\\').unwrap_or(bytes.len());
            let (length, high) = plain_run(&bytes);
            assert_eq!(length, naive, "{bytes:?}");
            // Never a non-ASCII byte missed.
            assert!(high || bytes[..naive].is_ascii(), "{bytes:?}");
        }
    }

    #[test]
    fn skipped_strings_end_and_fail_where_read_ones_do() {
        const PIECES: &[&[u8]] = &[
            b"a",
            b"bcdefghijklmnopq",
            b"\"",
            b"\\",
            b"\\n",
            b"\\\"",
            b"\\u00e9",
            b"\\u12",
            b"\\ud83d\\ude00",
            b"\\x",
            b"\\",
            b"\xC3\xA9",
            b"\xC3",
            b"\xA9",
            b"\xF0\x9F\x98\x80",
            b"\xFF",
            b"\x01",
            b" ",
        ];
        let mut seed = 23u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..20_000 {
            let mut input = Vec::new();
            for _ in 0..next(12) {
                input.extend_from_slice(PIECES[next(PIECES.len())]);
            }
            let max_length = [usize::MAX, 4, 17][next(3)];
            let mut read = Scan { input: &input, pos: 0 };
            let mut skipped = Scan { input: &input, pos: 0 };
            let read_ok = read.string_into(&mut Vec::new(), max_length);
            assert_eq!(skipped.skip_string(max_length), read_ok, "{input:?} {max_length}");
            if read_ok.is_some() {
                assert_eq!(skipped.pos, read.pos, "{input:?}");
            }
        }
    }

    #[test]
    fn prefixes_match_as_starts_with_does() {
        for (input, prefix) in
            [("\"ab\":1,0123456789abcdef", "\"ab\":"), ("\"ab\":", "\"ab\":"), ("\"ac\":1234567890123456", "\"ab\":")]
        {
            for prefix in [prefix.to_string(), format!("{prefix}1,0123456789"), format!("{prefix}1,0123456789abcd")] {
                let mut scan = Scan { input: input.as_bytes(), pos: 0 };
                assert_eq!(scan.eat_prefix(&Prefix::new(prefix.clone().into_bytes())), input.starts_with(&prefix));
            }
        }
    }

    #[test]
    fn leading_digits_are_counted_and_read_exactly() {
        let mut seed = 17u64;
        for _ in 0..20_000 {
            let mut bytes = [0u8; 8];
            for byte in &mut bytes {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *byte = match (seed >> 60) % 4 {
                    0 => [b',', b'}', b'.', b'e', b'/', b':', 0x00, 0xFF, b' '][(seed >> 33) as usize % 9],
                    _ => b'0' + (seed >> 33) as u8 % 10,
                };
            }
            let count = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let value = bytes[..count].iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
            let expected = if count == 0 { (0, 0) } else { (count, value) };
            assert_eq!(leading_digits(u64::from_le_bytes(bytes)), expected, "{bytes:?}");
        }
    }

    #[test]
    fn integers_are_json_integer_tokens() {
        let read = |text: &str| Scan { input: text.as_bytes(), pos: 0 }.integer();
        assert_eq!(read("0,"), Some(0));
        assert_eq!(read("-12}"), Some(-12));
        assert_eq!(read("999999999999999999"), Some(999_999_999_999_999_999));
        assert_eq!(read("123456789012345678,"), Some(123_456_789_012_345_678));
        assert_eq!(read("-12345678}"), Some(-12_345_678));
        assert_eq!(read("3001000,\"bidder\""), Some(3_001_000));
        for other in ["01", "-", "1.5", "1e3", "1234567890123456789", "-x", "+1"] {
            assert_eq!(read(other), None, "{other}");
        }
    }
}
