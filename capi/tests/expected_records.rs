//! The expected records of the C test program (`tests/c/kjson_test.c`), written by the Rust
//! encoder for the same batch the C program builds by hand, into `tests/c/expected_records.h`.
//! This test fails when the committed header differs from what the encoder writes today;
//! rewrite it with `KJSON_UPDATE_GOLDEN=1 cargo test -p kjson-capi --test c_abi expected_records::`.
use std::fmt::Write;
use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, DictionaryArray, Int64Array, Int8Array, RecordBatch, StringArray};
use arrow_schema::{Field, Schema};
use kjson_arrow::runtime::{Compatibility, SinkSpec, Slab};
use kjson_arrow::Encoder;

/// The sink of the C test: an upsert-kafka table keyed by `id`.
const DDL: &str = "CREATE TABLE t (id BIGINT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (\
'connector' = 'upsert-kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092', \
'key.format' = 'json', 'value.format' = 'json')";

/// The rows the C program builds: ids 1, 2, 3; names "a\"b", null, "é"; RowKinds +I, -D, +U.
const NAMES: [Option<&str>; 3] = [Some("a\"b"), None, Some("é")];
const ROW_KINDS: [i8; 3] = [0, 3, 2];

fn batch(name: ArrayRef, id_nullable: bool) -> RecordBatch {
    let id: ArrayRef = Arc::new(Int64Array::from(vec![1, 2, 3]));
    let schema = Schema::new(vec![
        Field::new("id", id.data_type().clone(), id_nullable),
        Field::new("name", name.data_type().clone(), true),
    ]);
    RecordBatch::try_new(Arc::new(schema), vec![id, name]).unwrap()
}

fn records(slab: &Slab) -> Vec<Option<Vec<u8>>> {
    (0..slab.len()).map(|r| slab.record(r).map(<[u8]>::to_vec)).collect()
}

fn c_string(bytes: &[u8]) -> String {
    bytes.iter().fold(String::from("\""), |mut s, &b| {
        match b {
            b'"' | b'\\' => write!(s, "\\{}", b as char),
            0x20..=0x7e => write!(s, "{}", b as char),
            _ => write!(s, "\\{b:03o}"),
        }
        .unwrap();
        s
    }) + "\""
}

fn c_records(name: &str, records: &[Option<Vec<u8>>]) -> String {
    let mut out = format!("static const struct expected_record {name}[{}] = {{\n", records.len());
    for record in records {
        match record {
            Some(bytes) => writeln!(out, "    {{{}, {}}},", c_string(bytes), bytes.len()).unwrap(),
            None => writeln!(out, "    {{NULL, -1}},").unwrap(),
        }
    }
    out + "};\n"
}

fn header(keys: &[Option<Vec<u8>>], values: &[Option<Vec<u8>>]) -> String {
    let mut out = String::from(
        "/* Written by capi/tests/expected_records.rs from the Rust encoder's output; do not edit. */\n\
         struct expected_record { const char *bytes; int32_t length; };\n\n",
    );
    writeln!(out, "static const char EXPECTED_DDL[] = {};\n", c_string(DDL.as_bytes())).unwrap();
    out += &c_records("EXPECTED_KEYS", keys);
    out += "\n";
    out += &c_records("EXPECTED_VALUES", values);
    out
}

#[test]
fn c_test_expectations_are_the_rust_encoders_output() {
    let mut encoder = Encoder::open(SinkSpec::from_ddl(DDL).unwrap(), Compatibility::default()).unwrap();
    let kinds = Int8Array::from(ROW_KINDS.to_vec());
    let plain = encoder.encode(&batch(Arc::new(StringArray::from(NAMES.to_vec())), false), Some(&kinds)).unwrap();
    let (keys, values) = (records(plain.keys()), records(plain.values()));
    // The C program's second batch: the names as a dictionary, `id` declared nullable.
    let dictionary: DictionaryArray<Int32Type> = NAMES.into_iter().collect();
    let replanned = encoder.encode(&batch(Arc::new(dictionary), true), Some(&kinds)).unwrap();
    assert_eq!((records(replanned.keys()), records(replanned.values())), (keys.clone(), values.clone()));

    let text = header(&keys, &values);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/expected_records.h");
    if std::env::var_os("KJSON_UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(committed == text, "{path} is stale; rewrite it with KJSON_UPDATE_GOLDEN=1 (see the module docs)");
}
