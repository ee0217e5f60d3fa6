//! Expected strings come from the real JDK 17 and JDK 25 (runs of `Double.toString` and
//! `Float.toString`, and `tests/float_oracle/FloatOracle.java`; docs/json-format.md explains them). Millions more are compared by `scripts/float-parity.sh`.
use super::*;
use FloatSpelling::{Jdk17, Jdk19};

/// (value, JDK 17 text, JDK 25 text)
const DOUBLES: &[(f64, &str, &str)] = &[
    (0.0, "0.0", "0.0"),
    (-0.0, "-0.0", "-0.0"),
    (100.0, "100.0", "100.0"),
    (0.30000000000000004, "0.30000000000000004", "0.30000000000000004"),
    (9999999.999, "9999999.999", "9999999.999"),
    (1e7, "1.0E7", "1.0E7"),
    (1.23456789e7, "1.23456789E7", "1.23456789E7"),
    (0.001, "0.001", "0.001"),
    (1e-4, "1.0E-4", "1.0E-4"),
    (1e-7, "1.0E-7", "1.0E-7"),
    (1e21, "1.0E21", "1.0E21"),
    (1e22, "1.0E22", "1.0E22"),
    (1e23, "9.999999999999999E22", "1.0E23"),
    (2e23, "1.9999999999999998E23", "2.0E23"),
    (8.41e21, "8.409999999999999E21", "8.41E21"),
    (2.82879384806159e17, "2.82879384806159008E17", "2.82879384806159E17"),
    (f64::MAX, "1.7976931348623157E308", "1.7976931348623157E308"),
    (f64::MIN_POSITIVE, "2.2250738585072014E-308", "2.2250738585072014E-308"),
    (5e-324, "4.9E-324", "4.9E-324"),
    (1e-323, "1.0E-323", "9.9E-324"),
    (0.10000000149011612, "0.10000000149011612", "0.10000000149011612"),
    (-1.5, "-1.5", "-1.5"),
    (123456.789, "123456.789", "123456.789"),
];

/// Values where the JDKs differ, found by running `FloatOracle.java` on both (bits, JDK 17, JDK 25):
/// integers from 2^53 to 2^63 (JDK 17 rounds the exact integer to 17 or 18 digits) and tiny
/// subnormals.
const DIVERGENT_DOUBLES: &[(u64, &str, &str)] = &[
    (0x43c9_1fc9_6ed1_8a18, "3.6207741060506051E18", "3.620774106050605E18"),
    (0x4383_2476_790a_c875, "1.72419706015780512E17", "1.724197060157805E17"),
    (0x4376_1ef9_cc14_20c5, "9.9624123315129424E16", "9.962412331512942E16"),
    (0x4352_d6eb_a314_514c, "2.1211428489872688E16", "2.121142848987269E16"),
    (0x43dc_277c_c5bd_1800, "8.1149093835062641E18", "8.114909383506264E18"),
    (0x0000_0000_0000_0014, "1.0E-322", "9.9E-323"),
    (0x0000_0000_0000_0020, "1.58E-322", "1.6E-322"),
];

/// As [`DIVERGENT_DOUBLES`], for floats.
const DIVERGENT_FLOATS: &[(u32, &str, &str)] = &[
    (0x5000_0000, "8.5899346E9", "8.589935E9"),
    (0x4cb2_c8be, "9.3734384E7", "9.373438E7"),
    (0x0000_0047, "1.0E-43", "9.9E-44"),
    (0x0000_0080, "1.794E-43", "1.8E-43"),
];

/// Subnormal significands where a plain shortest-digit algorithm would differ from JDK 19+ (its
/// two-digit rule), and values whose interval end or midpoint is a short decimal (the single
/// product leaves those to Schubfach), from the real JDK 17 and JDK 25 (bits, JDK 17, JDK 25).
const EDGE_DOUBLES: &[(u64, &str, &str)] = &[
    (1, "4.9E-324", "4.9E-324"),
    (2, "1.0E-323", "9.9E-324"),
    (10, "4.9E-323", "4.9E-323"),
    (12, "5.9E-323", "5.9E-323"),
    (14, "6.9E-323", "6.9E-323"),
    (16, "7.9E-323", "7.9E-323"),
    (18, "8.9E-323", "8.9E-323"),
    (20, "1.0E-322", "9.9E-323"),
    (0x4358_0000_0000_0000, "2.7021597764222976E16", "2.7021597764222976E16"),
    (0x44b5_2d02_c7e1_4af6, "9.999999999999999E22", "1.0E23"),
    (0x3fc0_0000_0000_0000, "0.125", "0.125"),
    (0x4148_3c44_e000_0000, "3176585.75", "3176585.75"),
];

/// As [`EDGE_DOUBLES`], for floats.
const EDGE_FLOATS: &[(u32, &str, &str)] = &[
    (1, "1.4E-45", "1.4E-45"),
    (2, "2.8E-45", "2.8E-45"),
    (3, "4.2E-45", "4.2E-45"),
    (4, "5.6E-45", "5.6E-45"),
    (6, "8.4E-45", "8.4E-45"),
    (7, "9.8E-45", "9.8E-45"),
    (21, "2.9E-44", "2.9E-44"),
    (29, "4.1E-44", "4.1E-44"),
    (71, "1.0E-43", "9.9E-44"),
    (0x4f83_b9ec, "4.4199997E9", "4.42E9"),
    (0x4c98_32eb, "7.9796056E7", "7.9796056E7"),
    (0x49fe_fe36, "2088902.8", "2088902.8"),
    (0x3f00_0000, "0.5", "0.5"),
    (0x3e80_0000, "0.25", "0.25"),
    (0x50df_8476, "3.0000001E10", "3.0E10"),
];

/// (value, JDK 17 text, JDK 25 text)
const FLOATS: &[(f32, &str, &str)] = &[
    (0.0, "0.0", "0.0"),
    (-0.0, "-0.0", "-0.0"),
    (1.0, "1.0", "1.0"),
    (-1.5, "-1.5", "-1.5"),
    (0.1, "0.1", "0.1"),
    (1.1, "1.1", "1.1"),
    (9999999.0, "9999999.0", "9999999.0"),
    (1e7, "1.0E7", "1.0E7"),
    (16777216.0, "1.6777216E7", "1.6777216E7"),
    (0.001, "0.001", "0.001"),
    (1e-4, "1.0E-4", "1.0E-4"),
    (9.999e-4, "9.999E-4", "9.999E-4"),
    (1e10, "1.0E10", "1.0E10"),
    (f32::MAX, "3.4028235E38", "3.4028235E38"),
    (1.4e-45, "1.4E-45", "1.4E-45"),
    (f32::MIN_POSITIVE, "1.17549435E-38", "1.1754944E-38"),
    (9.69785e10, "9.6978502E10", "9.69785E10"),
    (7.206458e7, "7.2064576E7", "7.206458E7"),
];

#[test]
fn doubles_match_both_jdks() {
    for &(value, jdk17, jdk25) in DOUBLES {
        assert_eq!(java_double_to_string(value, Jdk17), jdk17, "JDK 17, {value:e}");
        assert_eq!(java_double_to_string(value, Jdk19), jdk25, "JDK 25, {value:e}");
    }
}

#[test]
fn floats_match_both_jdks() {
    for &(value, jdk17, jdk25) in FLOATS {
        assert_eq!(java_float_to_string(value, Jdk17), jdk17, "JDK 17, {value:e}");
        assert_eq!(java_float_to_string(value, Jdk19), jdk25, "JDK 25, {value:e}");
    }
}

#[test]
fn divergent_values_match_each_jdk() {
    for &(bits, jdk17, jdk25) in DIVERGENT_DOUBLES.iter().chain(EDGE_DOUBLES) {
        let value = f64::from_bits(bits);
        assert_eq!(java_double_to_string(value, Jdk17), jdk17, "JDK 17, {bits:016x}");
        assert_eq!(java_double_to_string(value, Jdk19), jdk25, "JDK 25, {bits:016x}");
        assert_eq!(java_double_to_string(-value, Jdk17), format!("-{jdk17}"), "JDK 17, -{bits:016x}");
    }
    for &(bits, jdk17, jdk25) in DIVERGENT_FLOATS.iter().chain(EDGE_FLOATS) {
        let value = f32::from_bits(bits);
        assert_eq!(java_float_to_string(value, Jdk17), jdk17, "JDK 17, {bits:08x}");
        assert_eq!(java_float_to_string(value, Jdk19), jdk25, "JDK 25, {bits:08x}");
    }
}

#[test]
fn json_writers_append_and_quote_non_finite() {
    for spelling in [Jdk17, Jdk19] {
        let mut out = b"[".to_vec();
        write_f64_json(&mut out, f64::NAN, spelling);
        write_f64_json(&mut out, f64::INFINITY, spelling);
        write_f64_json(&mut out, f64::NEG_INFINITY, spelling);
        write_f32_json(&mut out, f32::NAN, spelling);
        write_f32_json(&mut out, f32::INFINITY, spelling);
        write_f32_json(&mut out, f32::NEG_INFINITY, spelling);
        write_f64_json(&mut out, -0.0, spelling);
        write_f32_json(&mut out, -0.0, spelling);
        write_f32_json(&mut out, 0.1, spelling);
        let expected = "[\"NaN\"\"Infinity\"\"-Infinity\"\"NaN\"\"Infinity\"\"-Infinity\"-0.0-0.00.1";
        assert_eq!(String::from_utf8(out).unwrap(), expected, "{spelling}");
    }
}

#[test]
fn to_string_spells_non_finite_like_java() {
    for spelling in [Jdk17, Jdk19] {
        assert_eq!(java_double_to_string(f64::NAN, spelling), "NaN");
        assert_eq!(java_double_to_string(f64::NEG_INFINITY, spelling), "-Infinity");
        assert_eq!(java_float_to_string(f32::INFINITY, spelling), "Infinity");
    }
}

#[test]
fn float_is_not_widened() {
    // As a double, 0.1f is 0.10000000149011612.
    let mut out = Vec::new();
    write_f32_json(&mut out, 0.1, Jdk17);
    assert_eq!(out, b"0.1");
}
