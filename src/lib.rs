//! kjson: Arrow record batches to Kafka records byte-identical to Apache Flink's JSON formats.
//!
//! Open an [`Encoder`] from a Kafka sink's `CREATE TABLE` DDL (or from its parts), then encode
//! Arrow record batches into key and value slabs: one contiguous buffer per side, with per-row
//! offsets and lengths. The encoder is the schema-specialized one generated at build time when
//! this build has one for the spec (`schemas/`, `$KJSON_SCHEMAS_DIR`), else the dynamic one;
//! [`Encoder::kind`] says which. Types, the DDL parser and the slabs are in [`runtime`].
//!
//! ```rust
//! use std::sync::Arc;
//!
//! use arrow_array::{Int64Array, RecordBatch, StringArray};
//! use arrow_schema::{DataType, Field, Schema};
//! use kjson_arrow::runtime::{Compatibility, FlinkVersion, FloatSpelling, SinkSpec};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let ddl = "CREATE TABLE bids (id BIGINT, name STRING) WITH ('connector' = 'kafka', 'topic' = 'bids',
//!         'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json')";
//!     let spec = SinkSpec::from_ddl(ddl)?; // or SinkSpec::from_parts(&parts) (JNI shape)
//!     let compat = Compatibility { flink_version: FlinkVersion::V2_3, float_spelling: FloatSpelling::Jdk17 };
//!     let mut encoder = kjson_arrow::Encoder::open(spec, compat)?; // generated encoder if one matches, else dynamic
//!
//!     let schema = Schema::new(vec![Field::new("id", DataType::Int64, false), Field::new("name", DataType::Utf8, true)]);
//!     let ids = Int64Array::from(vec![1, 2]);
//!     let names = StringArray::from(vec![Some("a\"b"), None]);
//!     let batch = RecordBatch::try_new(Arc::new(schema), vec![Arc::new(ids), Arc::new(names)])?;
//!     let row_kinds = None; // or Some(&Int8Array) of Flink RowKinds: 0 +I, 1 -U, 2 +U, 3 -D
//!
//!     let slabs = encoder.encode(&batch, row_kinds)?; // &KeyValueSlabs
//!     for row in 0..slabs.num_rows() {
//!         let key: Option<&[u8]> = slabs.keys().record(row); // None: null key
//!         let value: Option<&[u8]> = slabs.values().record(row); // None: tombstone
//!         println!("{:?} {:?}", key.map(String::from_utf8_lossy), value.map(String::from_utf8_lossy));
//!     }
//!     assert_eq!(slabs.values().record(1), Some(&br#"{"id":2,"name":null}"#[..]));
//!     Ok(())
//! }
//! ```
//!
//! (The README's Rust API section holds the same program; `tests/readme.rs` keeps them equal.)
pub use kjson_runtime as runtime;

mod decoder;
mod encoder;
#[cfg(feature = "ffi")]
pub mod ffi;
mod registry;

pub use decoder::{generated_decoders, lookup_decoder, open_decoder, GeneratedDecoderEntry};
pub use encoder::{Encoder, EncoderKind, PLANS_KEPT};
/// The read side: Kafka records back into Arrow rows, as Flink's JSON deserializers read them.
pub use kjson_runtime::decode::{DecodedBatch, Decoder, DecoderKind, OnError, RecordSide, TimestampLayout};
