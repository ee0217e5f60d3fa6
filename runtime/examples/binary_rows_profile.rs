//! Decodes Nexmark-like bids as the JVM decode bench sends them (json, or a changelog of 50%
//! inserts, 35% updates with the previous bid as the before-image, 15% deletes) and writes the
//! rows as Flink's `BinaryRowData` bytes, the native half of `decodeBinaryRows`, for instruction
//! profiles per record. `valgrind --tool=callgrind target/release/examples/binary_rows_profile
//! FORMAT N` (`json`, `debezium`, `canal`, `maxwell` or `ogg`, or `nested`: json bids with an
//! ARRAY, a MAP and a ROW column); N passes over 4096 records, counted as N = 3 minus N = 1.
use kjson_runtime::decode::{Decoder, RecordSide, TimestampLayout};
use kjson_runtime::{Compatibility, SinkSpec};

const RECORDS: usize = 4096;

/// A small deterministic generator (the bench's rows need no particular distribution).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound
    }
}

/// One bid as Flink's json writer spells it.
fn bid(n: usize, random: &mut Lcg) -> String {
    let extra: String = (0..60 + random.next(16)).map(|_| (b'a' + random.next(26) as u8) as char).collect();
    let millis = 123 + n % 877;
    format!(
        "{{\"auction\":{},\"bidder\":{},\"price\":{},\"dateTime\":\"2023-11-14 22:{:02}:{:02}.{millis}\",\"extra\":\"{extra}\"}}",
        1000 + n / 10 + random.next(50) as usize,
        1000 + random.next(100_000),
        random.next(100_000_000),
        n / 60 % 60,
        n % 60,
    )
}

/// The bid in `format`'s envelope: `op` 0 insert, 1 update (from `previous`), 2 delete.
fn envelope(format: &str, op: usize, row: &str, previous: &str) -> String {
    match (format, op) {
        ("json", _) => row.to_string(),
        ("canal", 1) => format!("{{\"data\":[{row}],\"old\":[{previous}],\"type\":\"UPDATE\"}}"),
        ("canal", _) => format!("{{\"data\":[{row}],\"type\":\"{}\"}}", ["INSERT", "", "DELETE"][op]),
        ("maxwell", 1) => format!("{{\"data\":{row},\"old\":{previous},\"type\":\"update\"}}"),
        ("maxwell", _) => format!("{{\"data\":{row},\"type\":\"{}\"}}", ["insert", "", "delete"][op]),
        (_, _) => {
            let name = if format == "debezium" { "op" } else { "op_type" };
            let code = if format == "debezium" { ["c", "u", "d"][op] } else { ["I", "U", "D"][op] };
            let (before, after) = [("null", row), (previous, row), (row, "null")][op];
            format!("{{\"before\":{before},\"after\":{after},\"{name}\":\"{code}\"}}")
        }
    }
}

/// The bid with nested columns: a few tags, a map of counts, a row.
fn nested_bid(n: usize, random: &mut Lcg) -> String {
    let bid = bid(n, random);
    let tags: Vec<String> = (0..random.next(4)).map(|t| format!("\"tag-{}\"", (n as u64 + t) % 50)).collect();
    let counts: Vec<String> = (0..random.next(4)).map(|k| format!("\"k{k}\":{}", random.next(1000))).collect();
    format!(
        "{},\"tags\":[{}],\"counts\":{{{}}},\"info\":{{\"channel\":\"channel-{}\",\"url\":\"https://example.com/item/{n}\",\"n\":{}}}}}",
        &bid[..bid.len() - 1],
        tags.join(","),
        counts.join(","),
        random.next(10),
        random.next(100),
    )
}

fn main() {
    let format = std::env::args().nth(1).unwrap_or_else(|| "debezium".to_string());
    let passes: usize = std::env::args().nth(2).and_then(|n| n.parse().ok()).unwrap_or(1);
    let nested = format == "nested";
    let format = if nested { "json".to_string() } else { format };
    let value_format = if format == "json" { "json".to_string() } else { format!("{format}-json") };
    let nested_columns = if nested {
        ", tags ARRAY<STRING>, counts MAP<STRING, BIGINT>, info ROW<channel STRING, url STRING, n INT>"
    } else {
        ""
    };
    let ddl = format!(
        "CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3), extra VARCHAR\
         {nested_columns}) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'x', \
         'format' = '{value_format}')"
    );
    let spec = SinkSpec::from_source_ddl(&ddl).expect("the table's DDL");
    let mut decoder = Decoder::open(spec, Compatibility::default()).expect("a decoder of the table");
    decoder.set_timestamp_layout(TimestampLayout::AsFlinkRows).expect("Flink's timestamp rows");
    let mut random = Lcg(7);
    let bids: Vec<String> =
        (0..RECORDS).map(|n| if nested { nested_bid(n, &mut random) } else { bid(n, &mut random) }).collect();
    let (mut data, mut offsets, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
    for n in 0..RECORDS {
        let op = match random.next(20) {
            0..=9 => 0,
            10..=16 => 1,
            _ => 2,
        };
        let message = envelope(&format, op, &bids[n], &bids[n.saturating_sub(1)]);
        offsets.push(data.len() as i32);
        lengths.push(message.len() as i32);
        data.extend_from_slice(message.as_bytes());
    }
    let values = RecordSide { data: &data, offsets: &offsets, lengths: &lengths };
    let (mut rows, mut bytes) = (0, 0);
    for _ in 0..passes {
        let decoded = decoder.decode(None, values).expect("every record decodes");
        let binary = decoded.binary_rows().expect("binary rows");
        let mut slab = vec![0u8; binary.byte_len()];
        binary.write_into_zeroed(&mut slab).expect("the slab has the rows' length");
        rows += binary.row_count();
        bytes += slab.len();
    }
    println!("{value_format}: {rows} rows ({bytes} bytes) from {passes} passes of {RECORDS} records");
}
