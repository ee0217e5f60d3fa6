//! Jackson's JSON string escaping, as Flink's shaded Jackson writes it.
//!
//! `"` and `\` get a backslash; U+0008/09/0A/0C/0D get `\b \t \n \f \r`; other C0 controls get
//! `\u00XX` (uppercase hex); every supplementary code point (a 4-byte UTF-8 sequence) becomes an
//! escaped UTF-16 surrogate pair `\uD83D\uDE00`; everything else (`/`, DEL, BMP non-ASCII) is copied
//! raw. Inputs of 16 bytes and more are scanned and copied in 16-byte windows (SSE2); shorter
//! ones eight bytes at a time.

use super::scan;
use super::sink::ByteSink;

/// What the slow path does with one byte.
const RAW: u8 = 0;
/// `\u00XX`.
const UNICODE: u8 = b'u';
/// Lead byte of a 4-byte UTF-8 sequence: written as a surrogate pair.
const SUPPLEMENTARY: u8 = 4;

/// Per byte: [`RAW`], [`UNICODE`], [`SUPPLEMENTARY`], or the letter after the backslash of a short
/// escape (`"`, `\`, `b`, `t`, `n`, `f`, `r`).
static ESCAPE_CLASS: [u8; 256] = build_escape_class();

const fn build_escape_class() -> [u8; 256] {
    let mut table = [RAW; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = UNICODE;
        b += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    let mut lead = 0xF0;
    while lead < 0x100 {
        table[lead] = SUPPLEMENTARY;
        lead += 1;
    }
    table
}

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// True if any byte of `bytes` would be escaped (`"`, `\`, `< 0x20`, or a 4-byte UTF-8 lead
/// `>= 0xF0`); a column without any can be copied between quotes as-is.
/// Stops at the first such byte; scans with the widest vector unit the CPU has.
pub fn needs_escape(bytes: &[u8]) -> bool {
    scan::find_attention(scan::Unit::detected(), bytes, 0).is_some()
}

/// Appends `s` as a quoted, escaped JSON string; a [`super::sink::Reserved`] sink needs
/// [`quoted_bound`] bytes.
#[inline]
pub fn write_json_str<S: ByteSink>(out: &mut S, s: &str) {
    out.put_byte(b'"');
    escape_into(out, s);
    out.put_byte(b'"');
}

/// The most bytes [`write_json_str`] (or [`write_json_bytes_lossy`]) writes for `len`
/// input bytes, counting the 16-byte write-ahead of its window stores.
#[inline(always)]
pub const fn quoted_bound(len: usize) -> usize {
    6 * len + 34
}

/// Appends the escaped text of `s` without quotes.
pub fn escape_into<S: ByteSink>(out: &mut S, s: &str) {
    let bytes = s.as_bytes();
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if bytes.len() >= 16 {
        escape_windows(out, bytes);
        return;
    }
    let mut run_start = 0;
    while let Some(pos) = scan::find_attention_words(bytes, run_start) {
        out.put(&bytes[run_start..pos]);
        run_start = pos + write_escape_inline(out, bytes, pos);
    }
    out.put(&bytes[run_start..]);
}

/// [`write_escape`] with the two common escapes, `\\` and `\"` (a backslash and the byte
/// itself), inline.
#[inline(always)]
pub(crate) fn write_escape_inline<S: ByteSink>(out: &mut S, bytes: &[u8], pos: usize) -> usize {
    let byte = bytes[pos];
    if byte == b'\\' || byte == b'"' {
        out.put_chunk(&[b'\\', byte], 2);
        return 1;
    }
    write_escape(out, bytes, pos)
}

/// Escapes `bytes` (at least 16 of them): 32-byte windows while 32 bytes are left, then 16-byte
/// ones, the last overlapping the one before it, so there is no byte loop and no variable-length
/// copy.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn escape_windows<S: ByteSink>(out: &mut S, bytes: &[u8]) {
    let mut at = 0;
    while let Some(pair) = bytes[at..].first_chunk::<32>() {
        let (Some(low), Some(high)) = (pair[..16].first_chunk::<16>(), pair[16..].first_chunk::<16>()) else { break };
        let mask = scan::block_mask(low) | (scan::block_mask(high) << 16);
        at = escape_wide_window(out, bytes, at, mask);
    }
    while at < bytes.len() {
        let base = at.min(bytes.len() - 16);
        let Some(window) = bytes[base..].first_chunk::<16>() else { break };
        at = escape_window(out, bytes, base, window, at - base);
    }
}

/// Escapes the 32 bytes of `bytes` at `base`, whose attention bytes are the bits of `mask`;
/// returns where the next window starts.
///
/// The mask is walked lowest bit first. Each clean gap is one 32-byte store of the input from
/// the gap's start, cut back to the gap's length (one vector store, where copying the exact gap
/// calls `memcpy`); so a clean window (the common case) is a single store. When fewer than 32
/// input bytes are left after an escape, the rest of the window is left to the next one.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn escape_wide_window<S: ByteSink>(out: &mut S, bytes: &[u8], base: usize, mut mask: u32) -> usize {
    let mut start = base;
    loop {
        let Some(gap) = bytes[start..].first_chunk::<32>() else { return start };
        if mask == 0 {
            out.put_chunk(gap, base + 32 - start);
            return base + 32;
        }
        let pos = base + mask.trailing_zeros() as usize;
        out.put_chunk(gap, pos - start);
        let byte = bytes[pos];
        if byte != b'\\' && byte != b'"' {
            return pos + write_escape(out, bytes, pos);
        }
        out.put_chunk(&[b'\\', byte], 2);
        start = pos + 1;
        mask &= mask - 1;
    }
}

/// Escapes `window` (the 16 bytes of `bytes` at `base`) from its byte `from` on; returns where
/// the next window starts.
///
/// All escapes of the window are found in one mask, walked lowest bit first: each clean gap is
/// one fixed-size store of the window shifted down to the gap (a register shift, where cutting
/// the input there would mean a reload and a new scan), cut back to the gap's length.
/// `\\` and `\"` are the backslash and the byte itself; any other escape is rare in practice
/// and may consume bytes past the window, so the next window starts after it.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn escape_window<S: ByteSink>(out: &mut S, bytes: &[u8], base: usize, window: &[u8; 16], from: usize) -> usize {
    let text = u128::from_le_bytes(*window);
    let mut mask = scan::block_mask(window) & (u32::MAX << from);
    let mut start = from;
    while mask != 0 {
        let pos = mask.trailing_zeros() as usize;
        out.put_chunk(&text.wrapping_shr(8 * start as u32).to_le_bytes(), pos - start);
        let byte = text.wrapping_shr(8 * pos as u32) as u8;
        if byte != b'\\' && byte != b'"' {
            return base + pos + write_escape(out, bytes, base + pos);
        }
        out.put_chunk(&[b'\\', byte], 2);
        start = pos + 1;
        mask &= mask - 1;
    }
    // `start` may be 16: the shift wraps to 0 and nothing is kept.
    out.put_chunk(&text.wrapping_shr(8 * start as u32).to_le_bytes(), 16 - start);
    base + 16
}

/// Writes the escape for the sequence starting at `bytes[pos]`; returns how many bytes it consumed.
#[cold]
pub(crate) fn write_escape<S: ByteSink>(out: &mut S, bytes: &[u8], pos: usize) -> usize {
    let byte = bytes[pos];
    match ESCAPE_CLASS[byte as usize] {
        UNICODE => {
            let hex = [UPPER_HEX[(byte >> 4) as usize], UPPER_HEX[(byte & 0xF) as usize]];
            out.put_chunk(&[b'\\', b'u', b'0', b'0', hex[0], hex[1]], 6);
            1
        }
        SUPPLEMENTARY => {
            // `bytes` is valid UTF-8, so a lead >= 0xF0 always has three continuation bytes.
            let tail = &bytes[pos + 1..pos + 4];
            let code_point = (u32::from(byte & 0x07) << 18)
                | (u32::from(tail[0] & 0x3F) << 12)
                | (u32::from(tail[1] & 0x3F) << 6)
                | u32::from(tail[2] & 0x3F);
            write_surrogate_pair(out, code_point);
            4
        }
        short => {
            out.put_chunk(&[b'\\', short], 2);
            1
        }
    }
}

/// `\uHHHH\uLLLL` for a code point above U+FFFF, uppercase hex as Jackson writes it.
fn write_surrogate_pair<S: ByteSink>(out: &mut S, code_point: u32) {
    let offset = code_point - 0x1_0000;
    let high = 0xD800 | (offset >> 10);
    let low = 0xDC00 | (offset & 0x3FF);
    let mut text = [0u8; 12];
    for (slot, unit) in text.chunks_exact_mut(6).zip([high, low]) {
        slot[0] = b'\\';
        slot[1] = b'u';
        for (k, shift) in [12u32, 8, 4, 0].into_iter().enumerate() {
            slot[2 + k] = UPPER_HEX[((unit >> shift) & 0xF) as usize];
        }
    }
    out.put_chunk(&text, 12);
}

/// How a string column's bytes that are not UTF-8 are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextBytes {
    /// As Java's UTF-8 decoder (`new String(bytes, UTF_8)`) reads them: each invalid sequence
    /// becomes U+FFFD.
    JavaLossy,
    /// WTF-8, the UTF-8 of a Java `String` that may hold unpaired surrogates: an encoded
    /// surrogate (`ED A0..BF 80..BF`) is one UTF-16 code unit, escaped as Jackson escapes every
    /// surrogate (`\uD800`); any other invalid sequence as [`TextBytes::JavaLossy`].
    Wtf8,
}

/// Appends possibly invalid UTF-8 as a quoted JSON string; invalid sequences become U+FFFD
/// as Java's UTF-8 decoder (`new String(bytes, UTF_8)`) replaces them.
///
/// That is the "maximal subpart" rule of Rust's `from_utf8_lossy` except for a UTF-8 encoded
/// surrogate (`ED A0..BF`): Java replaces it, with a following continuation byte, by one
/// U+FFFD where the maximal-subpart rule gives one per byte.
///
/// Bound: [`quoted_bound`] (U+FFFD, 3 bytes, replaces at least one byte).
pub fn write_json_bytes_lossy<S: ByteSink>(out: &mut S, bytes: &[u8]) {
    write_json_text(out, bytes, TextBytes::JavaLossy);
}

/// Appends string bytes read as `mode` says, quoted and escaped. Bound: [`quoted_bound`] (an
/// escaped surrogate is 6 bytes for 3).
#[inline]
pub fn write_json_text<S: ByteSink>(out: &mut S, bytes: &[u8], mode: TextBytes) {
    if let Ok(s) = std::str::from_utf8(bytes) {
        write_json_str(out, s);
        return;
    }
    out.put_byte(b'"');
    let mut rest = bytes;
    loop {
        let error = match std::str::from_utf8(rest) {
            Ok(valid) => {
                escape_into(out, valid);
                break;
            }
            Err(error) => error,
        };
        let (valid, invalid) = rest.split_at(error.valid_up_to());
        if let Ok(valid) = std::str::from_utf8(valid) {
            escape_into(out, valid);
        }
        let used = match surrogate_unit(invalid, mode) {
            Some(unit) => {
                out.put_chunk(&unicode_escape(unit), 6);
                3
            }
            None => {
                out.put("\u{FFFD}".as_bytes());
                java_malformed_length(invalid, error.error_len())
            }
        };
        rest = &invalid[used.min(invalid.len())..];
    }
    out.put_byte(b'"');
}

/// The UTF-16 code unit of a WTF-8 encoded surrogate at the start of `invalid`, read as `mode`.
#[inline]
fn surrogate_unit(invalid: &[u8], mode: TextBytes) -> Option<u16> {
    match (mode, invalid) {
        (TextBytes::Wtf8, [0xED, second @ 0xA0..=0xBF, third, ..]) if third & 0xC0 == 0x80 => {
            Some(0xD000 | u16::from(second & 0x3F) << 6 | u16::from(third & 0x3F))
        }
        _ => None,
    }
}

/// `\uXXXX`, uppercase hex as Jackson writes it.
fn unicode_escape(unit: u16) -> [u8; 6] {
    let hex = |shift: u16| UPPER_HEX[usize::from((unit >> shift) & 0xF)];
    [b'\\', b'u', hex(12), hex(8), hex(4), hex(0)]
}

/// How many bytes Java's decoder replaces by one U+FFFD at the start of `invalid`, given the
/// length Rust's maximal-subpart rule reports (`None`: an incomplete sequence at the end).
#[cold]
fn java_malformed_length(invalid: &[u8], maximal_subpart: Option<usize>) -> usize {
    match invalid {
        [0xED, 0xA0..=0xBF, third, ..] if third & 0xC0 == 0x80 => 3,
        [0xED, 0xA0..=0xBF, ..] => 2,
        _ => maximal_subpart.unwrap_or(invalid.len()),
    }
}

/// `bytes` as the string Java's UTF-8 decoder makes of them, in UTF-8: invalid sequences
/// replaced by U+FFFD as [`write_json_bytes_lossy`] replaces them. Borrowed when valid.
/// (Map keys from binaries compare by this: Jackson's ObjectNode keys are Java strings.)
pub fn java_lossy_utf8(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    java_text(bytes, TextBytes::JavaLossy)
}

/// `bytes` read as `mode` says, in a form where two keys compare equal exactly when Java's
/// strings of them are equal: invalid sequences become U+FFFD, WTF-8 surrogates stay as they
/// are. Borrowed when valid UTF-8.
pub fn java_text(bytes: &[u8], mode: TextBytes) -> std::borrow::Cow<'_, [u8]> {
    if std::str::from_utf8(bytes).is_ok() {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + 2);
    let mut rest = bytes;
    while let Err(error) = std::str::from_utf8(rest) {
        let (valid, invalid) = rest.split_at(error.valid_up_to());
        out.extend_from_slice(valid);
        let used = match surrogate_unit(invalid, mode) {
            Some(_) => {
                out.extend_from_slice(&invalid[..3]);
                3
            }
            None => {
                out.extend_from_slice("\u{FFFD}".as_bytes());
                java_malformed_length(invalid, error.error_len())
            }
        };
        rest = &invalid[used.min(invalid.len())..];
    }
    out.extend_from_slice(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(s: &str) -> Vec<u8> {
        let mut out = Vec::new();
        write_json_str(&mut out, s);
        out
    }

    /// The obvious char-by-char escaper the fast path must agree with.
    fn reference_escape(s: &str) -> Vec<u8> {
        let mut out = vec![b'"'];
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
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.extend_from_slice(format!("\\u{:04X}", unit).as_bytes());
                    }
                }
                c => out.extend_from_slice(c.encode_utf8(&mut [0u8; 4]).as_bytes()),
            }
        }
        out.push(b'"');
        out
    }

    #[test]
    fn short_escapes_and_quotes() {
        assert_eq!(json("a\"b\\c"), b"\"a\\\"b\\\\c\"");
        assert_eq!(json("\u{08}\t\n\u{0C}\r"), b"\"\\b\\t\\n\\f\\r\"");
        assert_eq!(json(""), b"\"\"");
        assert_eq!(json("ab"), b"\"ab\"");
    }

    #[test]
    fn every_control_char() {
        let short = [(0x08, "\\b"), (0x09, "\\t"), (0x0A, "\\n"), (0x0C, "\\f"), (0x0D, "\\r")];
        for c in 0u8..0x20 {
            let expected = match short.iter().find(|(b, _)| *b == c) {
                Some((_, text)) => text.to_string(),
                None => format!("\\u00{:02X}", c),
            };
            let got = json(std::str::from_utf8(&[c]).unwrap());
            assert_eq!(got, format!("\"{expected}\"").as_bytes(), "control {c:#04x}");
        }
        assert_eq!(json("\u{0}\u{0B}\u{1F}"), b"\"\\u0000\\u000B\\u001F\"");
    }

    #[test]
    fn raw_ascii_and_bmp() {
        for c in 0x20u8..0x80 {
            let s = std::str::from_utf8(&[c]).unwrap().to_string();
            let expected = match c {
                b'"' => b"\"\\\"\"".to_vec(),
                b'\\' => b"\"\\\\\"".to_vec(),
                _ => vec![b'"', c, b'"'],
            };
            assert_eq!(json(&s), expected, "ascii {c:#04x}");
        }
        assert_eq!(json("/'<>&\u{7F}"), b"\"/'<>&\x7F\"");
        assert_eq!(json("\u{E9}"), b"\"\xC3\xA9\"");
        assert_eq!(
            json("\u{2028}\u{2029}\u{FEFF}\u{FFFD}\u{FFFF}"),
            b"\"\xE2\x80\xA8\xE2\x80\xA9\xEF\xBB\xBF\xEF\xBF\xBD\xEF\xBF\xBF\""
        );
    }

    #[test]
    fn supplementary_as_surrogate_pairs() {
        assert_eq!(json("\u{1F600}"), b"\"\\uD83D\\uDE00\"");
        assert_eq!(json("\u{10000}"), b"\"\\uD800\\uDC00\"");
        assert_eq!(json("\u{10FFFF}"), b"\"\\uDBFF\\uDFFF\"");
        // A field name as Flink's Jackson escapes it.
        let mut out = Vec::new();
        escape_into(&mut out, "\u{E9}\u{1F600}");
        assert_eq!(out, b"\xC3\xA9\\uD83D\\uDE00");
    }

    #[test]
    fn lossy_bytes() {
        let mut out = Vec::new();
        write_json_bytes_lossy(&mut out, b"a\xFFb");
        assert_eq!(out, b"\"a\xEF\xBF\xBDb\"");
        out.clear();
        write_json_bytes_lossy(&mut out, b"\xF0\x9F\x98\x80");
        assert_eq!(out, b"\"\\uD83D\\uDE00\"");
        // Maximal subparts: a truncated 4-byte sequence is one U+FFFD, stray bytes one each.
        for input in [&b"x\xF0\x9F\x98\"y"[..], b"\xC0\xAF\n", b"\x80\x80", b"\xF4\x90\x80\x80"] {
            out.clear();
            write_json_bytes_lossy(&mut out, input);
            assert_eq!(out, reference_escape(&String::from_utf8_lossy(input)), "{input:?}");
        }
    }

    /// Expected strings printed by JDK 17 and JDK 25 for `new String(bytes, UTF_8)`: a UTF-8
    /// encoded surrogate is one U+FFFD (with its continuation byte), not one per byte.
    #[test]
    fn lossy_bytes_replace_encoded_surrogates_as_java() {
        let cases: [(&[u8], &str); 7] = [
            (b"\xED\xA0\x80", "\u{FFFD}"),
            (b"\xED\xBF\xBF", "\u{FFFD}"),
            (b"\xED\xA0A", "\u{FFFD}A"),
            (b"\xED\xBF", "\u{FFFD}"),
            (b"a\xED\xA0\x80\xED\xB0\x80b", "a\u{FFFD}\u{FFFD}b"),
            (b"\xC2\xED\xA0", "\u{FFFD}\u{FFFD}"),
            (b"\xED\x9F\xBF\xED\x80", "\u{D7FF}\u{FFFD}"),
        ];
        for (input, java) in cases {
            let mut out = Vec::new();
            write_json_bytes_lossy(&mut out, input);
            assert_eq!(out, reference_escape(java), "{input:?}");
        }
    }

    /// WTF-8: each encoded surrogate is the escape Jackson writes for that UTF-16 unit (lone or
    /// not, high or low); anything else that is not UTF-8 is replaced as Java's decoder does.
    #[test]
    fn wtf8_surrogates_are_escaped_as_jackson_writes_them() {
        let cases: [(&[u8], &[u8]); 8] = [
            (b"a\xED\xA0\x80b", b"\"a\\uD800b\""),
            (b"\xED\xB0\x80", b"\"\\uDC00\""),
            (b"\xED\xAF\xBF\xED\xA0\x80\xED\xB0\x80", b"\"\\uDBFF\\uD800\\uDC00\""),
            (b"x\xED\xB0\x80\xED\xA0\x80y", b"\"x\\uDC00\\uD800y\""),
            (b"\xF0\x9F\x98\x80\xED\xA0\x80", b"\"\\uD83D\\uDE00\\uD800\""),
            (b"\xED\xA0A", b"\"\xEF\xBF\xBDA\""),
            (b"a\xC3(\"", b"\"a\xEF\xBF\xBD(\\\"\""),
            (b"\xED\x9F\xBF", b"\"\xED\x9F\xBF\""),
        ];
        for (input, expected) in cases {
            let mut out = Vec::new();
            write_json_text(&mut out, input, TextBytes::Wtf8);
            assert_eq!(out, expected, "{input:?}: {}", String::from_utf8_lossy(&out));
        }
    }

    #[test]
    fn java_text_keeps_wtf8_surrogates_and_replaces_the_rest() {
        assert_eq!(java_text(b"a\xED\xA0\x80", TextBytes::Wtf8).as_ref(), b"a\xED\xA0\x80");
        assert_eq!(java_text(b"a\xED\xA0\x80", TextBytes::JavaLossy).as_ref(), "a\u{FFFD}".as_bytes());
        assert_eq!(java_text(b"\xFF\xED\xB0\x80", TextBytes::Wtf8).as_ref(), b"\xEF\xBF\xBD\xED\xB0\x80");
        assert!(matches!(java_text(b"plain", TextBytes::Wtf8), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn needs_escape_flags_each_class() {
        assert!(!needs_escape(b""));
        assert!(!needs_escape(b"plain ascii text, 0123456789 /'<>&\x7F"));
        assert!(!needs_escape("caf\u{E9} \u{FFFF} \u{2028} long enough to use words".as_bytes()));
        for bad in [b'"', b'\\', 0x00, 0x1F, 0x0A, 0xF0, 0xF4, 0xFF] {
            for pos in 0..20 {
                let mut bytes = vec![b'a'; 20];
                bytes[pos] = bad;
                assert!(needs_escape(&bytes), "byte {bad:#04x} at {pos}");
                assert_eq!(
                    scan::find_attention(scan::Unit::detected(), &bytes, 0),
                    Some(pos),
                    "byte {bad:#04x} at {pos}"
                );
            }
        }
        for fine in [0x20u8, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xBF, 0xC3, 0xEF] {
            assert!(!needs_escape(&[fine; 17]), "byte {fine:#04x}");
        }
    }

    /// xorshift64*: deterministic, no dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_char(rng: &mut Rng) -> char {
        const PICKS: [char; 12] = [
            '"',
            '\\',
            '/',
            '\u{7F}',
            '\u{0}',
            '\n',
            '\u{1F}',
            '\u{E9}',
            '\u{2028}',
            '\u{FFFF}',
            '\u{1F600}',
            '\u{10FFFF}',
        ];
        match rng.below(10) {
            0..=4 => (b' ' + rng.below(95) as u8) as char,
            5 => (rng.below(0x20) as u8) as char,
            6 => PICKS[rng.below(PICKS.len() as u64) as usize],
            7 => char::from_u32(0x80 + rng.below(0x780) as u32).unwrap(),
            8 => char::from_u32(0x800 + rng.below(0xF800) as u32).unwrap_or('\u{FFFD}'),
            _ => char::from_u32(0x1_0000 + rng.below(0x10_0000) as u32).unwrap(),
        }
    }

    #[test]
    fn randomized_parity_with_reference() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for round in 0..4000 {
            let len = rng.below(300) as usize;
            // Mostly clean strings with sparse specials, so runs cross word boundaries.
            let clean_bias = round % 3 != 0;
            let s: String =
                (0..len).map(|_| if clean_bias && rng.below(16) != 0 { 'a' } else { random_char(&mut rng) }).collect();
            assert_eq!(json(&s), reference_escape(&s), "round {round}: {s:?}");
            let needs = s.chars().any(|c| c == '"' || c == '\\' || (c as u32) < 0x20 || (c as u32) > 0xFFFF);
            assert_eq!(needs_escape(s.as_bytes()), needs, "round {round}: {s:?}");
            let mut bytes = s.into_bytes();
            if !bytes.is_empty() {
                let at = rng.below(bytes.len() as u64) as usize;
                bytes[at] = rng.next() as u8;
            }
            // Rust's maximal-subpart rule is Java's except for encoded surrogates, which
            // `lossy_bytes_replace_encoded_surrogates_as_java` and the escape fuzz target cover.
            let encoded_surrogate = bytes.windows(2).any(|w| w[0] == 0xED && w[1] >= 0xA0 && w[1] <= 0xBF);
            if encoded_surrogate {
                continue;
            }
            let mut out = Vec::new();
            write_json_bytes_lossy(&mut out, &bytes);
            assert_eq!(out, reference_escape(&String::from_utf8_lossy(&bytes)), "round {round}");
        }
    }

    /// Two escapes at every pair of offsets: several in one window, in the overlapping last
    /// window, and where fewer than a whole window of input is left after one.
    #[test]
    fn two_specials_at_every_pair_of_offsets() {
        for len in 15..72 {
            for first in 0..len {
                for second in first + 1..len {
                    for (a, b) in [('\\', '"'), ('"', '\n'), ('\u{1F600}', '\\')] {
                        let mut chars = vec!['x'; len];
                        chars[first] = a;
                        chars[second] = b;
                        let s: String = chars.into_iter().collect();
                        assert_eq!(json(&s), reference_escape(&s), "{s:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn single_special_at_every_offset() {
        for len in 0..40 {
            for pos in 0..len {
                for special in ["\"", "\u{1}", "\u{1F600}", "\u{E9}"] {
                    let s = format!("{}{}{}", "x".repeat(pos), special, "y".repeat(len - pos - 1));
                    assert_eq!(json(&s), reference_escape(&s), "{s:?}");
                }
            }
        }
    }
}
