//! An engine on another Arrow version hands kjson its batch through the Arrow C Data Interface:
//! only the two C structs cross, not Arrow's Rust types. Here the engine's side is played by
//! arrow-rs's own exporter; any Arrow implementation's `ArrowArray` / `ArrowSchema` work the same.
//!   cargo run --example c_data --features ffi
use std::ffi::c_void;
use std::sync::Arc;

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{Array, Int64Array, StringArray, StructArray};
use arrow_schema::{DataType, Field};
use kjson_arrow::runtime::{Compatibility, SinkSpec};
use kjson_arrow::Encoder;

const DDL: &str = "CREATE TABLE bids (id BIGINT, name STRING) WITH ('connector' = 'kafka', \
    'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json')";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The engine's batch, exported as one struct array (what Java's VectorSchemaRoot exports too).
    let columns = StructArray::from(vec![
        (Arc::new(Field::new("id", DataType::Int64, false)), Arc::new(Int64Array::from(vec![1, 2])) as _),
        (Arc::new(Field::new("name", DataType::Utf8, true)), Arc::new(StringArray::from(vec![Some("a"), None])) as _),
    ]);
    let mut array = FFI_ArrowArray::new(&columns.to_data());
    let schema = FFI_ArrowSchema::try_from(columns.data_type())?;

    // SAFETY: both structs were just exported and stay alive for the call; kjson moves the array
    // out (and releases it once); the schema is released when it drops below.
    let batch = unsafe {
        kjson_arrow::ffi::import_c_data(
            &mut array as *mut FFI_ArrowArray as *mut c_void,
            &schema as *const _ as *const c_void,
        )
    }?;
    let mut encoder = Encoder::open(SinkSpec::from_ddl(DDL)?, Compatibility::default())?;
    let slabs = encoder.encode(&batch, None)?;
    for row in 0..slabs.num_rows() {
        println!("{}", String::from_utf8_lossy(slabs.values().record(row).unwrap_or_default()));
    }
    assert_eq!(slabs.values().record(1), Some(&br#"{"id":2,"name":null}"#[..]));
    Ok(())
}
