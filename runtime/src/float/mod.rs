//! Java's `Double.toString` / `Float.toString`, exactly, for both JVM generations.
//!
//! `FloatSpelling::Jdk17` reproduces the legacy `FloatingDecimal` digits (JDK <= 18);
//! `FloatSpelling::Jdk19` the shortest-decimal algorithm of JDK >= 19. Both generations share
//! the layout: plain `ddd.ddd` for `1e-3 <= |x| < 1e7`, else `d.dddE<exp>`, always with a digit
//! after the point and no `+` in the exponent.
//!
//! The writers append to any [`ByteSink`] in fixed-size stores that reach at most [`FLOAT_BOUND`]
//! bytes past where they start, so a reserved sink takes them without a scratch buffer.
use crate::options::FloatSpelling;
use crate::spelling::sink::ByteSink;
use decimal::write_layout;
use jdk17::Legacy;
pub use text::FLOAT_BOUND;
use text::{write_decimal_text, write_shortest_text};

mod bignum;
mod decimal;
mod digit_words;
mod digits;
mod jdk17;
mod jdk19;
mod pow10_table;
#[cfg(test)]
mod tests;
mod text;

/// Appends `v` as Flink's JSON writes a DOUBLE: Java's `Double.toString` for finite values,
/// `"NaN"`, `"Infinity"`, `"-Infinity"` (with the quotes) otherwise.
#[inline]
pub fn write_f64_json<S: ByteSink>(out: &mut S, v: f64, spelling: FloatSpelling) {
    if !v.is_finite() {
        out.put(quoted_non_finite(v.is_nan(), v.is_sign_negative()));
        return;
    }
    write_f64_finite(out, v, spelling);
}

/// Appends `v` as Flink's JSON writes a FLOAT (never widened to double).
#[inline]
pub fn write_f32_json<S: ByteSink>(out: &mut S, v: f32, spelling: FloatSpelling) {
    if !v.is_finite() {
        out.put(quoted_non_finite(v.is_nan(), v.is_sign_negative()));
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

// Inlined into the row loops: a call spilled six registers and reloaded the sink per value
// (17 instructions a value; see docs/performance.md).
#[inline(always)]
fn write_f64_finite<S: ByteSink>(out: &mut S, v: f64, spelling: FloatSpelling) {
    let bits = v.to_bits();
    let negative = bits >> 63 != 0;
    let magnitude = bits & !(1 << 63);
    if magnitude == 0 {
        write_zero(out, negative);
        return;
    }
    match spelling {
        FloatSpelling::Jdk17 => match jdk17::f64_legacy_text(magnitude) {
            Some(text) => text.write(out, negative),
            None => write_legacy(out, negative, jdk17::f64_legacy_apart(magnitude), false),
        },
        FloatSpelling::Jdk19 => write_shortest_text(out, negative, jdk19::f64_shortest(magnitude), false),
    }
}

/// As [`write_f64_finite`].
#[inline(always)]
fn write_f32_finite<S: ByteSink>(out: &mut S, v: f32, spelling: FloatSpelling) {
    let bits = v.to_bits();
    let negative = bits >> 31 != 0;
    let magnitude = bits & !(1 << 31);
    if magnitude == 0 {
        write_zero(out, negative);
        return;
    }
    match spelling {
        FloatSpelling::Jdk17 => match jdk17::f32_legacy_text(magnitude) {
            Some(text) => text.write(out, negative),
            None => write_legacy(out, negative, jdk17::f32_legacy_apart(magnitude), true),
        },
        FloatSpelling::Jdk19 => write_shortest_text(out, negative, jdk19::f32_shortest(magnitude), true),
    }
}

fn write_zero<S: ByteSink>(out: &mut S, negative: bool) {
    if negative {
        out.put_chunk(b"-0.0", 4);
    } else {
        out.put_chunk(b"0.0", 3);
    }
}

#[inline(always)]
fn write_legacy<S: ByteSink>(out: &mut S, negative: bool, legacy: Legacy, float: bool) {
    match legacy {
        Legacy::Decimal(decimal) => write_decimal_text(out, negative, decimal, float),
        Legacy::Text(text) => text.write(out, negative),
        Legacy::Digits(digits) => write_layout(out, negative, digits.as_slice(), digits.point),
    }
}
