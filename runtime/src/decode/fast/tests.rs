//! The fast path against `direct`: on random messages (well-formed, reordered, repeated,
//! unknown and wrong-typed fields, whitespace, byte damage), under every option that changes a
//! value, a decoder with its fast plans gives exactly the batch, row kinds, record indices and
//! errors of the same decoder without them.
use crate::decode::{Decoder, OnError, RecordSide};
use crate::options::{Compatibility, FlinkVersion};
use crate::spec::SinkSpec;

const COLUMNS: &[(&str, &str)] = &[
    ("b", "BOOLEAN"),
    ("ti", "TINYINT"),
    ("si", "SMALLINT"),
    ("i", "INT"),
    ("bi", "BIGINT"),
    ("f", "FLOAT"),
    ("d", "DOUBLE"),
    ("dec", "DECIMAL(10, 2)"),
    ("dec38", "DECIMAL(38, 18)"),
    ("s", "STRING"),
    ("vb", "VARBINARY"),
    ("dt", "DATE"),
    ("tm", "TIME(3)"),
    ("ts", "TIMESTAMP(3)"),
    ("ts9", "TIMESTAMP(9)"),
    ("ltz", "TIMESTAMP_LTZ(3)"),
    ("r", "ROW<a INT, s STRING, arr ARRAY<BIGINT>>"),
    ("arr", "ARRAY<STRING>"),
    ("rarr", "ARRAY<ROW<x DOUBLE>>"),
    ("m", "MAP<STRING, INT>"),
    ("ms", "MULTISET<STRING>"),
    ("mr", "MAP<STRING, ARRAY<ROW<x DOUBLE>>>"),
];

/// Values per column, in the order of [`COLUMNS`]: common ones first, then corners.
const VALUES: &[&[&str]] = &[
    &["true", "false", "null", "\"true\"", "1", "tru"],
    &["1", "127", "-128", "128", "\"5\"", "1.5", "01"],
    &["-32768", "32767", "40000", "-0", "null"],
    &["7", "2147483647", "-2147483648", "2147483648", "1.9", "1e2", "\" 12 \"", "true"],
    &["3001000", "-1", "999999999999999999", "9223372036854775807", "9223372036854775808", "1.5e3", "-"],
    &["1.5", "-0.0", "3.4028235E39", "16777217", "\"NaN\"", "1e400", "1."],
    &["21.25", "-0.0", "1.0E-5", "1e400", "4.9e-325", "\"Infinity\"", "2", "1.e3"],
    &["1.005", "12345678.99", "123456789.5", "-0.5", "1e2", "\"2.5\"", "0.001", "99999999.995"],
    &["1.5", "12345678901234567890.123456789012345678", "-0.0000000000000000005", "1E-20", "123456789012345678901"],
    &[
        "\"abc\"",
        "\"a\\nb\\\"c\\\\\"",
        "\"\\u00e9t\\u00C9\"",
        "\"é😀\"",
        "\"\\ud83d\\ude00\"",
        "\"\\ud800x\"",
        "\"\\n\u{e9}\"",
        "\"\u{1}\"",
        "\"\\x\"",
        "{\"k\":1}",
        "[1,\"a\"]",
        "12",
        "\"\"",
    ],
    &["\"aGVsbG8=\"", "\"\"", "\"aGk\"", "\"a\\u0047k=\"", "\"!!!!\"", "\" aGk= \"", "5"],
    &["\"2024-02-29\"", "\"+10000-01-01\"", "\"2024-02-30\"", "\"2024-1-01\"", "\"2024-02-29 \""],
    &["\"01:02:03\"", "\"01:02:03.004\"", "\"24:00:00\"", "\"1:02:03\"", "\"01:02\"", "\"23:59:59.9999\""],
    &[
        "\"2024-01-01 01:02:03.123\"",
        "\"2024-02-30 00:00:00\"",
        "\"2024-01-01T01:02:03\"",
        "\"2024-01-01 24:00:00\"",
        "\"2024-01-01 01:02:03.\"",
        "\"2024-01-01 01:02\"",
        "\"2024-01-01T01:02\"",
    ],
    &[
        "\"2024-01-01 01:02:03.123456789\"",
        "\"1970-01-01 00:00:00\"",
        "\"2024-01-01T01:02:03.5\"",
        "\"2024-01-01 01:02:03.1234567891\"",
    ],
    &[
        "\"2024-01-01 01:02:03.123Z\"",
        "\"2024-01-01 01:02:03Z\"",
        "\"2024-01-01T01:02:03Z\"",
        "\"2024-01-01 01:02:03\"",
    ],
    &[
        "{\"a\":1,\"s\":\"x\",\"arr\":[1,2,null]}",
        "{\"s\":\"x\"}",
        "{\"a\":1,\"a\":2}",
        "{\"zz\":1,\"a\":3}",
        "{\"arr\":[1.5]}",
        "[]",
        "\"x\"",
        "{}",
    ],
    &["[\"a\",null,\"b\"]", "[]", "[1]", "\"x\"", "[[\"a\"]]", "[\"a\",]", "[ \"a\" , \"b\" ]"],
    &["[{\"x\":1.5},null,{\"x\":\"2\"}]", "[{}]", "[{\"x\":1,\"y\":2}]", "{\"x\":1}"],
    &["{\"a\":1,\"b\":null}", "{}", "{\"a\":1,\"a\":2}", "{\"\\u0061\":1}", "{\"a\":1.5}", "[1]", "{\"é\":3}"],
    &["{\"w\":2,\"v\":1}", "{}", "{\"w\":null}", "{\"w\":\"2\"}", "{\"w\":1,\"w\":5}", "{\"w\":2147483648}"],
    &["{\"k\":[{\"x\":1.5},null]}", "{\"k\":null,\"j\":[]}", "{\"k\":[{\"x\":\"a\"}]}", "{\"k\":{}}"],
];

const UNKNOWN: &[&str] = &["\"zz\":1", "\"yy\":\"s\\n\"", "\"obj\":{\"a\":1}", "\"ww\":null", "\"vv\":[1]"];
const SPACE: &[&str] = &["", "", "", "", " ", "\n", "\t ", "\r\n"];
const DAMAGE: &[u8] = b"\"\\{}[],: 0an\x80\xff\x01";

/// The messages' random source; the well-formed ones leave out the members of the columns whose
/// type `leave_out` names (none by default).
struct Rng {
    state: u64,
    leave_out: fn(&str) -> bool,
}

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng { state: seed, leave_out: |_| false }
    }
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.state >> 33
    }
    /// Whether well-formed messages write column `c`.
    fn writes(&self, c: usize) -> bool {
        !(self.leave_out)(COLUMNS[c].1)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    /// Mostly the first (common) values, sometimes any. The second is rarer than the first: on
    /// some columns it is a corner too, and a message of many columns should often have none.
    fn pick<'a>(&mut self, values: &[&'a str], corners: bool) -> &'a str {
        match !corners || self.chance(85) {
            true => values[usize::from(self.chance(20)).min(values.len() - 1)],
            false => values[self.below(values.len())],
        }
    }
}

fn message(rng: &mut Rng) -> Vec<u8> {
    // Half the messages are well-formed with common values: those the fast path must read.
    if rng.chance(50) {
        return clean(rng);
    }
    let mut order: Vec<usize> = (0..COLUMNS.len()).filter(|_| !rng.chance(8)).collect();
    if rng.chance(10) && !order.is_empty() {
        let (a, b) = (rng.below(order.len()), rng.below(order.len()));
        order.swap(a, b);
    }
    if rng.chance(5) && !order.is_empty() {
        order.push(order[rng.below(order.len())]);
    }
    let mut members: Vec<String> = order
        .iter()
        .map(|&c| {
            let space = || SPACE[(c * 7 + order.len()) % SPACE.len()];
            format!("\"{}\"{}:{}{}", COLUMNS[c].0, space(), space(), rng.pick(VALUES[c], true))
        })
        .collect();
    if rng.chance(10) {
        let at = rng.below(members.len() + 1);
        members.insert(at, UNKNOWN[rng.below(UNKNOWN.len())].to_string());
    }
    let separator = [",", ",", ", ", " ,\n"][rng.below(4)];
    let mut text = format!("{{{}}}", members.join(separator)).into_bytes();
    match rng.below(20) {
        0 => text.truncate(rng.below(text.len() + 1)),
        1 | 2 => {
            let at = rng.below(text.len());
            text[at] = DAMAGE[rng.below(DAMAGE.len())];
        }
        3 => text.insert(rng.below(text.len() + 1), DAMAGE[rng.below(DAMAGE.len())]),
        4 => {
            let prefix: &[u8] = [&b"\xEF\xBB\xBF"[..], b" ", b"[", b"\n"][rng.below(4)];
            text.splice(0..0, prefix.iter().copied());
        }
        5 => text.extend_from_slice(b" trailing"),
        _ => {}
    }
    text
}

/// The SQL timestamps of a message spelled as ISO-8601 (`T`), most of them.
fn iso_spelling(message: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(message).replace("-01 0", "-01T0").replace("-30 0", "-30T0").into_bytes()
}

fn clean(rng: &mut Rng) -> Vec<u8> {
    let mut members = Vec::new();
    let written: Vec<usize> = (0..COLUMNS.len()).filter(|&c| rng.writes(c)).collect();
    for c in written {
        let name = COLUMNS[c].0;
        members.push(format!("\"{name}\":{}", rng.pick(VALUES[c], false)));
    }
    format!("{{{}}}", members.join(",")).into_bytes()
}

fn is_nested(ty: &str) -> bool {
    ty.starts_with("ROW") || ty.starts_with("ARRAY")
}

/// A changelog's tree holds a string as UTF-16 units, which the fast path never decodes as
/// Base64.
fn is_binary(ty: &str) -> bool {
    ty == "VARBINARY"
}

/// A debezium-json envelope around images from [`message`].
fn envelope(rng: &mut Rng) -> Vec<u8> {
    let image = |rng: &mut Rng| match rng.chance(40) {
        true => "null".to_string(),
        false => String::from_utf8_lossy(&message(rng)).into_owned(),
    };
    let op = ["\"c\"", "\"d\"", "\"u\"", "\"r\"", "\"x\"", "null", "1", "\"\\u0063\""][rng.below(8)];
    let mut members =
        vec![format!("\"before\":{}", image(rng)), format!("\"after\":{}", image(rng)), format!("\"op\":{op}")];
    if rng.chance(20) {
        members.insert(rng.below(4), "\"source\":{\"db\":\"x\",\"n\":[1,{\"a\":null}]}".to_string());
    }
    if rng.chance(10) {
        members.remove(rng.below(3));
    }
    if rng.chance(5) {
        members.swap(0, 1);
    }
    if rng.chance(5) {
        let copy = members[rng.below(members.len())].clone();
        members.push(copy);
    }
    format!("{{{}}}", members.join(",")).into_bytes()
}

/// An image or nothing: `null` sometimes, else mostly a well-formed message, or one from
/// [`message`].
fn image(rng: &mut Rng) -> String {
    match rng.below(10) {
        0..3 => "null".to_string(),
        3..8 => String::from_utf8_lossy(&clean(rng)).into_owned(),
        _ => String::from_utf8_lossy(&message(rng)).into_owned(),
    }
}

/// An `old` before-image of canal or maxwell: some of the fields, now and then a null one, an
/// unknown one, or a field's name deeper down (which `findValue` finds too).
fn old_image(rng: &mut Rng) -> String {
    if rng.chance(10) {
        return image(rng);
    }
    let mut members = Vec::new();
    let written: Vec<usize> = (0..COLUMNS.len()).filter(|&c| rng.writes(c)).collect();
    for c in written {
        let name = COLUMNS[c].0;
        if rng.chance(30) {
            let value = if rng.chance(10) { "null" } else { rng.pick(VALUES[c], true) };
            members.push(format!("\"{name}\":{value}"));
        }
    }
    match rng.below(12) {
        0 => members.push(UNKNOWN[rng.below(UNKNOWN.len())].to_string()),
        1 => members.push("\"deep\":{\"i\":5,\"s\":\"x\"}".to_string()),
        _ => {}
    }
    format!("{{{}}}", members.join(","))
}

/// The members of an envelope shuffled now and then: one dropped, two swapped, one repeated,
/// an unknown one with a nested value added.
fn shuffled(rng: &mut Rng, mut members: Vec<String>) -> Vec<u8> {
    if rng.chance(20) {
        members.insert(rng.below(members.len() + 1), "\"source\":{\"db\":\"x\",\"n\":[1,{\"a\":null}]}".to_string());
    }
    if rng.chance(8) {
        members.remove(rng.below(members.len()));
    }
    if rng.chance(8) && members.len() > 1 {
        let (a, b) = (rng.below(members.len()), rng.below(members.len()));
        members.swap(a, b);
    }
    if rng.chance(4) {
        let copy = members[rng.below(members.len())].clone();
        members.push(copy);
    }
    format!("{{{}}}", members.join(",")).into_bytes()
}

/// Now and then only the members named in `order` (the ones Flink and the bench write), in that
/// order and without whitespace, which the fast path reads member after member; else
/// [`shuffled`].
fn layout_or_shuffled(rng: &mut Rng, members: Vec<String>, order: &[&str]) -> Vec<u8> {
    if !rng.chance(35) {
        return shuffled(rng, members);
    }
    let rank = |member: &String| order.iter().position(|name| member.starts_with(&format!("\"{name}\":")));
    let mut kept: Vec<String> = members.into_iter().filter(|m| rank(m).is_some()).collect();
    kept.sort_by_key(|m| rank(m));
    format!("{{{}}}", kept.join(",")).into_bytes()
}

/// An ogg-json envelope around images from [`message`].
fn ogg_envelope(rng: &mut Rng) -> Vec<u8> {
    let op = ["\"I\"", "\"U\"", "\"D\"", "\"T\"", "\"i\"", "null", "1"][rng.below(7)];
    let (before, after) = (image(rng), image(rng));
    let members = vec![
        "\"table\":\"s.t\"".to_string(),
        format!("\"op_type\":{op}"),
        "\"op_ts\":\"2024-01-01 00:00:00.000000\"".to_string(),
        format!("\"before\":{before}"),
        format!("\"after\":{after}"),
    ];
    layout_or_shuffled(rng, members, &["before", "after", "op_type"])
}

/// A maxwell-json envelope: `data` from [`message`], `old` from [`old_image`].
fn maxwell_envelope(rng: &mut Rng) -> Vec<u8> {
    let op = ["\"insert\"", "\"update\"", "\"update\"", "\"delete\"", "\"INSERT\"", "null"][rng.below(6)];
    let mut members = vec![
        "\"database\":\"db\"".to_string(),
        "\"table\":\"t\"".to_string(),
        format!("\"type\":{op}"),
        "\"ts\":1700000000".to_string(),
        format!("\"data\":{}", image(rng)),
    ];
    if op.contains("update") || rng.chance(15) {
        members.push(format!("\"old\":{}", old_image(rng)));
    }
    layout_or_shuffled(rng, members, &["data", "old", "type"])
}

/// A canal-json envelope: 0 to 3 `data` rows from [`message`], as many `old` ones (sometimes
/// fewer) from [`old_image`].
fn canal_envelope(rng: &mut Rng) -> Vec<u8> {
    let op = ["\"INSERT\"", "\"UPDATE\"", "\"UPDATE\"", "\"DELETE\"", "\"CREATE\"", "\"insert\"", "null"][rng.below(7)];
    let count = [1, 1, 1, 2, 3, 0][rng.below(6)];
    let list = |rng: &mut Rng, count: usize, item: fn(&mut Rng) -> String| {
        let items: Vec<String> = (0..count).map(|_| item(rng)).collect();
        format!("[{}]", items.join(","))
    };
    let data = if rng.chance(5) {
        "null".to_string()
    } else {
        let row = |rng: &mut Rng| match rng.chance(80) {
            true => String::from_utf8_lossy(&clean(rng)).into_owned(),
            false => String::from_utf8_lossy(&message(rng)).into_owned(),
        };
        list(rng, count, row)
    };
    let olds = if rng.chance(10) { count.saturating_sub(1) } else { count };
    let database = ["\"db\"", "\"other\"", "null", "1", "\"d\\u0062\""][rng.below(5).min(rng.below(5))];
    let mut members = vec![
        format!("\"data\":{data}"),
        format!("\"database\":{database}"),
        "\"es\":1700000000000".to_string(),
        "\"isDdl\":false".to_string(),
        "\"pkNames\":[\"i\"]".to_string(),
        format!("\"table\":{}", ["\"t\"", "\"t2\""][rng.below(2)]),
        format!("\"type\":{op}"),
    ];
    if op.contains("UPDATE") || rng.chance(15) {
        members.insert(
            1,
            format!("\"old\":{}", if rng.chance(5) { "null".to_string() } else { list(rng, olds, old_image) }),
        );
    }
    layout_or_shuffled(rng, members, &["data", "old", "type"])
}

/// The two decoders of the test table (without its DECIMAL columns unless `decimals`, without
/// its maps unless `maps`).
fn decoders(options: &str, version: FlinkVersion, decimals: bool, maps: bool) -> (Decoder, Decoder) {
    decoders_of(options, version, &|ty| (decimals || !ty.starts_with("DECIMAL")) && (maps || !is_map(ty)))
}

fn is_map(ty: &str) -> bool {
    ty.starts_with("MAP") || ty.starts_with("MULTISET")
}

/// The two decoders of the test table's columns whose type `keep` keeps.
fn decoders_of(options: &str, version: FlinkVersion, keep: &dyn Fn(&str) -> bool) -> (Decoder, Decoder) {
    let columns: Vec<String> =
        COLUMNS.iter().filter(|(_, ty)| keep(ty)).map(|(name, ty)| format!("`{name}` {ty}")).collect();
    let ddl = format!(
        "CREATE TABLE t ({}) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'x', \
         'scan.startup.mode' = 'earliest-offset'{options})",
        columns.join(", ")
    );
    let compatibility = Compatibility { flink_version: version, ..Compatibility::default() };
    let open = || {
        let mut decoder = Decoder::open(SinkSpec::from_source_ddl(&ddl).expect("ddl"), compatibility).expect("open");
        decoder.set_on_error(OnError::Collect);
        decoder
    };
    let fast = open();
    assert!(fast.has_fast_plans(), "the test table has a fast plan");
    (fast, open().without_fast_plans())
}

fn compare(fast: &mut Decoder, direct: &mut Decoder, messages: &[Vec<u8>], what: &str) -> usize {
    let mut data = Vec::new();
    let (mut offsets, mut lengths) = (Vec::new(), Vec::new());
    for m in messages {
        offsets.push(data.len() as i32);
        lengths.push(m.len() as i32);
        data.extend_from_slice(m);
    }
    let side = RecordSide { data: &data, offsets: &offsets, lengths: &lengths };
    let (a, b) = (fast.decode(None, side).expect("collects"), direct.decode(None, side).expect("collects"));
    let errors = |d: &crate::decode::DecodedBatch| d.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    assert_eq!(errors(&a), errors(&b), "{what}");
    assert_eq!((&a.row_kinds, &a.records), (&b.row_kinds, &b.records), "{what}");
    for (column, (x, y)) in a.batch.columns().iter().zip(b.batch.columns()).enumerate() {
        if x != y {
            let row = (0..x.len()).find(|&r| x.slice(r, 1) != y.slice(r, 1)).unwrap_or(0);
            panic!(
                "{what}, column {}, row {row}: {:?} vs {:?}\nmessage: {}",
                a.batch.schema().field(column).name(),
                x.slice(row, 1),
                y.slice(row, 1),
                String::from_utf8_lossy(&messages[a.records[row] as usize])
            );
        }
    }
    a.batch.num_rows()
}

/// Messages per round: fewer in debug builds, whose main user is the AddressSanitizer stage
/// (the release test run draws them all).
const MESSAGES: usize = if cfg!(debug_assertions) { 600 } else { 3000 };

#[test]
fn the_fast_path_reads_exactly_what_direct_reads() {
    let options = [
        "",
        ", 'json.ignore-parse-errors' = 'true'",
        ", 'json.fail-on-missing-field' = 'true'",
        ", 'json.timestamp-format.standard' = 'ISO-8601'",
    ];
    let mut rng = Rng::new(0x5eed);
    for (round, option) in options.iter().enumerate() {
        for (version, maps) in [
            (FlinkVersion::V1_20, false),
            (FlinkVersion::V2_3, false),
            (FlinkVersion::V1_20, true),
            (FlinkVersion::V2_3, true),
        ] {
            let (mut fast, mut direct) = decoders(&format!(", 'format' = 'json'{option}"), version, true, maps);
            let mut messages: Vec<Vec<u8>> = (0..MESSAGES).map(|_| message(&mut rng)).collect();
            if option.contains("ISO") {
                messages.iter_mut().for_each(|m| *m = iso_spelling(m));
            }
            let rows = compare(&mut fast, &mut direct, &messages, &format!("json {round} {version:?} maps {maps}"));
            // Most well-formed messages are read, or the test proves little.
            assert!(rows > MESSAGES / 10, "round {round}: {rows} rows");
        }
    }
}

#[test]
fn the_fast_changelog_reads_exactly_what_the_tree_reads() {
    let options = [
        "",
        ", 'debezium-json.ignore-parse-errors' = 'true'",
        ", 'debezium-json.timestamp-format.standard' = 'ISO-8601'",
    ];
    let mut rng = Rng::new(0xcdc);
    // The table has no maps.
    rng.leave_out = |ty| is_binary(ty) || is_map(ty);
    for (round, option) in options.iter().enumerate() {
        for (version, decimals) in
            [(FlinkVersion::V1_20, true), (FlinkVersion::V2_3, false), (FlinkVersion::V2_2, true)]
        {
            let format = format!(", 'format' = 'debezium-json'{option}");
            let (mut fast, mut direct) = decoders(&format, version, decimals, false);
            let mut messages: Vec<Vec<u8>> = (0..MESSAGES).map(|_| envelope(&mut rng)).collect();
            if option.contains("ISO") {
                messages.iter_mut().for_each(|m| *m = iso_spelling(m));
            }
            let rows = compare(&mut fast, &mut direct, &messages, &format!("debezium {round} {version:?}"));
            assert!(rows > MESSAGES / 20, "round {round} {version:?}: {rows} rows");
        }
    }
}

/// A writer of one format's random envelopes.
type Envelope = fn(&mut Rng) -> Vec<u8>;

/// The other changelog formats on the test table, and (for UPDATE's before-image) on its
/// scalar columns only, under the options that change what a message reads as.
#[test]
fn the_fast_canal_maxwell_and_ogg_read_exactly_what_the_tree_reads() {
    let formats: [(&str, Envelope, &str); 4] = [
        ("ogg-json", ogg_envelope, ""),
        ("maxwell-json", maxwell_envelope, ""),
        ("canal-json", canal_envelope, ""),
        ("canal-json", canal_envelope, ", 'canal-json.database.include' = 'd.*', 'canal-json.table.include' = 't'"),
    ];
    let mut rng = Rng::new(0x0991);
    for (format, envelope, filters) in formats {
        for (round, option) in
            ["", ".ignore-parse-errors' = 'true'", ".timestamp-format.standard' = 'ISO-8601'"].iter().enumerate()
        {
            for (version, flat) in
                [(FlinkVersion::V1_20, false), (FlinkVersion::V2_3, true), (FlinkVersion::V2_2, true)]
            {
                let option = if option.is_empty() { String::new() } else { format!(", '{format}{option}") };
                let options = format!(", 'format' = '{format}'{filters}{option}");
                let keep = |ty: &str| !(is_map(ty) || flat && is_nested(ty));
                let (mut fast, mut direct) = decoders_of(&options, version, &keep);
                rng.leave_out = match flat {
                    true => |ty| is_binary(ty) || is_map(ty) || is_nested(ty),
                    false => |ty| is_binary(ty) || is_map(ty),
                };
                let mut messages: Vec<Vec<u8>> = (0..MESSAGES).map(|_| envelope(&mut rng)).collect();
                if option.contains("ISO") {
                    messages.iter_mut().for_each(|m| *m = iso_spelling(m));
                }
                let what = format!("{format}{filters} {round} {version:?} flat {flat}");
                let rows = compare(&mut fast, &mut direct, &messages, &what);
                // The include filters leave out about half the messages.
                assert!(rows > MESSAGES / 40, "{what}: {rows} rows");
            }
        }
    }
}

#[test]
fn fast_keys_read_exactly_what_direct_reads() {
    // The key's fields in the value too, and (EXCEPT_KEY) only in the key: copied from its row.
    for fields_include in ["ALL", "EXCEPT_KEY"] {
        fast_keys_read_as_direct_reads(fields_include);
    }
}

fn fast_keys_read_as_direct_reads(fields_include: &str) {
    let ddl = format!(
        "CREATE TABLE t (i INT, s STRING, bi BIGINT, ts TIMESTAMP(3), PRIMARY KEY (i, s) NOT ENFORCED) WITH (\
         'connector' = 'upsert-kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'x', \
         'key.format' = 'json', 'value.format' = 'json', 'value.fields-include' = '{fields_include}')"
    );
    let open = || {
        let mut decoder =
            Decoder::open(SinkSpec::from_source_ddl(&ddl).expect("ddl"), Compatibility::default()).expect("open");
        decoder.set_on_error(OnError::Collect);
        decoder
    };
    let (mut fast, mut direct) = (open(), open().without_fast_plans());
    let mut rng = Rng::new(0x6e7);
    let (mut keys, mut values) = (Vec::new(), Vec::new());
    for _ in 0..3000 {
        let key = match rng.below(4) {
            0 => message(&mut rng),
            _ => format!("{{\"i\":{},\"s\":{}}}", rng.pick(VALUES[3], true), rng.pick(VALUES[9], true)).into_bytes(),
        };
        keys.push(Some(key));
        values.push((!rng.chance(30)).then(|| message(&mut rng)));
    }
    let side = |records: &[Option<Vec<u8>>], data: &mut Vec<u8>, offsets: &mut Vec<i32>, lengths: &mut Vec<i32>| {
        for record in records {
            offsets.push(data.len() as i32);
            lengths.push(record.as_ref().map_or(-1, |r| r.len() as i32));
            data.extend_from_slice(record.as_deref().unwrap_or_default());
        }
    };
    let (mut kd, mut ko, mut kl, mut vd, mut vo, mut vl) = Default::default();
    side(&keys, &mut kd, &mut ko, &mut kl);
    side(&values, &mut vd, &mut vo, &mut vl);
    let (k, v) =
        (RecordSide { data: &kd, offsets: &ko, lengths: &kl }, RecordSide { data: &vd, offsets: &vo, lengths: &vl });
    let (a, b) = (fast.decode(Some(k), v).expect("collects"), direct.decode(Some(k), v).expect("collects"));
    let errors = |d: &crate::decode::DecodedBatch| d.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    assert_eq!(errors(&a), errors(&b));
    assert_eq!((&a.row_kinds, &a.records), (&b.row_kinds, &b.records));
    assert_eq!(a.batch, b.batch);
    assert!(a.batch.num_rows() > 1000, "{} rows", a.batch.num_rows());
}

/// Values of unknown members: well-formed ones of every kind, which the fast path skips itself.
const SKIPPED: &[&str] = &[
    "\"a\\\"b\\\\c\\/\\u00e9\\n\\t\"",
    "\"é😀 a string longer than one sixteen-byte block\"",
    "{\"a\":[1,2,{\"b\":\"x\\ny\"}],\"c\":{},\"d\":[]}",
    "[[],[{}],\"s\",-1.5e3,true,false,null]",
    "{ \"version\" : \"2.5.0.Final\" , \"pos\" : 154 , \"gtid\" : null }",
    "-0",
    "1.5E+10",
    "123456789012345678901234567890",
    "true",
    "false",
    "null",
];

/// Values of unknown members that are malformed or unusual: left to the judge.
const NOT_SKIPPED: &[&str] = &[
    "\"\\ud83d\\ude00\"",
    "\"\\x\"",
    "\"a\\u12\"",
    "01",
    "1.",
    "-",
    "tru",
    "nul",
    "truex",
    "{\"a\":1,}",
    "[1,]",
    "{\"a\" 1}",
    "{1:2}",
    "[",
    "{\"a\":",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
];

fn raw_limits(tree: bool) -> super::PlanLimits {
    super::PlanLimits {
        fail_on_missing_field: false,
        iso_timestamps: false,
        time_keeps_fraction: false,
        max_string_length: 20_000_000,
        max_number_length: 1000,
        max_name_length: 50_000,
        tree,
        big_decimal_floats: false,
    }
}

#[test]
fn unknown_values_are_skipped_to_their_end_or_refused() {
    for tree in [false, true] {
        let limits = raw_limits(tree);
        for value in SKIPPED {
            let input = format!("{value},");
            let mut scan = super::scan::Scan { input: input.as_bytes(), pos: 0 };
            assert_eq!(scan.skip_value(&limits, 0), Some(()), "{value}");
            assert_eq!(scan.pos, value.len(), "{value}");
        }
        for value in NOT_SKIPPED {
            let input = format!("{value}}}");
            let mut scan = super::scan::Scan { input: input.as_bytes(), pos: 0 };
            // Refused, or ended before a byte the caller refuses.
            let skipped = scan.skip_value(&limits, 0).is_some();
            assert!(!skipped || !matches!(input.as_bytes()[scan.pos], b',' | b'}'), "{value}");
        }
        // Cut anywhere, a value never reads past its end.
        for value in SKIPPED.iter().filter(|v| v.len() > 1) {
            for cut in 1..value.len() {
                let input = &value.as_bytes()[..cut];
                let mut scan = super::scan::Scan { input, pos: 0 };
                assert!(scan.skip_value(&limits, 0).is_none_or(|()| scan.pos <= cut), "{value} cut at {cut}");
            }
        }
    }
}

/// A member of unknown name whose value is one of [`SKIPPED`] or [`NOT_SKIPPED`].
fn unknown_member(rng: &mut Rng) -> String {
    let value = match rng.chance(70) {
        true => SKIPPED[rng.below(SKIPPED.len())],
        false => NOT_SKIPPED[rng.below(NOT_SKIPPED.len())],
    };
    format!("\"x{}\":{value}", rng.below(3))
}

/// A message of `write` with an unknown member after its first `{` or after one of its commas
/// (in an image, or in the envelope); sometimes cut short.
fn with_unknown(rng: &mut Rng, write: fn(&mut Rng) -> Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&write(rng)).into_owned();
    let commas: Vec<usize> = text.match_indices(",\"").map(|(at, _)| at + 1).collect();
    let at = match commas.is_empty() || rng.chance(20) {
        true => 1,
        false => commas[rng.below(commas.len())],
    };
    let mut text = format!("{}{},{}", &text[..at], unknown_member(rng), &text[at..]).into_bytes();
    if rng.chance(10) {
        text.truncate(rng.below(text.len() + 1));
    }
    text
}

#[test]
fn rows_and_envelopes_with_unknown_members_read_exactly_as_the_judges_read_them() {
    let mut rng = Rng::new(0x5c1f);
    let (mut fast, mut direct) = decoders(", 'format' = 'json'", FlinkVersion::V2_3, true, true);
    let messages: Vec<Vec<u8>> = (0..MESSAGES).map(|_| with_unknown(&mut rng, clean)).collect();
    let rows = compare(&mut fast, &mut direct, &messages, "json with unknown members");
    assert!(rows > MESSAGES / 2, "json: {rows} rows");
    rng.leave_out = |ty| is_binary(ty) || is_map(ty);
    let formats: [(&str, Envelope); 3] =
        [("debezium-json", envelope), ("canal-json", canal_envelope), ("maxwell-json", maxwell_envelope)];
    for (format, envelope) in formats {
        let (mut fast, mut direct) = decoders(&format!(", 'format' = '{format}'"), FlinkVersion::V2_3, true, false);
        let messages: Vec<Vec<u8>> = (0..MESSAGES).map(|_| with_unknown(&mut rng, envelope)).collect();
        let rows = compare(&mut fast, &mut direct, &messages, &format!("{format} with unknown members"));
        assert!(rows > MESSAGES / 20, "{format}: {rows} rows");
    }
}
