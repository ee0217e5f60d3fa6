//! A decimal written in Java's layout straight into a sink, in one fixed-size store.
//!
//! The significand is scaled to exactly 17 digits (`d.dddddddddddddddd`), so every digit has a
//! fixed place: the first digit alone, the next sixteen as two words of eight ASCII digits made
//! in parallel lanes. Trailing zeros are counted on those words (no division per zero), and the
//! layout is a few fixed-size copies at offsets known from the decimal point. The text is built
//! in a 32-byte block and stored whole, then cut to length, so a reserved sink needs
//! [`FLOAT_BOUND`] bytes.
use super::decimal::{decimal_len, write_decimal, Decimal, POW10};
use crate::format::eight_digits;
use crate::format::sink::ByteSink;

/// The most bytes a float writer stores at once (a reserved sink must have this much room).
pub const FLOAT_BOUND: usize = 32;

/// Digits of the scaled significand: the frame every layout is cut from.
const FRAME_DIGITS: usize = 17;
const TEN_8: u64 = 100_000_000;
const TEN_16: u64 = TEN_8 * TEN_8;
const ASCII_ZEROS: u64 = 0x3030_3030_3030_3030;

/// A non-zero decimal as the digits Java prints: the first `len` bytes of `digits` (no trailing
/// zero among them), followed by ASCII zeros; the decimal point after `point` digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DecimalText {
    digits: [u8; 24],
    pub(crate) len: usize,
    pub(crate) point: i32,
}

impl DecimalText {
    /// The digits of `decimal` (significand below 10^17, not zero), trailing zeros dropped.
    #[inline(always)]
    pub(crate) fn new(decimal: Decimal) -> DecimalText {
        let unscaled_len = decimal_len(decimal.significand);
        let scaled = decimal.significand * POW10[FRAME_DIGITS - unscaled_len];
        let first = scaled / TEN_16;
        let rest = scaled - first * TEN_16;
        let (high, low) = (eight_digits((rest / TEN_8) as u32), eight_digits((rest % TEN_8) as u32));
        // The last digit of a word is its highest byte: zero digit values there are trailing zeros.
        let lanes = u128::from(high - ASCII_ZEROS) | (u128::from(low - ASCII_ZEROS) << 64);
        let trailing_zeros = (lanes.leading_zeros() / 8) as usize;
        let mut digits = [b'0'; 24];
        digits[0] = b'0' + first as u8;
        digits[1..9].copy_from_slice(&high.to_le_bytes());
        digits[9..17].copy_from_slice(&low.to_le_bytes());
        DecimalText { digits, len: FRAME_DIGITS - trailing_zeros, point: decimal.exponent + unscaled_len as i32 }
    }

    pub(crate) fn first_digit(&self) -> u8 {
        self.digits[0]
    }

    /// Whether [`DecimalText::new`] takes `decimal` (every shortest or legacy-route decimal does).
    #[inline(always)]
    pub(crate) fn fits(decimal: Decimal) -> bool {
        decimal.significand != 0 && decimal.significand < POW10[FRAME_DIGITS]
    }

    /// Appends the text, with a `-` first if `negative`.
    #[inline(always)]
    pub(crate) fn write<S: ByteSink>(&self, out: &mut S, negative: bool) {
        let mut text = [b'-'; FLOAT_BOUND];
        let start = usize::from(negative);
        let end = if (1..8).contains(&self.point) {
            self.write_plain(&mut text, start, self.point as usize)
        } else if (-2..=0).contains(&self.point) {
            self.write_below_one(&mut text, start, self.point.unsigned_abs() as usize)
        } else {
            self.write_scientific(&mut text, start)
        };
        out.put_chunk(&text, end);
    }

    /// `ddd.ddd` with the point after `point` (1..=7) digits; at least one digit after it.
    #[inline(always)]
    fn write_plain(&self, text: &mut [u8; FLOAT_BOUND], start: usize, point: usize) -> usize {
        // Integer digits past `len` are the frame's zeros (`100.0`).
        text[start..start + 8].copy_from_slice(&self.digits[..8]);
        text[start + point] = b'.';
        text[start + point + 1..start + point + 17].copy_from_slice(&self.digits[point..point + 16]);
        start + point + 1 + self.len.saturating_sub(point).max(1)
    }

    /// `0.` then `zeros` (0..=2) zeros then the digits.
    #[inline(always)]
    fn write_below_one(&self, text: &mut [u8; FLOAT_BOUND], start: usize, zeros: usize) -> usize {
        text[start..start + 4].copy_from_slice(b"0.00");
        text[start + 2 + zeros..start + 2 + zeros + FRAME_DIGITS].copy_from_slice(&self.digits[..FRAME_DIGITS]);
        start + 2 + zeros + self.len
    }

    /// `d.dddE<exponent>`: at least one digit after the point, no `+` in the exponent.
    #[inline(always)]
    fn write_scientific(&self, text: &mut [u8; FLOAT_BOUND], start: usize) -> usize {
        text[start] = self.digits[0];
        text[start + 1] = b'.';
        text[start + 2..start + 18].copy_from_slice(&self.digits[1..17]);
        let at = start + 2 + (self.len - 1).max(1);
        let exponent = self.point - 1;
        let (word, len) = exponent_text(exponent);
        text[at..at + 8].copy_from_slice(&word.to_le_bytes());
        at + len
    }
}

/// `E`, a `-` for a negative exponent, then its 1 to 3 digits, as the low bytes of a word.
#[inline(always)]
fn exponent_text(exponent: i32) -> (u64, usize) {
    let magnitude = exponent.unsigned_abs();
    let (mut word, mut len) = (u64::from(b'E'), 1);
    if exponent < 0 {
        word |= u64::from(b'-') << 8;
        len += 1;
    }
    let digits = decimal_len(u64::from(magnitude));
    let mut rest = magnitude;
    for place in (0..digits).rev() {
        word |= u64::from(b'0' + (rest % 10) as u8) << (8 * (len + place));
        rest /= 10;
    }
    (word, len + digits)
}

/// Appends `decimal` (non-zero, trailing zeros allowed) in Java's layout.
#[inline(always)]
pub(crate) fn write_decimal_text<S: ByteSink>(out: &mut S, negative: bool, decimal: Decimal) {
    if DecimalText::fits(decimal) {
        DecimalText::new(decimal).write(out, negative);
    } else {
        write_decimal(out, negative, decimal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(significand: u64, exponent: i32, negative: bool) -> String {
        let mut out = b"x".to_vec();
        write_decimal_text(&mut out, negative, Decimal { significand, exponent });
        String::from_utf8(out[1..].to_vec()).unwrap()
    }

    #[test]
    fn matches_the_reference_layout_on_every_point_and_length() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for len in 1..=17u32 {
            for exponent in -330..=320 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let low = 10u64.pow(len - 1);
                let mut significand = low + state % (9 * low);
                if state.is_multiple_of(3) {
                    significand -= significand % 10u64.pow((state % u64::from(len)) as u32);
                }
                for negative in [false, true] {
                    let mut expected = Vec::new();
                    write_decimal(&mut expected, negative, Decimal { significand, exponent });
                    let expected = String::from_utf8(expected).unwrap();
                    assert_eq!(text(significand, exponent, negative), expected, "{significand}e{exponent}");
                }
            }
        }
    }

    #[test]
    fn layouts_by_example() {
        for (significand, exponent, expected) in [
            (1, 0, "1.0"),
            (100, 0, "100.0"),
            (1_000_000, 0, "1000000.0"),
            (10_000_000, 0, "1.0E7"),
            (12_345_678, -1, "1234567.8"),
            (1, -3, "0.001"),
            (1, -4, "1.0E-4"),
            (17_976_931_348_623_157, 292, "1.7976931348623157E308"),
            (49, -325, "4.9E-324"),
            (99_999_999_999_999_999, 0, "9.9999999999999999E16"),
            (18_446_744_073_709_551_615, 0, "1.8446744073709551615E19"),
        ] {
            assert_eq!(text(significand, exponent, false), expected);
        }
    }
}
