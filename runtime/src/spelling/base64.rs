//! BINARY / VARBINARY: standard Base64 with padding, no line breaks, as a JSON string.
//!
//! Jackson's `MIME-NO-LINEFEEDS` variant: the standard alphabet (`+`, `/`) with `=` padding. No
//! character of the alphabet needs JSON escaping, so the text goes between quotes as-is.

use super::sink::ByteSink;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Number of Base64 characters (padding included) for `len` input bytes.
#[inline]
pub fn base64_len(len: usize) -> usize {
    len.div_ceil(3) * 4
}

/// Input bytes encoded per step: twelve groups of three, 48 characters.
const BLOCK_INPUT: usize = 36;

/// The most bytes [`write_base64_json`] writes for `len` input bytes: the text, its quotes, and
/// the write-ahead of the last 48-byte block.
#[inline]
pub fn base64_bound(len: usize) -> usize {
    base64_len(len) + 2 + 48
}

/// Appends `bytes` as a quoted Base64 JSON string (see [`base64_bound`]).
///
/// Encodes into a 48-byte stack block and appends it whole, cut to length: a fixed-size store
/// into either sink, with no capacity check per character.
pub fn write_base64_json<S: ByteSink>(out: &mut S, bytes: &[u8]) {
    out.put_byte(b'"');
    for block in bytes.chunks(BLOCK_INPUT) {
        let mut text = [0u8; 48];
        let len = base64_len(block.len());
        encode_into(&mut text[..len], block);
        out.put_chunk(&text, len);
    }
    out.put_byte(b'"');
}

/// Fills `dst` (exactly `base64_len(src.len())` bytes) with the padded Base64 of `src`.
fn encode_into(dst: &mut [u8], src: &[u8]) {
    let groups = src.chunks_exact(3);
    let tail = groups.remainder();
    let mut quads = dst.chunks_exact_mut(4);
    for (group, quad) in groups.zip(&mut quads) {
        let bits = (u32::from(group[0]) << 16) | (u32::from(group[1]) << 8) | u32::from(group[2]);
        quad[0] = ALPHABET[(bits >> 18) as usize];
        quad[1] = ALPHABET[((bits >> 12) & 0x3F) as usize];
        quad[2] = ALPHABET[((bits >> 6) & 0x3F) as usize];
        quad[3] = ALPHABET[(bits & 0x3F) as usize];
    }
    if let Some(quad) = quads.next() {
        let second = tail.get(1).copied().unwrap_or(0);
        let bits = (u32::from(tail[0]) << 16) | (u32::from(second) << 8);
        quad[0] = ALPHABET[(bits >> 18) as usize];
        quad[1] = ALPHABET[((bits >> 12) & 0x3F) as usize];
        quad[2] = if tail.len() == 2 { ALPHABET[((bits >> 6) & 0x3F) as usize] } else { b'=' };
        quad[3] = b'=';
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(bytes: &[u8]) -> String {
        let mut out = b"prefix".to_vec();
        write_base64_json(&mut out, bytes);
        String::from_utf8(out[6..].to_vec()).unwrap()
    }

    /// A plain decoder, independent of the encoder's tables.
    fn decode(text: &str) -> Vec<u8> {
        let sextet = |c: u8| match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        };
        assert_eq!(text.len() % 4, 0);
        let mut out = Vec::new();
        for quad in text.as_bytes().chunks(4) {
            let pads = quad.iter().filter(|&&c| c == b'=').count();
            let mut bits = 0u32;
            for &c in quad {
                bits = (bits << 6) | if c == b'=' { 0 } else { u32::from(sextet(c)) };
            }
            out.extend_from_slice(&bits.to_be_bytes()[1..4 - pads]);
        }
        out
    }

    #[test]
    fn reference_examples() {
        assert_eq!(json(&[]), "\"\"");
        assert_eq!(json(&[0]), "\"AA==\"");
        assert_eq!(json(&[1, 2]), "\"AQI=\"");
        assert_eq!(json(&[1, 2, 3]), "\"AQID\"");
        assert_eq!(json(&[0xFB, 0xFF, 0xBF]), "\"+/+/\"");
        assert_eq!(json(&[0xFF]), "\"/w==\"");
        let hundred: Vec<u8> = (0..100).collect();
        let text = json(&hundred);
        assert_eq!(text.len(), 136 + 2);
        assert!(!text.contains('\n'));
    }

    #[test]
    fn round_trip_all_lengths() {
        let mut state = 0x1234_5678u32;
        for len in 0..200 {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (state >> 24) as u8
                })
                .collect();
            let text = json(&bytes);
            assert_eq!(text.len(), base64_len(len) + 2);
            assert_eq!(decode(&text[1..text.len() - 1]), bytes, "len {len}");
        }
    }
}
