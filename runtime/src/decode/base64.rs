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
}
