//! The escape fast path (SSE2 / eight-byte word scan, bulk copies) against an obvious
//! char-at-a-time escaper, on arbitrary bytes at every alignment; invalid UTF-8 decoded as
//! Java's decoder does (see `java_utf8`).
#![no_main]
use kjson_fuzz::java_utf8::java_decode;
use kjson_runtime::spelling::escape::{escape_into, needs_escape, write_json_bytes_lossy, write_json_str};
use libfuzzer_sys::fuzz_target;

/// Jackson's escaping one char at a time: short escapes, `\u00XX` for other C0 controls, a
/// surrogate pair for code points above U+FFFF, everything else raw.
fn reference_escape(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\u{08}' => out.extend_from_slice(b"\\b"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\u{0C}' => out.extend_from_slice(b"\\f"),
            '\r' => out.extend_from_slice(b"\\r"),
            c if (c as u32) < 0x20 => out.extend_from_slice(format!("\\u{:04X}", c as u32).as_bytes()),
            c if (c as u32) > 0xFFFF => {
                for unit in c.encode_utf16(&mut [0u16; 2]) {
                    out.extend_from_slice(format!("\\u{unit:04X}").as_bytes());
                }
            }
            c => out.extend_from_slice(c.encode_utf8(&mut [0u8; 4]).as_bytes()),
        }
    }
    out
}

fn quoted(inner: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(inner.len() + 2);
    out.push(b'"');
    out.extend_from_slice(&inner);
    out.push(b'"');
    out
}

const PREFIX: &[u8] = b"prefix,";

fn check(bytes: &[u8]) {
    // Appends after what is already in the buffer.
    let mut out = PREFIX.to_vec();
    write_json_bytes_lossy(&mut out, bytes);
    let expected = quoted(reference_escape(&java_decode(bytes)));
    assert_eq!(&out[PREFIX.len()..], &expected[..], "lossy {bytes:?}");
    assert!(std::str::from_utf8(&out).is_ok(), "lossy output is not UTF-8: {bytes:?}");

    let attention = bytes.iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20 || b >= 0xF0);
    assert_eq!(needs_escape(bytes), attention, "needs_escape {bytes:?}");

    if let Ok(text) = std::str::from_utf8(bytes) {
        let mut out = PREFIX.to_vec();
        write_json_str(&mut out, text);
        assert_eq!(&out[PREFIX.len()..], &quoted(reference_escape(text))[..], "str {text:?}");
        let mut bare = Vec::new();
        escape_into(&mut bare, text);
        assert_eq!(bare, reference_escape(text), "escape_into {text:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    // Every start alignment of the scan's 16-byte loads, and every short tail.
    for skip in 0..data.len().min(16) {
        check(&data[skip..]);
    }
    check(&data[..data.len().min(15)]);
    if data.is_empty() {
        check(data);
    }
});
