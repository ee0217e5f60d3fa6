//! Java's text layout of a decimal, written in one copy into the caller's buffer.
//!
//! Plain `ddd.ddd` when the decimal point falls after 1 to 7 digits (`1e-3 <= |x| < 1e7`),
//! `0.00ddd` for 1e-3 <= |x| < 1, else computerized scientific notation `d.dddE<exp>`; always a
//! digit after the point, no `+` in the exponent.
//!
//! This is the general writer, for any digit string; [`super::text`] is the fast one for the
//! decimals of the shortest and legacy routes.
use crate::spelling::sink::ByteSink;

/// A decimal `significand * 10^exponent`; the significand may end in zeros.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decimal {
    pub(crate) significand: u64,
    pub(crate) exponent: i32,
}

impl Decimal {
    /// The same value with the trailing zeros of the significand removed.
    pub(crate) fn without_trailing_zeros(self) -> Decimal {
        let Decimal { mut significand, mut exponent } = self;
        if significand == 0 {
            return self;
        }
        // Large steps first: a 17-digit significand can carry 16 zeros.
        for (power, digits) in [(100_000_000, 8), (100_000_000, 8), (10_000, 4), (100, 2), (10, 1)] {
            if significand.is_multiple_of(power) {
                significand /= power;
                exponent += digits;
            }
        }
        Decimal { significand, exponent }
    }
}

/// `10^n` for `n` in `0..20`.
pub(crate) const POW10: [u64; 20] = {
    let mut table = [1u64; 20];
    let mut n = 1;
    while n < 20 {
        table[n] = table[n - 1] * 10;
        n += 1;
    }
    table
};

/// Appends `decimal` in Java's layout, with its trailing zeros removed.
pub(crate) fn write_decimal<S: ByteSink>(out: &mut S, negative: bool, decimal: Decimal) {
    let decimal = decimal.without_trailing_zeros();
    let mut itoa_buffer = itoa::Buffer::new();
    let digits = itoa_buffer.format(decimal.significand).as_bytes();
    write_layout(out, negative, digits, decimal.exponent + digits.len() as i32);
}

/// Appends the decimal `0.d1 d2 ... dn * 10^point` in Java's layout. Digits are written as given
/// (the legacy algorithm can leave a trailing zero digit, and Java prints it).
pub(crate) fn write_layout<S: ByteSink>(out: &mut S, negative: bool, digits: &[u8], point: i32) {
    let digits = if digits.is_empty() { b"0" } else { digits };
    let len = digits.len().min(20);
    let digits = &digits[..len];
    // Longest: sign, 20 digits, point, "E-", three exponent digits; or "-0.00" + 20 digits.
    // Every byte but the first is a '0' until written: the zeros of "100.0" or "0.001" need no loop.
    let mut text = [b'0'; 48];
    text[0] = b'-';
    let start = usize::from(negative);
    let end = if (1..8).contains(&point) {
        write_plain(&mut text[start..], digits, point as usize)
    } else if (-2..=0).contains(&point) {
        write_below_one(&mut text[start..], digits, point.unsigned_abs() as usize)
    } else {
        write_scientific(&mut text[start..], digits, point - 1)
    };
    out.put(&text[..start + end]);
}

/// `ddd.ddd` (the point after `point` digits); `text` is pre-filled with `'0'`.
fn write_plain(text: &mut [u8], digits: &[u8], point: usize) -> usize {
    let len = digits.len();
    if len <= point {
        text[..len].copy_from_slice(digits);
        text[point] = b'.';
        return point + 2;
    }
    text[..point].copy_from_slice(&digits[..point]);
    text[point] = b'.';
    text[point + 1..len + 1].copy_from_slice(&digits[point..]);
    len + 1
}

/// `0.` then `zeros` zeros then the digits; `text` after its first byte is pre-filled with `'0'`.
fn write_below_one(text: &mut [u8], digits: &[u8], zeros: usize) -> usize {
    text[0] = b'0';
    text[1] = b'.';
    let start = 2 + zeros;
    text[start..start + digits.len()].copy_from_slice(digits);
    start + digits.len()
}

/// `d.dddE<exponent>`; `text` is pre-filled with `'0'`.
fn write_scientific(text: &mut [u8], digits: &[u8], exponent: i32) -> usize {
    let len = digits.len();
    text[0] = digits[0];
    text[1] = b'.';
    let mut end = if len > 1 {
        text[2..len + 1].copy_from_slice(&digits[1..]);
        len + 1
    } else {
        3
    };
    text[end] = b'E';
    end += 1;
    if exponent < 0 {
        text[end] = b'-';
        end += 1;
    }
    let magnitude = exponent.unsigned_abs();
    if magnitude >= 100 {
        text[end] = b'0' + (magnitude / 100) as u8;
        end += 1;
    }
    if magnitude >= 10 {
        text[end] = b'0' + (magnitude / 10 % 10) as u8;
        end += 1;
    }
    text[end] = b'0' + (magnitude % 10) as u8;
    end + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_zeros_are_removed_in_any_count() {
        for zeros in 0..=18 {
            let decimal = Decimal { significand: 7 * 10u64.pow(zeros), exponent: -3 };
            let expected = Decimal { significand: 7, exponent: -3 + zeros as i32 };
            assert_eq!(decimal.without_trailing_zeros(), expected, "{zeros} zeros");
        }
        let odd = Decimal { significand: 12_345_678_901_234_567, exponent: 0 };
        assert_eq!(odd.without_trailing_zeros(), odd);
    }

    #[test]
    fn layout_covers_every_notation() {
        let cases: &[(&[u8], i32, &str)] = &[
            (b"1", 1, "1.0"),
            (b"15", 1, "1.5"),
            (b"1", 7, "1000000.0"),
            (b"1234567", 7, "1234567.0"),
            (b"12345678", 7, "1234567.8"),
            (b"1", 0, "0.1"),
            (b"1", -2, "0.001"),
            (b"1", -3, "1.0E-4"),
            (b"1", 8, "1.0E7"),
            (b"17976931348623157", 309, "1.7976931348623157E308"),
            (b"49", -323, "4.9E-324"),
            (b"20", -2, "0.0020"),
        ];
        for &(digits, point, expected) in cases {
            let mut out = Vec::new();
            write_layout(&mut out, false, digits, point);
            assert_eq!(String::from_utf8(out).unwrap(), expected);
            let mut out = b"x".to_vec();
            write_layout(&mut out, true, digits, point);
            assert_eq!(String::from_utf8(out).unwrap(), format!("x-{expected}"));
        }
    }
}
