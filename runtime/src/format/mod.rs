//! Scalar formatters: each appends one complete JSON token (quotes included where Flink writes a
//! string) to the output buffer.
pub mod escape;
pub mod base64;
pub mod decimal;
pub mod temporal;

/// Appends a decimal integer (`itoa`).
#[inline]
pub fn write_int<I: itoa::Integer>(out: &mut Vec<u8>, v: I) {
    let mut buf = itoa::Buffer::new();
    out.extend_from_slice(buf.format(v).as_bytes());
}

#[inline]
pub fn write_bool(out: &mut Vec<u8>, v: bool) {
    out.extend_from_slice(if v { b"true" } else { b"false" });
}
