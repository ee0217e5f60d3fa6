//! DECIMAL as Flink writes it: `BigDecimal.stripTrailingZeros().toString()` by default,
//! `toPlainString()` with `encode.decimal-as-plain-number`.
use crate::options::FlinkVersion;

/// `unscaled * 10^-scale`, a bare JSON number.
pub fn write_decimal(out: &mut Vec<u8>, unscaled: i128, scale: u8, plain: bool, version: FlinkVersion) {
    let _ = (out, unscaled, scale, plain, version);
    todo!("decimal")
}
