//! Single values: extremes and edges of every type, every escape class of Flink's JSON strings,
//! broken UTF-8 for Binary declared STRING, and values the encoder must refuse when asked for.
use crate::choices::Choices;

pub fn int(c: &mut dyn Choices) -> i64 {
    match c.below(8) {
        0 => c.pick(&[0, -1, 1, i64::MIN, i64::MAX, i64::from(i32::MIN), i64::from(i16::MAX), -128, 127]),
        1 => c.word() as i64,
        2 => {
            let digits = c.below(19) as u32;
            c.below(10u64.pow(digits)) as i64 * c.pick(&[1, -1])
        }
        _ => c.below(100_000) as i64 - 50_000,
    }
}

pub fn float64(c: &mut dyn Choices) -> f64 {
    match c.below(6) {
        0 => c.pick(&[
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            5e-324,
            1e7,
            9_999_999.999,
            1e-3,
            0.000_999_9,
            1e23,
            0.1 + 0.2,
        ]),
        1 => f64::from_bits(c.word()),
        2 => (c.below(2_000_000) as f64 - 1e6) / 1000.0,
        _ => c.below(1 << 40) as f64 * 10f64.powi(c.below(40) as i32 - 20),
    }
}

pub fn float32(c: &mut dyn Choices) -> f32 {
    match c.below(5) {
        0 => c.pick(&[0.0, -0.0, f32::NAN, f32::INFINITY, f32::MIN_POSITIVE, f32::MAX, 1e7, 1.0e-45, 9.69785e10]),
        1 => f32::from_bits(c.word() as u32),
        _ => float64(c) as f32,
    }
}

/// An unscaled decimal; rarely one past the precision (producers can send it).
pub fn decimal(c: &mut dyn Choices, precision: u8, scale: u8) -> i128 {
    let max = 10i128.pow(u32::from(precision)) - 1;
    match c.below(12) {
        0 | 1 => c.pick(&[0, 1, -1, max, -max, 10i128.pow(u32::from(scale)), 100]),
        2 | 3 => (i128::from(c.word()) << 64 | i128::from(c.word())) % (max + 1),
        4 | 5 => i128::from(c.below(1000)) * 10i128.pow(c.below(u64::from(precision).saturating_sub(2)) as u32),
        6 => i128::from(c.word()) << 64 | i128::from(c.word()),
        _ => i128::from(c.word() as i64) % (max + 1),
    }
}

/// Days since the epoch: around today, the years 0 and 9999, anything.
pub fn day(c: &mut dyn Choices) -> i64 {
    match c.below(5) {
        0 => c.pick(&[0, -1, -719_528, -719_529, 2_932_896, 2_932_897, -354_285]),
        1 => i64::from(c.word() as i32),
        _ => 19_000 + c.below(3) as i64,
    }
}

/// Milliseconds of the day; with `refused`, sometimes outside the day (a TIME Flink refuses).
pub fn time_millis(c: &mut dyn Choices, refused: bool) -> i64 {
    if refused && c.chance(60) {
        let any = c.word() as i64;
        return c.pick(&[-1, 86_400_000, i64::from(i32::MAX), any]);
    }
    let any = c.below(86_400_000) as i64;
    c.pick(&[0, 1, 10, 120, 86_399_999, 45_296_789, any])
}

/// Characters from every escape class of Flink's JSON strings.
const SPECIAL: [char; 14] = [
    '"',
    '\\',
    '/',
    '\u{7F}',
    '\u{0}',
    '\n',
    '\t',
    '\u{1F}',
    '\u{E9}',
    '\u{2028}',
    '\u{FFFF}',
    '\u{1F600}',
    '\u{10FFFF}',
    '\u{8}',
];
/// Pieces long values repeat: every escape class.
const PIECES: [&str; 14] = [
    "a",
    "ab cd",
    "\"",
    "\\",
    "\n",
    "\u{0}",
    "\u{1f}",
    "\u{7f}",
    "/",
    "\u{e9}",
    "\u{2028}",
    "\u{1F600}",
    "\u{10FFFF}",
    "k",
];
/// Invalid UTF-8: a lone byte, a cut sequence, an encoded surrogate, overlong, past U+10FFFF.
const BROKEN_UTF8: [&[u8]; 6] = [b"\xff", b"\xf0\x9f\x98", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80", b"\xf4\x90\x80\x80"];

/// A string value. `long_per_mille`: the chance of one up to 70 KB long (it crosses every block
/// of the escape scan).
pub fn text(c: &mut dyn Choices, long_per_mille: u32) -> String {
    if c.chance(long_per_mille) {
        return c.pick(&PIECES).repeat(1 + c.below(7000) as usize);
    }
    let len = match c.below(6) {
        0 => 0,
        1 => c.below(4),
        2 => 16 + c.below(40),
        _ => c.below(24),
    } as usize;
    let clean = c.chance(500);
    (0..len)
        .map(|_| match c.below(14) {
            0 if !clean => c.pick(&SPECIAL),
            1 if !clean => char::from(c.below(0x20) as u8),
            2 => char::from_u32(0x80 + c.below(0x700) as u32).unwrap_or('x'),
            3 => char::from_u32(c.word() as u32 % 0x11_0000).unwrap_or('\u{FFFD}'),
            _ => match b' ' + c.below(95) as u8 {
                b'"' | b'\\' => 'q',
                c => char::from(c),
            },
        })
        .collect()
}

/// A text without controls, quotes, backslashes or non-BMP characters (the common case).
pub fn clean(text: String) -> String {
    text.replace(|c: char| c < ' ' || c == '"' || c == '\\' || c > '\u{FFFF}', "_")
}

/// The bytes of a string carried as Binary: UTF-8, sometimes broken (Java decodes it lossily, or
/// as WTF-8 where the field says so).
pub fn text_bytes(c: &mut dyn Choices, text: String) -> Vec<u8> {
    let mut bytes = text.into_bytes();
    if !bytes.is_empty() && c.chance(200) {
        let at = c.below(bytes.len() as u64) as usize;
        bytes[at] = 0xFF;
    }
    if c.chance(150) {
        let at = c.below(bytes.len() as u64 + 1) as usize;
        let broken = c.pick(&BROKEN_UTF8);
        bytes.splice(at..at, broken.iter().copied());
    }
    if c.chance(100) {
        // An encoded surrogate: U+FFFD, or a `\uD8xx` escape under WTF-8.
        bytes.extend_from_slice(&[0xED, c.pick(&[0xA0, 0xAF, 0xB0, 0xBF]), 0x80]);
    }
    bytes
}

/// Any bytes (BYTES values): up to `max` long, or with `long_per_mille` up to 70 KB.
pub fn bytes(c: &mut dyn Choices, max: u64, long_per_mille: u32) -> Vec<u8> {
    let max = if c.chance(long_per_mille) { 70_000 } else { max };
    let len = c.below(max + 1) as usize;
    (0..len).map(|_| c.below(256) as u8).collect()
}

/// Map keys: a few distinct ones, so that repeated keys are common, or any text.
pub fn map_key(c: &mut dyn Choices) -> String {
    match c.below(10) {
        0..=4 => c.pick(&["k", "a", "null", "null-key", "a\"b"]).to_string(),
        _ => text(c, 0),
    }
}
