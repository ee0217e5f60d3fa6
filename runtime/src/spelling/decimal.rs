//! DECIMAL as Flink writes it: `BigDecimal.stripTrailingZeros().toString()` by default,
//! `toPlainString()` with `encode.decimal-as-plain-number` (1.20 strips trailing zeros first).
//!
//! Digits are formatted into a stack buffer by `itoa`; nothing allocates.
use super::sink::ByteSink;
use crate::options::FlinkVersion;

const ZEROS: [u8; 64] = [b'0'; 64];

/// The most bytes [`write_decimal`] writes at `scale`: sign, the 39 digits of an `i128`, `0.`
/// and as many zeros as the scale (plain form); the scientific form is at most 45 bytes.
pub const fn decimal_bound(scale: u8) -> usize {
    64 + scale as usize
}

/// `unscaled * 10^-scale`, a bare JSON number.
pub fn write_decimal<S: ByteSink>(out: &mut S, unscaled: i128, scale: u8, plain: bool, version: FlinkVersion) {
    let mut buf = itoa::Buffer::new();
    let digits = buf.format(unscaled.unsigned_abs()).as_bytes();
    let negative = unscaled < 0;
    if plain && version.plain_decimal_keeps_scale() {
        write_plain(out, negative, digits, i32::from(scale));
        return;
    }
    if unscaled == 0 {
        // `stripTrailingZeros` of any zero is `BigDecimal.ZERO`: scale 0.
        out.put_byte(b'0');
        return;
    }
    let trailing_zeros = digits.iter().rev().take_while(|&&d| d == b'0').count();
    let stripped = &digits[..digits.len() - trailing_zeros];
    let stripped_scale = i32::from(scale) - trailing_zeros as i32;
    if plain {
        write_plain(out, negative, stripped, stripped_scale);
    } else {
        write_java_to_string(out, negative, stripped, stripped_scale);
    }
}

/// Appends `count` ASCII zeros.
#[inline]
fn push_zeros<S: ByteSink>(out: &mut S, mut count: usize) {
    while count > 0 {
        let step = count.min(ZEROS.len());
        out.put(&ZEROS[..step]);
        count -= step;
    }
}

/// Java `BigDecimal.toPlainString()`: never an exponent; a negative scale appends zeros.
fn write_plain<S: ByteSink>(out: &mut S, negative: bool, digits: &[u8], scale: i32) {
    if negative {
        out.put_byte(b'-');
    }
    let n = digits.len();
    if scale <= 0 {
        out.put(digits);
        push_zeros(out, scale.unsigned_abs() as usize);
        return;
    }
    write_point_form(out, digits, scale as usize, n);
}

/// `digits` with a decimal point `scale` places from the right (scale > 0), `0.000ddd` if needed.
#[inline]
fn write_point_form<S: ByteSink>(out: &mut S, digits: &[u8], scale: usize, n: usize) {
    if n > scale {
        out.put(&digits[..n - scale]);
        out.put_byte(b'.');
        out.put(&digits[n - scale..]);
    } else {
        out.put(b"0.");
        push_zeros(out, scale - n);
        out.put(digits);
    }
}

/// Java `BigDecimal.toString()`: plain when `scale >= 0` and the adjusted exponent is `>= -6`,
/// otherwise `d.dddE+n` / `d.dddE-n`.
fn write_java_to_string<S: ByteSink>(out: &mut S, negative: bool, digits: &[u8], scale: i32) {
    if negative {
        out.put_byte(b'-');
    }
    let n = digits.len();
    let adjusted = n as i32 - 1 - scale;
    if scale >= 0 && adjusted >= -6 {
        if scale == 0 {
            out.put(digits);
        } else {
            write_point_form(out, digits, scale as usize, n);
        }
        return;
    }
    out.put_byte(digits[0]);
    if n > 1 {
        out.put_byte(b'.');
        out.put(&digits[1..]);
    }
    out.put_byte(b'E');
    if adjusted > 0 {
        out.put_byte(b'+');
    }
    out.put(itoa::Buffer::new().format(adjusted).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(unscaled: i128, scale: u8, plain: bool, version: FlinkVersion) -> String {
        let mut out = b"x".to_vec();
        write_decimal(&mut out, unscaled, scale, plain, version);
        String::from_utf8(out[1..].to_vec()).unwrap()
    }

    /// (unscaled, scale, default, plain 2.x, plain 1.20), as Flink writes them.
    type Row = (i128, u8, &'static str, &'static str, Option<&'static str>);

    const TABLE: &[Row] = &[
        (100, 2, "1", "1.00", Some("1")),
        (0, 2, "0", "0.00", Some("0")),
        (0, 0, "0", "0", Some("0")),
        (10000, 2, "1E+2", "100.00", Some("100")),
        (100, 0, "1E+2", "100", Some("100")),
        (-100, 0, "-1E+2", "-100", Some("-100")),
        (10, 0, "1E+1", "10", None),
        (120, 0, "1.2E+2", "120", None),
        (1234500, 0, "1.2345E+6", "1234500", None),
        (-1234500, 0, "-1.2345E+6", "-1234500", None),
        (100_000_000_000_000_000, 0, "1E+17", "100000000000000000", None),
        (123450, 3, "123.45", "123.450", Some("123.45")),
        (-50, 2, "-0.5", "-0.50", Some("-0.5")),
        (1000, 4, "0.1", "0.1000", None),
        (1, 5, "0.00001", "0.00001", None),
        (1, 6, "0.000001", "0.000001", None),
        (12, 7, "0.0000012", "0.0000012", None),
        (12, 8, "1.2E-7", "0.00000012", None),
        (100, 9, "1E-7", "0.000000100", Some("0.0000001")),
        (100_000_000_000, 18, "1E-7", "0.000000100000000000", Some("0.0000001")),
        (-123000, 12, "-1.23E-7", "-0.000000123000", Some("-0.000000123")),
    ];

    #[test]
    fn reference_table() {
        for &(unscaled, scale, default, plain2, plain120) in TABLE {
            for version in [FlinkVersion::V1_20, FlinkVersion::V2_2, FlinkVersion::V2_3] {
                assert_eq!(text(unscaled, scale, false, version), default, "{unscaled}e-{scale} {version}");
            }
            assert_eq!(text(unscaled, scale, true, FlinkVersion::V2_2), plain2, "{unscaled}e-{scale}");
            assert_eq!(text(unscaled, scale, true, FlinkVersion::V2_3), plain2, "{unscaled}e-{scale}");
            if let Some(plain120) = plain120 {
                assert_eq!(text(unscaled, scale, true, FlinkVersion::V1_20), plain120, "{unscaled}e-{scale}");
            }
        }
    }

    #[test]
    fn wide_rows_of_the_table() {
        let ten_pow_32 = 10i128.pow(32);
        assert_eq!(text(ten_pow_32, 2, false, FlinkVersion::V2_3), "1E+30");
        assert_eq!(text(ten_pow_32, 2, true, FlinkVersion::V2_3), "1000000000000000000000000000000.00");
        assert_eq!(text(ten_pow_32, 2, true, FlinkVersion::V1_20), "1000000000000000000000000000000");
        let tenth_at_37 = 10i128.pow(36);
        assert_eq!(text(tenth_at_37, 37, false, FlinkVersion::V2_3), "0.1");
        assert_eq!(text(tenth_at_37, 37, true, FlinkVersion::V2_3), "0.1000000000000000000000000000000000000");
        assert_eq!(text(tenth_at_37, 37, true, FlinkVersion::V1_20), "0.1");
        let nines = 10i128.pow(38) - 1;
        let nines_text = "9".repeat(38);
        for (plain, version) in [(false, FlinkVersion::V2_3), (true, FlinkVersion::V2_3), (true, FlinkVersion::V1_20)] {
            assert_eq!(text(nines, 0, plain, version), nines_text);
            assert_eq!(text(-nines, 0, plain, version), format!("-{nines_text}"));
        }
        let long = 123_456_789_012_345_678_901_234_500_000i128;
        assert_eq!(text(long, 10, false, FlinkVersion::V2_3), "12345678901234567890.12345");
        assert_eq!(text(long, 10, true, FlinkVersion::V2_3), "12345678901234567890.1234500000");
    }

    #[test]
    fn extremes_and_exponent_edges() {
        let nines = 10i128.pow(38) - 1;
        // 38 digits all after the point: adjusted exponent -1, plain.
        assert_eq!(text(-nines, 38, false, FlinkVersion::V2_3), format!("-0.{}", "9".repeat(38)));
        assert_eq!(text(1, 38, false, FlinkVersion::V2_3), "1E-38");
        assert_eq!(text(1, 38, true, FlinkVersion::V2_3), format!("0.{}1", "0".repeat(37)));
        assert_eq!(text(-(10i128.pow(37)), 0, false, FlinkVersion::V2_3), "-1E+37");
        assert_eq!(text(i128::MIN, 0, false, FlinkVersion::V2_3), "-170141183460469231731687303715884105728");
        assert_eq!(text(i128::MAX, 0, true, FlinkVersion::V2_2), "170141183460469231731687303715884105727");
        // Boundary of the plain form: adjusted exponent exactly -6 and -7.
        assert_eq!(text(15, 7, false, FlinkVersion::V2_3), "0.0000015");
        assert_eq!(text(15, 8, false, FlinkVersion::V2_3), "1.5E-7");
        assert_eq!(text(-7, 0, false, FlinkVersion::V2_3), "-7");
        assert_eq!(text(7, 1, false, FlinkVersion::V2_3), "0.7");
    }
}
