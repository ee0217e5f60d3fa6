//! Java's UTF-8 decoding (`new String(bytes, UTF_8)`), written from the JDK's rules for
//! malformed input, byte by byte: the reference the lossy string path must agree with.
//!
//! It differs from the Unicode "maximal subpart" rule (Rust's `from_utf8_lossy`) in one place:
//! a UTF-8 encoded surrogate (`ED A0..BF`, then a continuation byte) is one malformed sequence
//! for Java, three for Rust.

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// How many bytes at the start of `rest` Java decodes as one unit, and the chars it gives.
fn next_unit(rest: &[u8]) -> (usize, Option<char>) {
    let b1 = rest[0];
    let at = |i: usize| rest.get(i).copied();
    match b1 {
        0x00..=0x7F => (1, Some(b1 as char)),
        0xC2..=0xDF => match at(1) {
            Some(b2) if is_continuation(b2) => (2, char::from_u32((u32::from(b1 & 0x1F) << 6) | u32::from(b2 & 0x3F))),
            Some(_) => (1, None),
            None => (1, None),
        },
        0xE0..=0xEF => three_byte(rest),
        0xF0..=0xF7 => four_byte(rest),
        _ => (1, None),
    }
}

fn three_byte(rest: &[u8]) -> (usize, Option<char>) {
    let b1 = rest[0];
    let overlong = |b2: u8| b1 == 0xE0 && b2 & 0xE0 == 0x80;
    match (rest.get(1).copied(), rest.get(2).copied()) {
        (None, _) => (1, None),
        // Two bytes left: malformed if the second cannot continue, else an incomplete tail.
        (Some(b2), None) => match overlong(b2) || !is_continuation(b2) {
            true => (1, None),
            false => (2, None),
        },
        (Some(b2), Some(b3)) => {
            if overlong(b2) || !is_continuation(b2) {
                return (1, None);
            }
            if !is_continuation(b3) {
                return (2, None);
            }
            let c = (u32::from(b1 & 0x0F) << 12) | (u32::from(b2 & 0x3F) << 6) | u32::from(b3 & 0x3F);
            // A surrogate decodes, then is refused whole (all three bytes).
            (3, char::from_u32(c))
        }
    }
}

fn four_byte(rest: &[u8]) -> (usize, Option<char>) {
    let b1 = rest[0];
    let bad_second = |b2: u8| {
        b1 > 0xF4
            || (b1 == 0xF0 && !(0x90..=0xBF).contains(&b2))
            || (b1 == 0xF4 && b2 & 0xF0 != 0x80)
            || !is_continuation(b2)
    };
    let (b2, b3, b4) = (rest.get(1).copied(), rest.get(2).copied(), rest.get(3).copied());
    if b1 > 0xF4 {
        return (1, None);
    }
    match b2 {
        None => return (1, None),
        Some(b2) if bad_second(b2) => return (1, None),
        _ => {}
    }
    match b3 {
        None => return (2, None),
        Some(b3) if !is_continuation(b3) => return (2, None),
        _ => {}
    }
    match (b2, b3, b4) {
        (Some(b2), Some(b3), Some(b4)) if is_continuation(b4) => {
            let c = (u32::from(b1 & 0x07) << 18)
                | (u32::from(b2 & 0x3F) << 12)
                | (u32::from(b3 & 0x3F) << 6)
                | u32::from(b4 & 0x3F);
            (4, char::from_u32(c))
        }
        _ => (3, None),
    }
}

/// `new String(bytes, StandardCharsets.UTF_8)`, as a Rust string.
pub fn java_decode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let (used, c) = next_unit(&bytes[at..]);
        out.push(c.unwrap_or('\u{FFFD}'));
        at += used;
    }
    out
}
