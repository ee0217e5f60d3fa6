//! Decodes changelog messages as real producers write them, in a loop, for instruction profiles
//! of the members the decoder skips: Debezium's `source`, `ts_ms` and `transaction`, Canal's
//! `mysqlType`, `sqlType`, `pkNames`, `es`, `ts` and `id` (Flink's own serializers write none of
//! them, so `kjson bench --decode` never meets them). `valgrind --tool=callgrind
//! target/release/examples/envelope_profile debezium N` (or `canal`); N passes over 4096
//! messages, counted as N = 3 minus N = 1.
use kjson_runtime::decode::{Decoder, RecordSide};
use kjson_runtime::{Compatibility, SinkSpec};

const MESSAGES: usize = 4096;

/// One auction-like row of the table below, as its image object.
fn image(n: usize) -> String {
    format!(
        "{{\"id\":{n},\"itemName\":\"item {n}\",\"description\":\"a \\\"quoted\\\" description of item {n}\",\
         \"initialBid\":{},\"seller\":{},\"dateTime\":\"2026-12-03 10:{:02}:{:02}.123\",\"extra\":\"{}\"}}",
        n * 7 % 1000,
        n % 97,
        n % 60,
        n * 13 % 60,
        "x".repeat(n % 40)
    )
}

fn debezium(n: usize) -> String {
    format!(
        "{{\"before\":null,\"after\":{},\"source\":{{\"version\":\"2.5.0.Final\",\"connector\":\"mysql\",\
         \"name\":\"dbserver1\",\"ts_ms\":1733220000000,\"snapshot\":\"false\",\"db\":\"inventory\",\
         \"sequence\":null,\"table\":\"auctions\",\"server_id\":223344,\"gtid\":null,\
         \"file\":\"mysql-bin.000003\",\"pos\":{},\"row\":0,\"thread\":7,\"query\":null}},\"op\":\"c\",\
         \"ts_ms\":1733220000{:03},\"transaction\":null}}",
        image(n),
        154 + n * 311,
        n % 1000
    )
}

fn canal(n: usize) -> String {
    format!(
        "{{\"data\":[{}],\"database\":\"inventory\",\"es\":1733220000000,\"id\":{n},\"isDdl\":false,\
         \"mysqlType\":{{\"id\":\"bigint(20)\",\"itemName\":\"varchar(255)\",\"description\":\"varchar(1024)\",\
         \"initialBid\":\"bigint(20)\",\"seller\":\"bigint(20)\",\"dateTime\":\"datetime(3)\",\
         \"extra\":\"varchar(255)\"}},\"old\":null,\"pkNames\":[\"id\"],\"sql\":\"\",\"sqlType\":{{\"id\":-5,\
         \"itemName\":12,\"description\":12,\"initialBid\":-5,\"seller\":-5,\"dateTime\":93,\"extra\":12}},\
         \"table\":\"auctions\",\"ts\":1733220000123,\"type\":\"INSERT\"}}",
        image(n)
    )
}

fn main() {
    let format = std::env::args().nth(1).unwrap_or_else(|| "debezium".to_string());
    let passes: usize = std::env::args().nth(2).and_then(|n| n.parse().ok()).unwrap_or(1);
    let write: fn(usize) -> String = if format == "canal" { canal } else { debezium };
    let ddl = format!(
        "CREATE TABLE auctions (id BIGINT, itemName STRING, description STRING, initialBid BIGINT, seller BIGINT, \
         `dateTime` TIMESTAMP(3), extra STRING) WITH ('connector' = 'kafka', 'topic' = 't', \
         'properties.bootstrap.servers' = 'x', 'format' = '{format}-json')"
    );
    let spec = SinkSpec::from_source_ddl(&ddl).expect("the table's DDL");
    let mut decoder = Decoder::open(spec, Compatibility::default()).expect("a decoder of the table");
    let (mut data, mut offsets, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
    for n in 0..MESSAGES {
        let message = write(n);
        offsets.push(data.len() as i32);
        lengths.push(message.len() as i32);
        data.extend_from_slice(message.as_bytes());
    }
    let values = RecordSide { data: &data, offsets: &offsets, lengths: &lengths };
    let mut rows = 0;
    for _ in 0..passes {
        rows += decoder.decode(None, values).expect("every message decodes").batch.num_rows();
    }
    println!("{format}-json: {rows} rows from {passes} passes of {MESSAGES} messages");
}
