//! Random Kafka records for a table's json sides: mostly the message Flink writes, with every
//! departure a decoder must take the slow path on (malformed, truncated, wrong token types,
//! reordered, missing, repeated, unknown and escaped names, huge numbers, odd whitespace,
//! top-level arrays). Deterministic from a seed.
use kjson_arrow::runtime::{LogicalType, SinkSpec};

/// xorshift64*: no dependency, stable across platforms.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True `per_mille` times in a thousand.
    pub fn chance(&mut self, per_mille: usize) -> bool {
        self.below(1000) < per_mille
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// One side's fields: (JSON name, type).
pub type Fields = Vec<(String, LogicalType)>;

/// The value side's fields of `spec`.
pub fn value_fields(spec: &SinkSpec) -> Fields {
    let side = &spec.value;
    side.projection.iter().zip(&side.field_names).map(|(&at, n)| (n.clone(), logical(spec, at))).collect()
}

/// The key side's fields of `spec` (none without a key).
pub fn key_fields(spec: &SinkSpec) -> Fields {
    let Some(side) = &spec.key else { return Vec::new() };
    side.projection.iter().zip(&side.field_names).map(|(&at, n)| (n.clone(), logical(spec, at))).collect()
}

fn logical(spec: &SinkSpec, at: usize) -> LogicalType {
    spec.columns[at].data_type.logical.clone()
}

/// A record of `fields`: `None` is a null record (a tombstone on the value side).
pub fn record(rng: &mut Rng, fields: &Fields, malformed: bool) -> Option<Vec<u8>> {
    if malformed && rng.chance(20) {
        return None;
    }
    let mut text = object(rng, fields, 1, malformed);
    if malformed {
        text = mangle(rng, text, fields);
    }
    Some(text.into_bytes())
}

/// Whole-message departures: truncation, trailing bytes, arrays of rows, empty and odd messages.
fn mangle(rng: &mut Rng, text: String, fields: &Fields) -> String {
    match rng.below(40) {
        0 => text[..floor_char(&text, rng.below(text.len()))].to_string(),
        1 => format!("{text}{}", rng.pick(&[" ", "x", "}", ",{}", "\n"])),
        2 => format!("[{text},{}]", object(rng, fields, 1, true)),
        3 => rng.pick(&["", "null", "[]", "{}", "   ", "1", "\"s\"", "[1]", "{", "{\"a\":"]).to_string(),
        4 => format!("  \n{text}"),
        _ => text,
    }
}

fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// An object of `fields`: schema order mostly; sometimes reordered, missing, repeated, unknown
/// or escaped members, and whitespace.
fn object(rng: &mut Rng, fields: &Fields, depth: usize, malformed: bool) -> String {
    let mut order: Vec<usize> = (0..fields.len()).collect();
    if malformed {
        if rng.chance(60) && order.len() > 1 {
            let (a, b) = (rng.below(order.len()), rng.below(order.len()));
            order.swap(a, b);
        }
        if rng.chance(60) && !order.is_empty() {
            order.remove(rng.below(order.len()));
        }
        if rng.chance(30) && !order.is_empty() {
            let again = order[rng.below(order.len())];
            order.push(again);
        }
    }
    let mut members: Vec<String> = order
        .iter()
        .map(|&index| {
            let (name, ty) = &fields[index];
            let name = if malformed && rng.chance(15) { escaped(name) } else { name.clone() };
            format!("\"{name}\":{}", value(rng, ty, depth, malformed))
        })
        .collect();
    if malformed && rng.chance(60) {
        let unknown = rng.pick(&["1", "\"x\"", "null", "{\"a\":1}", "[1,2]", "true", "1e999", "\"\\ud800\""]);
        let at = rng.below(members.len() + 1);
        members.insert(at, format!("\"{}\":{unknown}", rng.pick(&["zz", "extra_field", "é", "a\\\"b"])));
    }
    let separator = if malformed && rng.chance(40) { rng.pick(&[", ", " ,", ",\n "]) } else { "," };
    format!("{{{}}}", members.join(separator))
}

/// `name` with its first character as a `\u` escape (the same name to Jackson, other bytes).
fn escaped(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if (c as u32) < 0x10000 => format!("\\u{:04x}{}", c as u32, chars.as_str()),
        _ => name.to_string(),
    }
}

/// A value of `ty`, sometimes `null` or a token of another type.
fn value(rng: &mut Rng, ty: &LogicalType, depth: usize, malformed: bool) -> String {
    if rng.chance(60) {
        return "null".into();
    }
    if malformed && rng.chance(40) {
        let wrong = ["\"x\"", "1", "1.5", "true", "{}", "[]", "\"2024-01-01\"", "-0", "1e400", "\"12\"", "nul", "tru"];
        return rng.pick(&wrong).to_string();
    }
    match ty {
        LogicalType::Boolean => rng.pick(&["true", "false"]).into(),
        LogicalType::TinyInt => integer(rng, 127, malformed),
        LogicalType::SmallInt => integer(rng, 32767, malformed),
        LogicalType::Int | LogicalType::Interval { .. } => integer(rng, 2_147_483_647, malformed),
        LogicalType::BigInt => integer(rng, i64::MAX as u64, malformed),
        LogicalType::Float | LogicalType::Double => floating(rng),
        LogicalType::Decimal { precision, scale } => decimal(rng, *precision, *scale),
        LogicalType::Char { .. } | LogicalType::VarChar { .. } => string(rng),
        LogicalType::Binary { .. } | LogicalType::VarBinary { .. } => {
            rng.pick(&["\"AAEC\"", "\"\"", "\"3q2+7w==\"", "\"not base64!\"", "\"AA\\u0045C\"", "\"AAE\""]).into()
        }
        LogicalType::Date => rng.pick(&["\"2024-02-29\"", "\"1970-01-01\"", "\"2023-02-29\"", "\"0001-01-01\""]).into(),
        LogicalType::Time { .. } => {
            rng.pick(&["\"12:34:56\"", "\"00:00:00.123\"", "\"23:59:59.999999\"", "\"25:00:00\""]).into()
        }
        LogicalType::Timestamp { .. } | LogicalType::TimestampLtz { .. } => timestamp(rng),
        LogicalType::Row(fields) => {
            let fields: Fields = fields.iter().map(|f| (f.name.clone(), f.data_type.logical.clone())).collect();
            object(rng, &fields, depth + 1, malformed)
        }
        LogicalType::Array(element) => {
            let items: Vec<String> =
                (0..rng.below(4)).map(|_| value(rng, &element.logical, depth + 1, malformed)).collect();
            format!("[{}]", items.join(","))
        }
        LogicalType::Map { value: item, .. } => {
            entries(rng, malformed, |rng| value(rng, &item.logical, depth + 1, malformed))
        }
        LogicalType::Multiset(_) => entries(rng, malformed, |rng| integer(rng, 5, malformed)),
        LogicalType::Unsupported { .. } => "null".into(),
    }
}

fn entries(rng: &mut Rng, malformed: bool, mut item: impl FnMut(&mut Rng) -> String) -> String {
    let keys = ["a", "b", "c", "key with space", "\\n", "é"];
    let count = rng.below(4);
    let mut members = Vec::new();
    for _ in 0..count {
        // Repeated keys only in malformed records (Flink never writes them).
        let key = if malformed { rng.pick(&keys) } else { keys[members.len()] };
        members.push(format!("\"{key}\":{}", item(rng)));
    }
    format!("{{{}}}", members.join(","))
}

fn integer(rng: &mut Rng, max: u64, malformed: bool) -> String {
    match rng.below(if malformed { 12 } else { 8 }) {
        0 => "0".into(),
        1 => format!("-{}", max),
        2 => max.to_string(),
        3..=7 => {
            let magnitude = rng.next() % (max.min(1 << 40) + 1);
            if rng.chance(300) {
                format!("-{magnitude}")
            } else {
                magnitude.to_string()
            }
        }
        8 => format!("{}", u128::from(max) + 1),
        9 => "123456789012345678901234567890".into(),
        10 => rng.pick(&["01", "-", "1.0", "1e2", "+1", "- 1", "0x10"]).into(),
        _ => format!("-{}", u128::from(max) + 2),
    }
}

fn floating(rng: &mut Rng) -> String {
    let plain = format!("{}.{}", rng.below(100_000), rng.below(1000));
    rng.pick(&["1.5", "-0.0", "0", "1e10", "3", "1.7976931348623157e308", "1e400", "-2.5E-3", "0.1", &plain]).into()
}

fn decimal(rng: &mut Rng, precision: u8, scale: u8) -> String {
    let digits =
        |rng: &mut Rng, n: usize| (0..n.max(1)).map(|_| char::from(b'0' + rng.below(10) as u8)).collect::<String>();
    let int_digits = rng.below(usize::from(precision - scale) + 2);
    let fraction_digits = rng.below(usize::from(scale) + 2);
    let fraction = digits(rng, fraction_digits);
    let sign = if rng.chance(300) { "-" } else { "" };
    match rng.below(6) {
        0 => {
            let mantissa = digits(rng, 3);
            format!("{sign}{mantissa}e{}", rng.below(5))
        }
        1 => format!("{sign}{}", digits(rng, int_digits).trim_start_matches('0').to_string() + "0"),
        _ => format!("{sign}{}.{fraction}", rng.below(10usize.pow(u32::from((precision - scale).min(9))))),
    }
}

fn string(rng: &mut Rng) -> String {
    let pieces =
        ["abc", "", " ", "\\n", "\\\"", "\\\\", "\\u00e9", "\\ud83d\\ude00", "é", "日本", "\\ud800", "\\/", "\\t"];
    let text: String = (0..rng.below(4)).map(|_| rng.pick(&pieces)).collect();
    format!("\"{text}\"")
}

fn timestamp(rng: &mut Rng) -> String {
    let forms = [
        "\"2024-01-02 03:04:05.123\"",
        "\"2024-01-02 03:04:05\"",
        "\"2024-01-02 03:04:05.123456789\"",
        "\"2024-01-02 03:04:05.123Z\"",
        "\"2024-01-02T03:04:05.123\"",
        "\"2024-01-02T03:04:05.123Z\"",
        "\"2024-01-02T03:04:05Z\"",
        "\"2024-13-02 03:04:05\"",
        "\"1969-12-31 23:59:59.999\"",
    ];
    rng.pick(&forms).into()
}

/// A changelog message of `format` (`debezium-json`, `ogg-json`, `maxwell-json`, `canal-json`)
/// around rows of `fields`: every operation, images null, the members sources add, and when
/// `malformed` members missing, repeated or of the wrong type, unknown operations, tombstones
/// and the whole-message departures of [`record`].
pub fn envelope(rng: &mut Rng, format: &str, fields: &Fields, malformed: bool) -> Option<Vec<u8>> {
    if malformed && rng.chance(20) {
        return None;
    }
    let mut members = match format {
        "debezium-json" => before_after(rng, fields, malformed, "op", ["c", "r", "u", "d"]),
        "ogg-json" => before_after(rng, fields, malformed, "op_type", ["I", "I", "U", "D"]),
        "maxwell-json" => data_old(rng, fields, malformed, false),
        _ => data_old(rng, fields, malformed, true),
    };
    if rng.chance(200) {
        let extra = rng.pick(&["\"ts_ms\":1700000000000", "\"source\":{\"db\":\"d\",\"pos\":[1,2]}", "\"xid\":null"]);
        let at = rng.below(members.len() + 1);
        members.insert(at, extra.to_string());
    }
    if malformed {
        if rng.chance(80) && !members.is_empty() {
            members.remove(rng.below(members.len()));
        }
        if rng.chance(60) && !members.is_empty() {
            let again = members[rng.below(members.len())].clone();
            members.push(again);
        }
        if rng.chance(60) && members.len() > 1 {
            let (a, b) = (rng.below(members.len()), rng.below(members.len()));
            members.swap(a, b);
        }
    }
    let text = format!("{{{}}}", members.join(","));
    Some(if malformed { mangle(rng, text, fields) } else { text }.into_bytes())
}

/// debezium's and ogg's `before`, `after` and operation (`codes`: insert, read, update, delete).
fn before_after(rng: &mut Rng, fields: &Fields, malformed: bool, op: &str, codes: [&str; 4]) -> Vec<String> {
    let k = rng.below(4);
    let image = |rng: &mut Rng, present: bool| match present {
        true => object(rng, fields, 1, malformed),
        false => "null".to_string(),
    };
    let before = image(rng, k >= 2);
    let after = image(rng, k != 3);
    let code = match malformed && rng.chance(80) {
        true => rng.pick(&["\"x\"", "1", "null", "\"cc\"", "\"\"", "{}"]).to_string(),
        false => format!("\"{}\"", codes[k]),
    };
    vec![format!("\"before\":{before}"), format!("\"after\":{after}"), format!("\"{op}\":{code}")]
}

/// canal's (`data` and `old` arrays) and maxwell's (one object each) members: an operation, its
/// rows, and for an update `old`, the previous values of some fields.
fn data_old(rng: &mut Rng, fields: &Fields, malformed: bool, canal: bool) -> Vec<String> {
    let ops =
        if canal { ["INSERT", "UPDATE", "DELETE", "CREATE"] } else { ["insert", "update", "delete", "bootstrap"] };
    let k = rng.below(if malformed { 4 } else { 3 });
    let count = if canal { 1 + rng.below(2) } else { 1 };
    let data: Vec<String> = (0..count).map(|_| object(rng, fields, 1, malformed)).collect();
    let old: Vec<String> = (0..count)
        .map(|_| {
            let changed: Fields = fields.iter().filter(|_| rng.chance(300)).cloned().collect();
            object(rng, &changed, 1, malformed)
        })
        .collect();
    let list = |rows: &[String]| if canal { format!("[{}]", rows.join(",")) } else { rows[0].clone() };
    let mut members = vec![format!("\"data\":{}", list(&data))];
    if k == 1 || (malformed && rng.chance(100)) {
        members.push(format!("\"old\":{}", list(&old)));
    } else if canal || rng.chance(500) {
        members.push("\"old\":null".into());
    }
    members.push(format!("\"type\":\"{}\"", ops[k]));
    let names = if rng.chance(100) { ["\"other\"", "\"t2\""] } else { ["\"db\"", "\"t\""] };
    members.push(format!("\"database\":{}", names[0]));
    members.push(format!("\"table\":{}", names[1]));
    members
}
