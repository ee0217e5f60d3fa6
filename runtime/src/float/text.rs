//! A decimal written in Java's layout straight into a sink, from words held in registers.
//!
//! The significand is first scaled to exactly 17 digits (9 for a float's), then cut into its first
//! digit and two words of eight digits made in parallel lanes, so every digit has a fixed place
//! in a frame `d.dddddddddddddddd` and no leading zeros are shifted out. Trailing zeros are
//! counted on those words (no division per zero); the two words are made together
//! ([`super::digit_words`]). Every layout is the digit string with a short
//! run of bytes put in after its first `head` digits
//! (`.` for `ddd.ddd` and `d.dddE..`, `0.`, `0.0` or `0.00` at the front for `0.00ddd`), so all
//! three share one computation: a few shifts of three words. The sign byte, those words and an
//! exponent's word are stored into one window of [`FLOAT_BOUND`] bytes of the sink's spare
//! capacity (one bounds check a value), never assembled on the stack, where reading a whole
//! buffer back after byte and word stores stalls store forwarding.
use super::decimal::{write_decimal, Decimal, POW10};
use super::digit_words::sixteen_digits;
use crate::spelling::eight_digits;
use crate::spelling::sink::{ByteSink, WindowText};
use std::mem::MaybeUninit;

/// The most bytes past its start a float writer stores (a reserved sink must have this much room).
pub const FLOAT_BOUND: usize = 32;

/// Digits of the scaled significand: the frame every layout is cut from.
const FRAME_DIGITS: usize = 17;
/// Digits of the short frame, for significands below 10^9.
const SHORT_DIGITS: usize = 9;
const TEN_8: u64 = 100_000_000;
const ASCII_ZEROS: u64 = 0x3030_3030_3030_3030;

/// A non-zero decimal as the digits Java prints: the first `len` of the 17 frame digits (no
/// trailing zero among them; the frame digits past `len` are ASCII zeros), the decimal point
/// after `point` digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DecimalText {
    /// The first digit, ASCII.
    first: u8,
    /// Frame digits 2 to 9 and 10 to 17, ASCII, the earlier digit in the lower byte.
    high: u64,
    low: u64,
    pub(crate) len: usize,
    pub(crate) point: i32,
}

impl DecimalText {
    /// The digits of `decimal` (significand below 10^17, not zero), trailing zeros dropped.
    /// `float` says the significand is likely below 10^9 (a float's): then that is tested and
    /// such a significand takes a 9-digit frame. A double's decimal rarely is (its significand
    /// usually carries trailing zeros up to 16 or 17 digits), so it skips the test.
    #[inline(always)]
    pub(crate) fn new(decimal: Decimal, float: bool) -> DecimalText {
        if float && decimal.significand < POW10[SHORT_DIGITS] {
            return DecimalText::new_short(decimal);
        }
        // The significand scaled to exactly 17 digits: its first digit is then the frame's first
        // byte, and no leading zeros are counted or shifted out of the digit words.
        let (significand, point) = fill_frame(decimal, FRAME_DIGITS);
        let above_8 = significand / TEN_8;
        let top = (above_8 as u32) / TEN_8 as u32;
        let ([middle, bottom], trailing_zeros) =
            sixteen_digits(above_8 as u32 - top * TEN_8 as u32, (significand - above_8 * TEN_8) as u32);
        DecimalText {
            first: b'0' + top as u8,
            high: middle,
            low: bottom,
            len: (FRAME_DIGITS as u32 - trailing_zeros) as usize,
            point,
        }
    }

    /// As [`DecimalText::new`] for a significand below 10^9 (every float's, the short readings
    /// of doubles): 9 digits, one word of eight and the first, so the frame stays in one register.
    #[inline(always)]
    fn new_short(decimal: Decimal) -> DecimalText {
        let (significand, point) = fill_frame(decimal, SHORT_DIGITS);
        let significand = significand as u32;
        let top = significand / TEN_8 as u32;
        let bottom = eight_digits(significand - top * TEN_8 as u32);
        let trailing_zeros = (bottom - ASCII_ZEROS).leading_zeros() / 8;
        DecimalText {
            first: b'0' + top as u8,
            high: bottom,
            low: ASCII_ZEROS,
            len: (SHORT_DIGITS as u32 - trailing_zeros) as usize,
            point,
        }
    }

    pub(crate) fn first_digit(&self) -> u8 {
        self.first
    }

    /// Whether [`DecimalText::new`] takes `decimal` (every shortest or legacy-route decimal does).
    #[inline(always)]
    pub(crate) fn fits(decimal: Decimal) -> bool {
        decimal.significand != 0 && decimal.significand < POW10[FRAME_DIGITS]
    }

    /// Appends the text, with a `-` first if `negative`, in one window of the sink (one bounds
    /// check a value).
    #[inline(always)]
    pub(crate) fn write<S: ByteSink>(self, out: &mut S, negative: bool) {
        out.put_window(SignedText { text: self, negative });
    }

    /// The text as three words of bytes, its length, and the exponent's word and length in
    /// scientific notation.
    #[inline(always)]
    fn layout(&self) -> ([u64; 3], usize, Option<(u64, usize)>) {
        // The frame as words of the byte string: digits 1-8, 9-16, and the 17th.
        let word0 = u64::from(self.first) | (self.high << 8);
        let word1 = (self.high >> 56) | (self.low << 8);
        let word2 = self.low >> 56;
        if (-2..=0).contains(&self.point) {
            // `0.` and up to two zeros (2 to 4 bytes of "0.00"), then the digits.
            let run = (2 - self.point) as u32;
            let prefix = u64::from(u32::from_le_bytes(*b"0.00")) & low_bytes_mask(run);
            let (shift, back) = (8 * run, 64 - 8 * run);
            let words =
                [prefix | (word0 << shift), (word0 >> back) | (word1 << shift), (word1 >> back) | (word2 << shift)];
            return (words, run as usize + self.len, None);
        }
        let plain = (1..8).contains(&self.point);
        let head = if plain { self.point as u32 } else { 1 };
        // `head` digits, the point, the rest; at least one digit after the point, integer
        // digits past `len` being the frame's zeros. Only the first word moves by a variable
        // amount: the later ones are the frame shifted by the point's one byte.
        let kept = low_bytes_mask(head);
        let point_byte = (kept + 1).wrapping_mul(u64::from(b'.'));
        let words = [
            (word0 & kept) | ((word0 & !kept) << 8) | point_byte,
            (word0 >> 56) | (word1 << 8),
            (word1 >> 56) | (word2 << 8),
        ];
        // The digits and the point, or `head` digits, the point and one digit if that is longer:
        // `head + 1 + max(len - head, 1)` without the subtraction's clamp.
        let text_len = (self.len as u32).max(head + 1) + 1;
        let exponent = if plain { None } else { Some(exponent_text(self.point - 1)) };
        (words, text_len as usize, exponent)
    }
}

/// A decimal's text and its sign, for [`ByteSink::put_window`].
struct SignedText {
    text: DecimalText,
    negative: bool,
}

type Window = [MaybeUninit<u8>; FLOAT_BOUND];

// SAFETY: `write_into` stores the sign byte, the three words from `sign` (bytes up to 25), and
// in scientific notation the exponent's word right after the text; the length it returns ends
// within those stores: the text is at most 21 bytes (`0.00` and 17 digits) and at most 18 in
// scientific notation, whose exponent takes at most 5 of its word's 8 bytes (`1 + 18 + 8 <= 32`).
unsafe impl WindowText<FLOAT_BOUND> for SignedText {
    #[inline(always)]
    fn write_into(self, window: &mut Window) -> usize {
        // Stored either way, and kept only when negative: no branch on the sign.
        window[0] = MaybeUninit::new(b'-');
        let sign = usize::from(self.negative);
        let (words, text_len, exponent) = self.text.layout();
        for (index, word) in words.into_iter().enumerate() {
            put_word(window, sign + 8 * index, word);
        }
        let end = sign + text_len;
        match exponent {
            Some((word, len)) => {
                put_word(window, end, word);
                end + len
            }
            None => end,
        }
    }
}

/// Stores `word`'s bytes, low byte first, at `window[at..at + 8]`.
#[inline(always)]
fn put_word(window: &mut Window, at: usize, word: u64) {
    window[at..at + 8].copy_from_slice(&word.to_le_bytes().map(MaybeUninit::new));
}

/// The low `count` (0..=7) bytes of a word set.
#[inline(always)]
fn low_bytes_mask(count: u32) -> u64 {
    LOW_BYTES_MASKS[count as usize & 7]
}

/// A table, not a shift: a variable shift is three micro-ops on x86-64 without BMI2.
const LOW_BYTES_MASKS: [u64; 8] = {
    let mut masks = [0u64; 8];
    let mut count = 1;
    while count < 8 {
        masks[count] = (1 << (8 * count)) - 1;
        count += 1;
    }
    masks
};

/// The significand of `decimal` (not zero, below `10^frame`) times the power of ten that gives
/// it exactly `frame` digits, and the decimal point's place: after `point` of those digits.
#[inline(always)]
fn fill_frame(decimal: Decimal, frame: usize) -> (u64, i32) {
    let significand = decimal.significand;
    // The top bit's index (the `| 1` tells the compiler the operand is not zero, which saves
    // the zero case of the count), then the digit count by tables, not by multiplying.
    let top_bit = 63 - (significand | 1).leading_zeros();
    let (guess, power) = DIGITS_BELOW[top_bit as usize & 63];
    let digits = guess + usize::from(significand >= power);
    let scales = if frame == SHORT_DIGITS { &SHORT_FRAME_SCALES } else { &FRAME_SCALES };
    (significand * scales[digits & 31], decimal.exponent + digits as i32)
}

/// By the index `b` of a number's top bit, its digit count or one less, `guess =
/// floor((b + 1) log10 2)` (1233 / 4096 is just above log10 2, and close enough here), and
/// `10^guess`, which the number reaches exactly when it has one digit more.
const DIGITS_BELOW: [(usize, u64); 64] = {
    let mut table = [(0, 1); 64];
    let mut bit = 0;
    while bit < 64 {
        let guess = ((bit + 1) * 1233) >> 12;
        table[bit] = (guess, POW10[guess]);
        bit += 1;
    }
    table
};

/// `10^(frame - digits)` by a significand's digit count (`1..=frame` for the significands a frame
/// takes; the rest of the table is never read for them).
const fn frame_scales(frame: usize) -> [u64; 32] {
    let mut table = [1; 32];
    let mut digits = 0;
    while digits < frame {
        table[digits] = POW10[frame - digits];
        digits += 1;
    }
    table
}

const FRAME_SCALES: [u64; 32] = frame_scales(FRAME_DIGITS);
const SHORT_FRAME_SCALES: [u64; 32] = frame_scales(SHORT_DIGITS);

/// `E`, a `-` for a negative exponent, then its 1 to 3 digits, as the low bytes of a word.
#[inline(always)]
fn exponent_text(exponent: i32) -> (u64, usize) {
    let magnitude = exponent.unsigned_abs();
    let digit_count = 1 + u32::from(magnitude >= 10) + u32::from(magnitude >= 100);
    let (hundreds, rest) = (magnitude / 100, magnitude % 100);
    let three_digits = u64::from(hundreds) | (u64::from(rest / 10) << 8) | (u64::from(rest % 10) << 16);
    // Leading zero digits are shifted out of the low bytes.
    let digits = (three_digits + 0x30_3030) >> (8 * (3 - digit_count));
    let sign = u32::from(exponent < 0);
    let minus = (u64::from(b'-') << 8) & low_bytes_mask(1 + sign);
    let word = u64::from(b'E') | minus | (digits << (8 * (1 + sign)));
    (word, (1 + sign + digit_count) as usize)
}

/// Appends a shortest decimal (JDK 19's digits of a non-zero value: `0 < significand < 10^17`,
/// as every route of [`super::jdk19`] gives) in Java's layout, without [`DecimalText::fits`]'s
/// test; `float` as for [`DecimalText::new`].
#[inline(always)]
pub(crate) fn write_shortest_text<S: ByteSink>(out: &mut S, negative: bool, decimal: Decimal, float: bool) {
    debug_assert!(DecimalText::fits(decimal), "{decimal:?}");
    DecimalText::new(decimal, float).write(out, negative);
}

/// Appends `decimal` (non-zero, trailing zeros allowed) in Java's layout; `float` as for
/// [`DecimalText::new`].
#[inline(always)]
pub(crate) fn write_decimal_text<S: ByteSink>(out: &mut S, negative: bool, decimal: Decimal, float: bool) {
    if DecimalText::fits(decimal) {
        DecimalText::new(decimal, float).write(out, negative);
    } else {
        write_decimal(out, negative, decimal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text from the double frame, checked equal to the float frame's.
    fn text(significand: u64, exponent: i32, negative: bool) -> String {
        let [double, float] = [false, true].map(|float| {
            let mut out = b"x".to_vec();
            write_decimal_text(&mut out, negative, Decimal { significand, exponent }, float);
            String::from_utf8(out[1..].to_vec()).unwrap()
        });
        assert_eq!(double, float, "{significand}e{exponent}");
        double
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
