//! Java's `Double.toString` / `Float.toString`, exactly, for both JVM generations.
//!
//! `FloatSpelling::Jdk17` reproduces the legacy `FloatingDecimal` digits (JDK <= 18);
//! `FloatSpelling::Jdk19` the shortest-decimal algorithm of JDK >= 19.
use crate::options::FloatSpelling;

/// Appends `v` as Flink's JSON writes a DOUBLE: Java's `Double.toString` for finite values,
/// `"NaN"`, `"Infinity"`, `"-Infinity"` (with the quotes) otherwise.
pub fn write_f64_json(out: &mut Vec<u8>, v: f64, spelling: FloatSpelling) {
    let _ = (out, v, spelling);
    todo!("float module")
}

/// Appends `v` as Flink's JSON writes a FLOAT (never widened to double).
pub fn write_f32_json(out: &mut Vec<u8>, v: f32, spelling: FloatSpelling) {
    let _ = (out, v, spelling);
    todo!("float module")
}
