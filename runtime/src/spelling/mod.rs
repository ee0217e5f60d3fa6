//! The spelling of single values: each function appends one complete JSON token (quotes
//! included where Flink writes a string) to a [`sink::ByteSink`]. There is one function per kind of value; the ones that write
//! fixed-size chunks say how many bytes a reserved sink needs (`*_BOUND`, `*_bound`).
pub mod escape;
pub mod scan;
pub mod sink;

use sink::{ByteSink, WindowText};
use std::mem::MaybeUninit;
pub mod base64;
pub mod decimal;
pub mod temporal;

/// Appends a decimal integer (TINYINT to BIGINT), as Java's `Long.toString`.
///
/// Digits are made eight at a time in the lanes of a `u64` (no table, no division loop) and
/// stored as whole words into a 24-byte window of the sink's spare capacity, then cut to length:
/// fixed-size stores compile to a few moves, where appending a slice of the exact length calls
/// `memcpy` (7% of the q0 profile with `itoa`), and the window is the output, so nothing is
/// copied and nothing zeroed first.
#[inline(always)]
pub fn write_int<S: ByteSink>(out: &mut S, v: impl Into<i64>) {
    out.put_window(IntText(v.into()));
}

/// The text of an integer, for [`ByteSink::put_window`].
struct IntText(i64);

// SAFETY: `write_into` stores the sign byte and whole 8-byte words that cover every byte up to
// the length it returns (at most 20 of the 24: a sign and 19 digits).
unsafe impl WindowText<INT_BOUND> for IntText {
    #[inline(always)]
    fn write_into(self, window: &mut Window) -> usize {
        // Stored either way, and kept only when negative: no branch on the sign.
        window[0] = MaybeUninit::new(b'-');
        let sign = usize::from(self.0 < 0);
        sign + put_u64(window, sign, self.0.unsigned_abs())
    }
}

/// The most bytes [`write_int`] writes (its whole window).
pub const INT_BOUND: usize = 24;

type Window = [MaybeUninit<u8>; INT_BOUND];

const TEN_8: u64 = 100_000_000;

/// Writes `v` (<= 2^63) at `window[at..]`; returns the digit count.
#[inline(always)]
fn put_u64(window: &mut Window, at: usize, v: u64) -> usize {
    if v < TEN_8 {
        return put_leading_block(window, at, v as u32);
    }
    if v < TEN_8 * TEN_8 {
        let n = put_leading_block(window, at, (v / TEN_8) as u32);
        put_word(window, at + n, eight_digits((v % TEN_8) as u32));
        return n + 8;
    }
    // At most 2^63: 19 digits, so the top block has at most three.
    let top = v / (TEN_8 * TEN_8);
    let rest = v % (TEN_8 * TEN_8);
    let n = put_leading_block(window, at, top as u32);
    put_word(window, at + n, eight_digits((rest / TEN_8) as u32));
    put_word(window, at + n + 8, eight_digits((rest % TEN_8) as u32));
    n + 16
}

#[inline(always)]
fn put_word(window: &mut Window, at: usize, word: u64) {
    window[at..at + 8].copy_from_slice(&word.to_le_bytes().map(MaybeUninit::new));
}

/// Writes `v` (< 10^8) without leading zeros; returns its digit count (1..=8).
#[inline(always)]
fn put_leading_block(window: &mut Window, at: usize, v: u32) -> usize {
    let values = digit_values(v);
    // Leading zero digits are the low zero bytes of the digit values. A bit set in the last
    // digit's lane stops the count at seven (so 0 keeps its one digit) without a compare.
    let leading_zeros = (values | 1 << 56).trailing_zeros() / 8;
    put_word(window, at, (values + ASCII_ZEROS) >> (8 * leading_zeros));
    8 - leading_zeros as usize
}

const ASCII_ZEROS: u64 = 0x3030_3030_3030_3030;

/// The eight decimal digits of `v` (< 10^8, leading zeros included) as ASCII, most significant
/// digit in the lowest byte.
#[inline(always)]
pub(crate) fn eight_digits(v: u32) -> u64 {
    digit_values(v) + ASCII_ZEROS
}

/// The eight decimal digits of `v` (< 10^8) as byte values 0..=9, most significant digit in the
/// lowest byte: two four-digit halves, split into pairs, split into digits, every lane at once
/// (division by 100 and 10 as multiply-shift, exact for these ranges).
///
/// Each split puts quotient `q` and remainder `x - d * q` of a lane `x` into two lanes of width
/// `w`; that is `(x << w) - q * (d * 2^w - 1)`, one multiply after the quotient where the
/// remainder, its shift and the merge would be three dependent steps. No lane goes negative or
/// out of its width, so the whole-word subtraction borrows across none.
#[inline(always)]
fn digit_values(v: u32) -> u64 {
    let v = u64::from(v);
    let halves = (v << 32) - (v / 10_000) * ((10_000 << 32) - 1);
    let hundreds = ((halves * 10_486) >> 20) & 0x0000_007F_0000_007F;
    let pairs = (halves << 16) - hundreds * ((100 << 16) - 1);
    let tens = ((pairs * 103) >> 10) & 0x000F_000F_000F_000F;
    (pairs << 8) - tens * ((10 << 8) - 1)
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

    /// `v` written by [`write_int`] into a `Vec` and into a reservation, after a byte already there.
    fn both_sinks(v: i64) -> [Vec<u8>; 2] {
        let mut vec_sink = b"x".to_vec();
        write_int(&mut vec_sink, v);
        let mut reserved = b"x".to_vec();
        sink::with_reserved(&mut reserved, INT_BOUND + 1, |w| {
            write_int(w, v);
            w.put_byte(b'|');
        });
        [vec_sink, reserved]
    }

    fn assert_std_spelling(v: i64) {
        let [vec_sink, reserved] = both_sinks(v);
        assert_eq!(vec_sink, format!("x{v}").into_bytes(), "{v}");
        assert_eq!(reserved, format!("x{v}|").into_bytes(), "{v}");
    }

    #[test]
    fn integers_at_every_digit_count_boundary_match_std_formatting() {
        let mut values: Vec<i64> = vec![0, i64::MAX, i64::MIN, i64::MIN + 1, i64::MAX - 1];
        let widths: [(i64, i64); 3] =
            [(i8::MIN.into(), i8::MAX.into()), (i16::MIN.into(), i16::MAX.into()), (i32::MIN.into(), i32::MAX.into())];
        for (min, max) in widths {
            values.extend([min, max, min + 1, max - 1]);
        }
        let mut power = 1i64;
        loop {
            values.extend([power - 1, power, power + 1].into_iter().flat_map(|v| [v, -v]));
            // Both sides of each eight-digit block border, where the writer's route changes.
            values.extend([power.saturating_mul(99_999_999), power.saturating_mul(100_000_000) - 1]);
            match power.checked_mul(10) {
                Some(next) => power = next,
                None => break,
            }
        }
        values.extend((0..200_000).chain(99_900_000..100_100_000).flat_map(|v| [v, -v]));
        values.iter().for_each(|&v| assert_std_spelling(v));
    }

    #[test]
    fn random_integers_of_every_width_match_std_formatting() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1_000_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Any digit count about as often: the value shifted right by 0 to 63 bits.
            assert_std_spelling(state as i64 >> (state % 64));
        }
        (i16::MIN..=i16::MAX).for_each(|v| assert_std_spelling(v.into()));
    }

    #[test]
    fn narrow_widths_write_their_own_extremes() {
        let mut out = Vec::new();
        write_int(&mut out, i8::MIN);
        write_int(&mut out, i16::MAX);
        write_int(&mut out, i32::MIN);
        assert_eq!(out, b"-12832767-2147483648");
    }
}
