//! The Java library calls Flink's converters make on a token's text, with Java's results:
//! `String.trim`, `Integer.parseInt`, `Double.parseDouble`, `new BigDecimal`, `getBytes(UTF_8)`.
use std::borrow::Cow;

/// Java's `String.trim()`: strips code units up to U+0020 at both ends.
pub(crate) fn trim(units: &[u16]) -> &[u16] {
    let start = units.iter().position(|&u| u > 0x20).unwrap_or(units.len());
    let end = units.iter().rposition(|&u| u > 0x20).map_or(start, |i| i + 1);
    &units[start..end]
}

/// Java's `String.getBytes(UTF_8)`: a lone surrogate becomes `?`.
pub(crate) fn utf8(units: &[u16], out: &mut Vec<u8>) {
    let mut rest = units;
    while !rest.is_empty() {
        // ASCII runs are copied as bytes; an ASCII unit ends any surrogate pair anyway.
        let ascii = rest.iter().position(|&u| u >= 0x80).unwrap_or(rest.len());
        out.extend(rest[..ascii].iter().map(|&u| u as u8));
        let other = rest[ascii..].iter().position(|&u| u < 0x80).map_or(rest.len(), |n| ascii + n);
        for c in char::decode_utf16(rest[ascii..other].iter().copied()) {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.unwrap_or('?').encode_utf8(&mut buf).as_bytes());
        }
        rest = &rest[other..];
    }
}

pub(crate) fn to_utf8(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len());
    utf8(units, &mut out);
    out
}

/// The text when every unit is ASCII (numbers, dates); other text never parses as those.
pub(crate) fn ascii(units: &[u16]) -> Option<String> {
    units.iter().map(|&u| (u < 0x80).then_some(u as u8 as char)).collect()
}

/// `Integer.parseInt` / `Long.parseLong` (radix 10, ASCII digits) with a range.
pub(crate) fn parse_integer(units: &[u16], min: i128, max: i128) -> Result<i128, String> {
    let text = ascii(units).ok_or_else(|| number_format(units))?;
    let digits = text.strip_prefix(['+', '-']).unwrap_or(&text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(number_format(units));
    }
    let value: i128 = match text.parse::<i128>() {
        Ok(value) => value,
        Err(_) => return Err(number_format(units)),
    };
    if value < min || value > max {
        return Err(match max {
            127 | 32767 => format!("Value out of range. Value:\"{text}\" Radix:10"),
            _ => number_format(units),
        });
    }
    Ok(value)
}

fn number_format(units: &[u16]) -> String {
    number_format_text(&String::from_utf16_lossy(units))
}

/// `NumberFormatException`'s message for `text`.
pub(crate) fn number_format_text(text: &str) -> String {
    format!("For input string: \"{text}\"")
}

/// `Double.parseDouble` after `trim`: Java's grammar (`NaN`, `Infinity`, signs, hex, `f`/`d`
/// suffixes) with correct rounding.
pub(crate) fn parse_double(units: &[u16]) -> Result<f64, String> {
    let text = ascii(trim(units)).ok_or_else(|| number_format(units))?;
    double_text(&text).ok_or_else(|| number_format(units))
}

/// `Double.parseDouble` of trimmed ASCII text.
pub(crate) fn double_text(text: &str) -> Option<f64> {
    java_float_text(text).and_then(|t| parse_java_float(&t))
}

/// `Float.parseFloat` of trimmed ASCII text.
pub(crate) fn float_text(text: &str) -> Option<f32> {
    java_float_text(text).and_then(|t| parse_java_f32(&t))
}

/// `Float.parseFloat`: rounded once, straight to `float`.
pub(crate) fn parse_float(units: &[u16]) -> Result<f32, String> {
    let text = ascii(trim(units)).ok_or_else(|| number_format(units))?;
    float_text(&text).ok_or_else(|| number_format(units))
}

/// Java's floating literal text normalized for Rust's parser: sign, then `NaN`, `Infinity` or
/// digits with an optional exponent; a trailing `f F d D` is dropped. Hex floats are refused.
fn java_float_text(text: &str) -> Option<Cow<'_, str>> {
    let unsuffixed = text.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(text);
    let unsigned = unsuffixed.strip_prefix('+').unwrap_or(unsuffixed);
    if unsigned.trim_start_matches('-').starts_with("0x") || unsigned.trim_start_matches('-').starts_with("0X") {
        return Some(Cow::Borrowed(unsigned));
    }
    let (sign, body) = match text.as_bytes().first() {
        Some(b'+') => ("", &text[1..]),
        Some(b'-') => ("-", &text[1..]),
        _ => ("", text),
    };
    if body == "NaN" {
        // Java has one NaN, whatever the sign written.
        return Some(Cow::Borrowed("NaN"));
    }
    if body == "Infinity" {
        return Some(Cow::Owned(format!("{sign}inf")));
    }
    let body = body.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(body);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (int, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && fraction.is_empty()) || !digits_ok(int) || !digits_ok(fraction) {
        return None;
    }
    if let Some(exponent) = exponent {
        let e = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        if e.is_empty() || !digits_ok(e) {
            return None;
        }
    }
    // Without a `+` or a suffix the text is already what Rust reads.
    match sign.len() + body.len() == text.len() {
        true => Some(Cow::Borrowed(text)),
        false => Some(Cow::Owned(format!("{sign}{body}"))),
    }
}

fn parse_java_float(text: &str) -> Option<f64> {
    match hex_float(text, 53, 11) {
        Some(bits) => bits.map(f64::from_bits),
        None => text.parse::<f64>().ok(),
    }
}

fn parse_java_f32(text: &str) -> Option<f32> {
    match hex_float(text, 24, 8) {
        Some(bits) => bits.map(|b| f32::from_bits(b as u32)),
        None => text.parse::<f32>().ok(),
    }
}

/// Java's hexadecimal floating literal (`0x1.8p3`, the `p` exponent required), correctly rounded
/// to a float of `precision` significand bits: the IEEE bits, `Some(None)` when malformed, `None`
/// when `text` is not hexadecimal at all.
fn hex_float(text: &str, precision: u32, exponent_bits: u32) -> Option<Option<u64>> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let body = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X"))?;
    Some(hex_float_bits(negative, body, precision, exponent_bits))
}

fn hex_float_bits(negative: bool, body: &str, precision: u32, exponent_bits: u32) -> Option<u64> {
    let (mantissa, exponent) = body.split_once(['p', 'P'])?;
    let exponent: i64 = exponent.parse().ok().or_else(|| exponent.strip_prefix('+')?.parse().ok())?;
    let (int, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && fraction.is_empty() {
        return None;
    }
    let (mut value, mut sticky, mut exp2) = (0u128, false, exponent.clamp(-100_000, 100_000));
    for (i, c) in int.chars().chain(fraction.chars()).enumerate() {
        let digit = c.to_digit(16)? as u128;
        if i >= int.len() {
            exp2 -= 4;
        }
        if value >> 120 == 0 {
            value = value << 4 | digit;
        } else {
            sticky |= digit != 0;
            exp2 += 4;
        }
    }
    let sign = u64::from(negative) << (precision + exponent_bits - 1);
    if value == 0 {
        return Some(sign);
    }
    let bias = (1i64 << (exponent_bits - 1)) - 1;
    let width = 128 - i64::from(value.leading_zeros());
    let top = exp2 + width - 1;
    // Significand bits kept: all of them for normal numbers, fewer below the normal range.
    let kept = if top >= 1 - bias { i64::from(precision) } else { i64::from(precision) - (1 - bias - top) };
    let infinity = sign | (((1u64 << exponent_bits) - 1) << (precision - 1));
    if top > bias {
        return Some(infinity);
    }
    if kept < 0 {
        return Some(sign);
    }
    let drop = width - kept;
    let significand = if drop > 0 {
        let shifted = value >> drop;
        let rest = value & ((1u128 << drop) - 1);
        let half = 1u128 << (drop - 1);
        let round_up = rest > half || (rest == half && (sticky || shifted & 1 == 1));
        shifted + u128::from(round_up)
    } else {
        value << -drop
    };
    if top < 1 - bias {
        // Subnormal, in units of the smallest one; a carry into the smallest normal gives the
        // same bits.
        return Some(sign | significand as u64);
    }
    let (significand, top) = match significand >> precision {
        0 => (significand, top),
        _ => (significand >> 1, top + 1),
    };
    if top > bias {
        return Some(infinity);
    }
    let fraction_mask = (1u64 << (precision - 1)) - 1;
    Some(sign | ((top + bias) as u64) << (precision - 1) | (significand as u64 & fraction_mask))
}

/// An exact decimal: `unscaled * 10^-scale`, as `new BigDecimal(String)` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BigDecimal {
    pub negative: bool,
    /// Decimal digits of the unscaled value, no leading zeros ("" is zero).
    pub digits: Vec<u8>,
    pub scale: i64,
}

impl BigDecimal {
    /// `new BigDecimal(text)`: optional sign, digits with an optional point, optional exponent.
    pub(crate) fn parse(text: &str) -> Option<BigDecimal> {
        let (negative, body) = match text.as_bytes().first() {
            Some(b'+') => (false, &text[1..]),
            Some(b'-') => (true, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(at) => (&body[..at], Some(&body[at + 1..])),
            None => (body, None),
        };
        let (int, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if (int.is_empty() && fraction.is_empty()) || !(int.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()))
        {
            return None;
        }
        let exponent: i64 = match exponent {
            Some(e) => {
                let unsigned = e.strip_prefix(['+', '-']).unwrap_or(e);
                if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                e.parse().ok()?
            }
            None => 0,
        };
        let mut digits: Vec<u8> = int.bytes().chain(fraction.bytes()).map(|b| b - b'0').collect();
        let leading = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..leading);
        let scale = fraction.len() as i64 - exponent;
        Some(BigDecimal { negative, digits, scale })
    }

    /// `DecimalData.fromBigDecimal(this, precision, scale)`: rounded HALF_UP to `scale`; `None`
    /// when the result needs more than `precision` digits (Flink's null).
    pub(crate) fn to_unscaled(&self, precision: u8, scale: u8) -> Option<i128> {
        let mut digits = self.digits.clone();
        let shift = i64::from(scale) - self.scale;
        if shift >= 0 {
            if digits.is_empty() {
                return Some(0);
            }
            if digits.len() as i64 + shift > i64::from(precision) {
                return None;
            }
            digits.extend(std::iter::repeat_n(0, shift as usize));
        } else {
            let drop = (-shift) as usize;
            if drop > digits.len() {
                digits.clear();
            } else {
                let round_up = digits[digits.len() - drop] >= 5;
                digits.truncate(digits.len() - drop);
                if round_up {
                    increment(&mut digits);
                }
            }
        }
        let leading = digits.iter().take_while(|&&d| d == 0).count();
        digits.drain(..leading);
        if digits.len() > usize::from(precision) {
            return None;
        }
        let magnitude = digits.iter().fold(0i128, |acc, &d| acc * 10 + i128::from(d));
        Some(if self.negative { -magnitude } else { magnitude })
    }
}

impl BigDecimal {
    /// `stripTrailingZeros()`, with zero as plain `0` (Jackson's normalized decimal nodes).
    pub(crate) fn stripped(&self) -> BigDecimal {
        let mut digits = self.digits.clone();
        let mut scale = self.scale;
        while digits.last() == Some(&0) {
            digits.pop();
            scale -= 1;
        }
        if digits.is_empty() {
            return BigDecimal { negative: false, digits, scale: 0 };
        }
        BigDecimal { negative: self.negative, digits, scale }
    }

    /// `BigDecimal.toString()`: plain unless the exponent is positive or below -6.
    pub(crate) fn to_java_string(&self) -> String {
        let digits: String = match self.digits.is_empty() {
            true => "0".to_string(),
            false => self.digits.iter().map(|d| (b'0' + d) as char).collect(),
        };
        let sign = if self.negative && !self.digits.is_empty() { "-" } else { "" };
        let len = digits.len() as i64;
        let adjusted = len - 1 - self.scale;
        if self.scale >= 0 && adjusted >= -6 {
            if self.scale == 0 {
                return format!("{sign}{digits}");
            }
            let scale = self.scale;
            return match len > scale {
                true => format!("{sign}{}.{}", &digits[..(len - scale) as usize], &digits[(len - scale) as usize..]),
                false => format!("{sign}0.{}{digits}", "0".repeat((scale - len) as usize)),
            };
        }
        let mantissa = match digits.len() {
            1 => digits.clone(),
            _ => format!("{}.{}", &digits[..1], &digits[1..]),
        };
        let exponent_sign = if adjusted >= 0 { "+" } else { "" };
        format!("{sign}{mantissa}E{exponent_sign}{adjusted}")
    }
}

/// `new BigDecimal(text)` then [`BigDecimal::to_unscaled`]: `None` when the text is not a
/// decimal, `Some(None)` when it overflows `precision`. Plain text (an optional `-`, up to 38
/// significant digits, an optional point) is read in one pass, without the digit vectors.
pub(crate) fn unscaled(text: &str, precision: u8, scale: u8) -> Option<Option<i128>> {
    match plain_unscaled(text.as_bytes(), precision, scale) {
        Some(result) => Some(result),
        None => BigDecimal::parse(text).map(|d| d.to_unscaled(precision, scale)),
    }
}

/// Powers of ten up to the largest DECIMAL precision.
const POWERS_OF_TEN: [u128; 39] = {
    let mut powers = [1u128; 39];
    let mut k = 1;
    while k < 39 {
        powers[k] = powers[k - 1] * 10;
        k += 1;
    }
    powers
};

fn plain_unscaled(text: &[u8], precision: u8, scale: u8) -> Option<Option<i128>> {
    let (negative, body) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let (int, fraction) = match body.iter().position(|&b| b == b'.') {
        Some(at) => (&body[..at], &body[at + 1..]),
        None => (body, &[][..]),
    };
    if (int.is_empty() && fraction.is_empty()) || precision > 38 {
        return None;
    }
    // Up to 18 significant digits in a u64, the common case; more (to 38) in a u128.
    let (mut small, mut magnitude) = (0u64, 0u128);
    let mut significant = 0usize;
    for &byte in int.iter().chain(fraction) {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        if significant == 0 && digit == 0 {
            continue;
        }
        significant += 1;
        match significant {
            0..=18 => small = small * 10 + u64::from(digit),
            19..=38 => {
                magnitude = match significant {
                    19 => u128::from(small),
                    _ => magnitude,
                } * 10
                    + u128::from(digit)
            }
            _ => return None,
        }
    }
    if significant <= 18 {
        magnitude = u128::from(small);
    }
    let shift = i64::from(scale) - fraction.len() as i64;
    let value = if shift >= 0 {
        if magnitude != 0 && significant as i64 + shift > i64::from(precision) {
            return Some(None);
        }
        magnitude * POWERS_OF_TEN[shift as usize]
    } else if (-shift) as usize > significant {
        0
    } else {
        // Rounded HALF_UP on the first dropped digit.
        let divisor = POWERS_OF_TEN[(-shift - 1) as usize];
        let kept = match u64::try_from(magnitude) {
            Ok(small) => u128::from(small / divisor as u64),
            Err(_) => magnitude / divisor,
        };
        kept / 10 + u128::from(kept % 10 >= 5)
    };
    if value >= POWERS_OF_TEN[usize::from(precision)] {
        return Some(None);
    }
    Some(Some(if negative { -(value as i128) } else { value as i128 }))
}

fn increment(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == 9 {
            *d = 0;
        } else {
            *d += 1;
            return;
        }
    }
    digits.insert(0, 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn integers_like_java() {
        assert_eq!(parse_integer(&units("+12"), i32::MIN.into(), i32::MAX.into()), Ok(12));
        assert!(parse_integer(&units("2147483648"), i32::MIN.into(), i32::MAX.into()).is_err());
        assert!(parse_integer(&units("1.0"), i32::MIN.into(), i32::MAX.into()).is_err());
        assert!(parse_integer(&units(""), i32::MIN.into(), i32::MAX.into()).is_err());
    }

    #[test]
    fn doubles_like_java() {
        assert_eq!(parse_double(&units(" 1.5d ")), Ok(1.5));
        assert!(parse_double(&units("-Infinity")).unwrap().is_infinite());
        assert!(parse_double(&units("NaN")).unwrap().is_nan());
        assert_eq!(parse_double(&units(".5")), Ok(0.5));
        assert!(parse_double(&units("inf")).is_err());
        assert!(parse_double(&units("1e")).is_err());
        assert_eq!(parse_double(&units("0x1p3")), Ok(8.0));
        assert_eq!(parse_double(&units("-0x1.8p1d")), Ok(-3.0));
        assert_eq!(parse_double(&units("0x.8p0")), Ok(0.5));
        assert_eq!(parse_double(&units("0x1p-1074")), Ok(f64::from_bits(1)));
        assert_eq!(parse_double(&units("0x1p1024")), Ok(f64::INFINITY));
        assert_eq!(parse_double(&units("0x1.fffffffffffff8p0")), Ok(2.0));
        assert_eq!(parse_double(&units("0x1.fffffffffffffp1023")), Ok(f64::MAX));
        assert_eq!(parse_float(&units("0x1.000001p0")), Ok(1.0));
        assert_eq!(parse_float(&units("0x1.0000018p0")), Ok(1.0 + f32::EPSILON));
        assert!(parse_double(&units("0x1")).is_err());
    }

    #[test]
    fn decimals_round_half_up_and_overflow_to_null() {
        let d = BigDecimal::parse("-1.2345").unwrap();
        assert_eq!(d.to_unscaled(10, 3), Some(-1235));
        assert_eq!(BigDecimal::parse("999.5").unwrap().to_unscaled(4, 0), Some(1000));
        assert_eq!(BigDecimal::parse("999.5").unwrap().to_unscaled(3, 0), None);
        assert_eq!(BigDecimal::parse("1E+2").unwrap().to_unscaled(5, 1), Some(1000));
        assert_eq!(BigDecimal::parse("0.0004").unwrap().to_unscaled(5, 3), Some(0));
        assert!(BigDecimal::parse("1e").is_none());
    }

    #[test]
    fn plain_decimals_read_as_big_decimal_does() {
        let mut seed = 5u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..50_000 {
            let digits = |n: u64, next: &mut dyn FnMut(u64) -> u64| -> String {
                (0..n).map(|_| char::from(b'0' + [0, 9, 5, 4, 1][next(5) as usize] as u8 + next(2) as u8)).collect()
            };
            let int = digits(next(42), &mut next);
            let fraction = digits(next(42), &mut next);
            let sign = ["", "-", "+"][next(3) as usize];
            let text = match next(3) {
                0 => format!("{sign}{int}"),
                _ => format!("{sign}{int}.{fraction}"),
            };
            let (precision, scale) = (1 + next(38) as u8, next(20) as u8);
            let scale = scale.min(precision);
            let general = BigDecimal::parse(&text).map(|d| d.to_unscaled(precision, scale));
            assert_eq!(unscaled(&text, precision, scale), general, "{text} ({precision}, {scale})");
        }
    }

    #[test]
    fn big_decimal_strings_like_java() {
        let show = |t: &str| BigDecimal::parse(t).unwrap().stripped().to_java_string();
        assert_eq!(show("1.50"), "1.5");
        assert_eq!(show("1500"), "1.5E+3");
        assert_eq!(show("0.000"), "0");
        assert_eq!(show("-0.0000001"), "-1E-7");
        assert_eq!(show("0.000001"), "0.000001");
        assert_eq!(BigDecimal::parse("100").unwrap().to_java_string(), "100");
    }

    #[test]
    fn lone_surrogates_become_question_marks() {
        assert_eq!(to_utf8(&[0x61, 0xD800, 0x62]), b"a?b");
        assert_eq!(to_utf8(&[0xD83D, 0xDE00]), "\u{1F600}".as_bytes());
    }
}
