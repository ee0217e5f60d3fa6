//! BINARY / VARBINARY: standard Base64 with padding, no line breaks, as a JSON string.

pub fn write_base64_json(out: &mut Vec<u8>, bytes: &[u8]) {
    let _ = (out, bytes);
    todo!("base64")
}
