//! The spelling of single values: each function appends one complete JSON token (quotes
//! included where Flink writes a string) to a [`sink::ByteSink`]. There is one function per kind of value; the ones that write
//! fixed-size chunks say how many bytes a reserved sink needs (`*_BOUND`, `*_bound`).
pub mod escape;
pub mod scan;
pub mod sink;

use sink::{ByteSink, WindowText};
pub mod base64;
pub mod decimal;
pub mod temporal;

/// Appends a decimal integer (TINYINT to BIGINT), as Java's `Long.toString`.
///
/// Digits are made eight at a time in the lanes of a `u64` and stored as whole words into a
/// fixed 24-byte window of the sink, then cut to length: fixed-size stores compile to a few
/// moves, where appending a slice of the exact length calls `memcpy` (7% of the q0 profile
/// with `itoa`), and a reserved sink's window is its output, so nothing is copied.
#[inline(always)]
pub fn write_int<S: ByteSink>(out: &mut S, v: impl Into<i64>) {
    out.put_window(IntText(v.into()));
}

/// The text of an integer, for [`ByteSink::put_window`].
struct IntText(i64);

impl WindowText<24> for IntText {
    #[inline(always)]
    fn write_into(self, buf: &mut [u8; 24]) -> usize {
        buf[0] = b'-';
        let sign = usize::from(self.0 < 0);
        sign + put_u64(buf, sign, self.0.unsigned_abs())
    }
}

/// The most bytes [`write_int`] writes (its whole buffer).
pub const INT_BOUND: usize = 24;

const TEN_8: u64 = 100_000_000;

/// Writes `v` (< 2^63) at `buf[at..]`; returns the digit count.
#[inline(always)]
fn put_u64(buf: &mut [u8; 24], at: usize, v: u64) -> usize {
    if v < TEN_8 {
        return put_leading_block(buf, at, v as u32);
    }
    if v < TEN_8 * TEN_8 {
        let n = put_leading_block(buf, at, (v / TEN_8) as u32);
        put_word(buf, at + n, eight_digits((v % TEN_8) as u32));
        return n + 8;
    }
    // Below 2^63: at most 19 digits, so the top block has at most three.
    let top = v / (TEN_8 * TEN_8);
    let rest = v % (TEN_8 * TEN_8);
    let n = put_leading_block(buf, at, top as u32);
    put_word(buf, at + n, eight_digits((rest / TEN_8) as u32));
    put_word(buf, at + n + 8, eight_digits((rest % TEN_8) as u32));
    n + 16
}

#[inline(always)]
fn put_word(buf: &mut [u8; 24], at: usize, word: u64) {
    buf[at..at + 8].copy_from_slice(&word.to_le_bytes());
}

/// Writes `v` (< 10^8) without leading zeros; returns its digit count (1..=8).
#[inline(always)]
fn put_leading_block(buf: &mut [u8; 24], at: usize, v: u32) -> usize {
    let digits = eight_digits(v);
    // Leading zero digits are the low zero bytes of the digit values (before adding '0').
    let leading_zeros = (((digits - ASCII_ZEROS).trailing_zeros() / 8) as usize).min(7);
    put_word(buf, at, digits >> (8 * leading_zeros));
    8 - leading_zeros
}

const ASCII_ZEROS: u64 = 0x3030_3030_3030_3030;

/// The eight decimal digits of `v` (< 10^8, leading zeros included) as ASCII, most significant
/// digit in the lowest byte: two four-digit halves, split into pairs, split into digits, every
/// lane at once (division by 100 and 10 as multiply-shift, exact for these ranges).
///
/// Each split puts quotient `q` and remainder `x - d * q` of a lane `x` into two lanes of width
/// `w`; that is `(x << w) - q * (d * 2^w - 1)`, one multiply after the quotient where the
/// remainder, its shift and the merge would be three dependent steps. No lane goes negative or
/// out of its width, so the whole-word subtraction borrows across none.
#[inline(always)]
pub(crate) fn eight_digits(v: u32) -> u64 {
    let v = u64::from(v);
    let halves = (v << 32) - (v / 10_000) * ((10_000 << 32) - 1);
    let hundreds = ((halves * 10_486) >> 20) & 0x0000_007F_0000_007F;
    let pairs = (halves << 16) - hundreds * ((100 << 16) - 1);
    let tens = ((pairs * 103) >> 10) & 0x000F_000F_000F_000F;
    let digits = (pairs << 8) - tens * ((10 << 8) - 1);
    digits + ASCII_ZEROS
}

#[inline]
pub fn write_bool<S: ByteSink>(out: &mut S, v: bool) {
    if v {
        out.put_chunk(b"true", 4);
    } else {
        out.put_chunk(b"false", 5);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_digits_are_the_zero_padded_decimal() {
        let edges = (0..10_000).chain((1..10_000).map(|k| k * 10_000 - 1)).chain(99_990_000..100_000_000);
        for v in (0..100_000_000).step_by(97).chain(edges) {
            assert_eq!(eight_digits(v).to_le_bytes(), *format!("{v:08}").as_bytes(), "{v}");
        }
    }

    #[test]
    fn integers_match_std_formatting() {
        let mut values: Vec<i64> = vec![0, 1, -1, 9, 10, 99, 100, 101, -100, i64::MAX, i64::MIN, i64::MIN + 1];
        let mut power = 1i64;
        while let Some(next) = power.checked_mul(10) {
            values.extend([power - 1, power, power + 1, -power, -(power - 1)]);
            power = next;
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            values.push(state as i64 >> (state % 64));
        }
        values.extend(0..200_000);
        values.extend((0..200_000).map(|k| 99_999_900 + k));
        for v in values {
            let mut out = b"x".to_vec();
            write_int(&mut out, v);
            assert_eq!(out, format!("x{v}").into_bytes(), "{v}");
        }
        let mut out = Vec::new();
        write_int(&mut out, i8::MIN);
        write_int(&mut out, i16::MAX);
        write_int(&mut out, i32::MIN);
        assert_eq!(out, b"-12832767-2147483648");
    }
}
