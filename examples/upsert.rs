//! Encodes a small changelog through an `upsert-kafka` sink DDL and prints each Kafka record as
//! `key<TAB>value`: the primary key is the record key, and `-U`/`-D` rows become tombstones.
//!   cargo run --example upsert
use std::sync::Arc;

use arrow_array::{Int64Array, Int8Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use kjson_arrow::runtime::{Compatibility, SinkSpec, Slab};
use kjson_arrow::Encoder;

const DDL: &str = "CREATE TABLE users (
  id BIGINT,
  name STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka',
  'topic' = 'users',
  'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json',
  'value.format' = 'json'
)";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let spec = SinkSpec::from_ddl(DDL)?;
    let mut encoder = Encoder::open(spec, Compatibility::default())?;
    eprintln!("encoder: {}", encoder.kind());

    let schema = Schema::new(vec![Field::new("id", DataType::Int64, false), Field::new("name", DataType::Utf8, true)]);
    let ids = Int64Array::from(vec![1, 2, 1, 2]);
    let names = StringArray::from(vec![Some("ada"), Some("bob"), Some("ada"), None]);
    let batch = RecordBatch::try_new(Arc::new(schema), vec![Arc::new(ids), Arc::new(names)])?;
    // Flink RowKinds: +I, +I, -U (a tombstone under upsert-kafka), -D.
    let row_kinds = Int8Array::from(vec![0, 0, 1, 3]);

    let slabs = encoder.encode(&batch, Some(&row_kinds))?;
    for row in 0..slabs.num_rows() {
        println!("{}\t{}", shown(slabs.keys(), row), shown(slabs.values(), row));
    }
    Ok(())
}

/// A record's text, or `null` for a null key or a tombstone.
fn shown(slab: &Slab, row: usize) -> String {
    slab.record(row).map_or("null".into(), |bytes| String::from_utf8_lossy(bytes).into_owned())
}
