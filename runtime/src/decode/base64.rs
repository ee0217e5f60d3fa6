//! Base64 as Jackson's `getBinaryValue()` reads it with its default variant: the standard
//! alphabet, padding required, nothing but whitespace between units.

pub(crate) fn decode(units: &[u16]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(units.len() / 4 * 3);
    let mut quad = [0u32; 4];
    let mut filled = 0;
    let mut padding = 0;
    for &unit in units {
        if unit <= 0x20 && filled == 0 {
            continue;
        }
        let sextet = match unit {
            0x41..=0x5A => unit - 0x41,
            0x61..=0x7A => unit - 0x61 + 26,
            0x30..=0x39 => unit - 0x30 + 52,
            0x2B => 62,
            0x2F => 63,
            0x3D if filled >= 2 => {
                padding += 1;
                0
            }
            _ => return Err(illegal(unit)),
        };
        if padding > 0 && unit != 0x3D {
            return Err(illegal(unit));
        }
        quad[filled] = u32::from(sextet);
        filled += 1;
        if filled == 4 {
            let bits = quad[0] << 18 | quad[1] << 12 | quad[2] << 6 | quad[3];
            let bytes = [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8];
            out.extend_from_slice(&bytes[..3 - padding]);
            if padding > 0 {
                return if trailing_after_padding(units) {
                    Err("Unexpected content after padding".to_string())
                } else {
                    Ok(out)
                };
            }
            filled = 0;
        }
    }
    match filled {
        0 => Ok(out),
        _ => Err("Unexpected end-of-String when base64 content".to_string()),
    }
}

/// Base64 straight from a JSON string's raw bytes starting at `start`, as Jackson decodes it:
/// whitespace only between quartets, `=` padding required, the closing quote only at a quartet
/// boundary. Returns the bytes and the position after the quote, or the error and the position
/// just past the byte that caused it.
pub(crate) fn decode_raw(input: &[u8], start: usize) -> (Result<Vec<u8>, String>, usize) {
    let mut out = Vec::new();
    let mut pos = start;
    // A backslash escape stands for the character it spells (Jackson's `_decodeBase64Escape`).
    let next = |pos: &mut usize| -> Option<u32> {
        let byte = *input.get(*pos)?;
        *pos += 1;
        if byte != b'\\' {
            return Some(u32::from(byte));
        }
        let letter = *input.get(*pos)?;
        *pos += 1;
        Some(match letter {
            b'u' => {
                let hex = input.get(*pos..*pos + 4)?;
                *pos += 4;
                u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?
            }
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => 0x0A,
            b'r' => 0x0D,
            b't' => 0x09,
            other => u32::from(other),
        })
    };
    let eof = "Unexpected end-of-input in VALUE_STRING".to_string();
    loop {
        let Some(first) = next(&mut pos) else { return (Err(eof), pos) };
        if first <= 0x20 {
            continue;
        }
        if first == u32::from(b'"') && input.get(pos - 1) == Some(&b'"') {
            return (Ok(out), pos);
        }
        let mut quad = [0u32; 4];
        let mut used = 4;
        for (i, slot) in quad.iter_mut().enumerate() {
            let byte = if i == 0 {
                first
            } else {
                match next(&mut pos) {
                    Some(byte) => byte,
                    None => return (Err(eof), pos),
                }
            };
            if byte == u32::from(b'=') && i >= 2 {
                if i == 2 && next(&mut pos) != Some(u32::from(b'=')) {
                    return (Err("expected padding character '='".to_string()), pos);
                }
                used = i;
                break;
            }
            match u8::try_from(byte).ok().and_then(sextet) {
                Some(bits) => *slot = bits,
                None => return (Err(illegal(byte as u16)), pos),
            }
        }
        let bits = quad[0] << 18 | quad[1] << 12 | quad[2] << 6 | quad[3];
        out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8][..used - 1]);
    }
}

fn sextet(byte: u8) -> Option<u32> {
    Some(u32::from(match byte {
        b'A'..=b'Z' => byte - b'A',
        b'a'..=b'z' => byte - b'a' + 26,
        b'0'..=b'9' => byte - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    }))
}

fn trailing_after_padding(units: &[u16]) -> bool {
    let last_pad = units.iter().rposition(|&u| u == 0x3D).unwrap_or(0);
    units[last_pad + 1..].iter().any(|&u| u > 0x20)
}

fn illegal(unit: u16) -> String {
    format!("Illegal character (code 0x{unit:x}) in base64 content")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn padded_standard_base64() {
        assert_eq!(decode(&units("aGVsbG8=")).unwrap(), b"hello");
        assert_eq!(decode(&units("aGk=")).unwrap(), b"hi");
        assert_eq!(decode(&units("")).unwrap(), b"");
        assert!(decode(&units("aGk")).is_err());
        assert!(decode(&units("a-k=")).is_err());
    }

    #[test]
    fn raw_base64_stops_just_past_the_bad_byte() {
        assert_eq!(decode_raw(b"aGVsbG8=\",", 0), (Ok(b"hello".to_vec()), 9));
        assert_eq!(decode_raw(b" aGk= \"", 0), (Ok(b"hi".to_vec()), 7));
        assert!(matches!(decode_raw(b"aG\xFEk=\"", 0), (Err(_), 3)));
        // A quote inside a quartet is an illegal character, not the end.
        assert!(matches!(decode_raw(b"aGk\",\"", 0), (Err(_), 4)));
        // Escapes spell characters: an escaped control character is skipped like whitespace.
        assert_eq!(decode_raw(b"\\u0000aGk=\"", 0), (Ok(b"hi".to_vec()), 11));
        assert_eq!(decode_raw(b"\\u0061Gk=\"", 0), (Ok(b"hi".to_vec()), 10));
    }
}
