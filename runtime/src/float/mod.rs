//! Java's `Double.toString` / `Float.toString`, exactly, for both JVM generations.
//!
//! `FloatSpelling::Jdk17` reproduces the legacy `FloatingDecimal` digits (JDK <= 18);
//! `FloatSpelling::Jdk19` the shortest-decimal algorithm of JDK >= 19. Both generations share
//! the layout: plain `ddd.ddd` for `1e-3 <= |x| < 1e7`, else `d.dddE<exp>`, always with a digit
//! after the point and no `+` in the exponent.
//!
//! The writers append to a caller's buffer and never allocate beyond growing it.
use crate::options::FloatSpelling;

mod bignum;
mod jdk17;
mod jdk19;
mod pow10_table;
#[cfg(test)]
mod tests;

/// Appends `v` as Flink's JSON writes a DOUBLE: Java's `Double.toString` for finite values,
/// `"NaN"`, `"Infinity"`, `"-Infinity"` (with the quotes) otherwise.
pub fn write_f64_json(out: &mut Vec<u8>, v: f64, spelling: FloatSpelling) {
    if !v.is_finite() {
        out.extend_from_slice(quoted_non_finite(v.is_nan(), v.is_sign_negative()));
        return;
    }
    write_f64_finite(out, v, spelling);
}

/// Appends `v` as Flink's JSON writes a FLOAT (never widened to double).
pub fn write_f32_json(out: &mut Vec<u8>, v: f32, spelling: FloatSpelling) {
    if !v.is_finite() {
        out.extend_from_slice(quoted_non_finite(v.is_nan(), v.is_sign_negative()));
        return;
    }
    write_f32_finite(out, v, spelling);
}

/// Java's `Double.toString(v)` of the given JDK generation (`NaN`, `Infinity` unquoted).
pub fn java_double_to_string(v: f64, spelling: FloatSpelling) -> String {
    let mut out = Vec::with_capacity(32);
    if v.is_finite() {
        write_f64_finite(&mut out, v, spelling);
    } else {
        out.extend_from_slice(bare_non_finite(v.is_nan(), v.is_sign_negative()));
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Java's `Float.toString(v)` of the given JDK generation (`NaN`, `Infinity` unquoted).
pub fn java_float_to_string(v: f32, spelling: FloatSpelling) -> String {
    let mut out = Vec::with_capacity(32);
    if v.is_finite() {
        write_f32_finite(&mut out, v, spelling);
    } else {
        out.extend_from_slice(bare_non_finite(v.is_nan(), v.is_sign_negative()));
    }
    String::from_utf8(out).unwrap_or_default()
}

fn quoted_non_finite(is_nan: bool, negative: bool) -> &'static [u8] {
    match (is_nan, negative) {
        (true, _) => b"\"NaN\"",
        (false, false) => b"\"Infinity\"",
        (false, true) => b"\"-Infinity\"",
    }
}

fn bare_non_finite(is_nan: bool, negative: bool) -> &'static [u8] {
    let quoted = quoted_non_finite(is_nan, negative);
    &quoted[1..quoted.len() - 1]
}

fn write_f64_finite(out: &mut Vec<u8>, v: f64, spelling: FloatSpelling) {
    let bits = v.to_bits();
    let negative = bits >> 63 != 0;
    let magnitude = bits & !(1 << 63);
    if magnitude == 0 {
        out.extend_from_slice(if negative { b"-0.0" } else { b"0.0" });
        return;
    }
    let digits = match spelling {
        FloatSpelling::Jdk17 => jdk17::f64_digits(magnitude),
        FloatSpelling::Jdk19 => jdk19::f64_digits(magnitude),
    };
    write_layout(out, negative, &digits);
}

fn write_f32_finite(out: &mut Vec<u8>, v: f32, spelling: FloatSpelling) {
    let bits = v.to_bits();
    let negative = bits >> 31 != 0;
    let magnitude = bits & !(1 << 31);
    if magnitude == 0 {
        out.extend_from_slice(if negative { b"-0.0" } else { b"0.0" });
        return;
    }
    let digits = match spelling {
        FloatSpelling::Jdk17 => jdk17::f32_digits(magnitude),
        FloatSpelling::Jdk19 => jdk19::f32_digits(magnitude),
    };
    write_layout(out, negative, &digits);
}

/// Capacity of [`DecimalDigits`]; the legacy algorithm's digit buffer has the same size.
const MAX_DIGITS: usize = 20;

/// A decimal `0.d1 d2 ... dn * 10^point`, digits as ASCII.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DecimalDigits {
    bytes: [u8; MAX_DIGITS],
    len: usize,
    point: i32,
}

impl DecimalDigits {
    fn empty() -> Self {
        DecimalDigits { bytes: [b'0'; MAX_DIGITS], len: 0, point: 0 }
    }

    /// `significand * 10^exponent`, trailing zeros of the significand removed.
    fn from_significand(mut significand: u64, exponent: i32) -> Self {
        let mut point = exponent;
        while significand != 0 && significand.is_multiple_of(10) {
            significand /= 10;
            point += 1;
        }
        let mut digits = DecimalDigits::empty();
        digits.push_integer(significand);
        digits.point = point + digits.len as i32;
        digits
    }

    fn is_full(&self) -> bool {
        self.len == MAX_DIGITS
    }

    /// Appends one digit (0..=9; other values only if the caller's invariants broke).
    fn push_digit(&mut self, digit: i64) {
        if self.len < MAX_DIGITS {
            self.bytes[self.len] = b'0'.wrapping_add(digit as u8);
            self.len += 1;
        }
    }

    /// Appends the decimal digits of `value`.
    fn push_integer(&mut self, mut value: u64) {
        let mut reversed = [0u8; MAX_DIGITS];
        let mut count = 0;
        loop {
            reversed[count] = b'0' + (value % 10) as u8;
            count += 1;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        for &digit in reversed[..count].iter().rev() {
            self.push_digit(i64::from(digit - b'0'));
        }
    }

    fn last_digit_is_odd(&self) -> bool {
        self.len > 0 && self.bytes[self.len - 1] & 1 == 1
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Java's layout of a decimal: `point` in `1..=7` plain, `-2..=0` as `0.00ddd`, else computerized
/// scientific notation. Digits are written as given (the legacy algorithm can leave a trailing
/// zero digit, and Java prints it).
fn write_layout(out: &mut Vec<u8>, negative: bool, decimal: &DecimalDigits) {
    let digits = decimal.as_slice();
    let point = decimal.point;
    // Longest: sign, 20 digits, point, "E-", three exponent digits; or "0.00" + 20 digits.
    let mut text = TextBuffer::new();
    if negative {
        text.push(b'-');
    }
    if (1..8).contains(&point) {
        let integer_len = digits.len().min(point as usize);
        text.extend(&digits[..integer_len]);
        text.push_zeros(point as usize - integer_len);
        text.push(b'.');
        if digits.len() > integer_len {
            text.extend(&digits[integer_len..]);
        } else {
            text.push(b'0');
        }
    } else if (-2..=0).contains(&point) {
        text.extend(b"0.");
        text.push_zeros((-point) as usize);
        text.extend(digits);
    } else {
        text.extend(&digits[..1.min(digits.len())]);
        text.push(b'.');
        if digits.len() > 1 {
            text.extend(&digits[1..]);
        } else {
            text.push(b'0');
        }
        text.push(b'E');
        let exponent = point - 1;
        if exponent < 0 {
            text.push(b'-');
        }
        text.push_exponent(exponent.unsigned_abs());
    }
    out.extend_from_slice(text.as_slice());
}

/// A fixed stack buffer for one formatted number.
struct TextBuffer {
    bytes: [u8; 32],
    len: usize,
}

impl TextBuffer {
    fn new() -> Self {
        TextBuffer { bytes: [0; 32], len: 0 }
    }

    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = byte;
            self.len += 1;
        }
    }

    fn extend(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.push(byte);
        }
    }

    fn push_zeros(&mut self, count: usize) {
        for _ in 0..count {
            self.push(b'0');
        }
    }

    /// 1 to 3 digits, no leading zeros.
    fn push_exponent(&mut self, exponent: u32) {
        if exponent >= 100 {
            self.push(b'0' + (exponent / 100) as u8);
        }
        if exponent >= 10 {
            self.push(b'0' + (exponent / 10 % 10) as u8);
        }
        self.push(b'0' + (exponent % 10) as u8);
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}
