//! kjson-runtime: turns Arrow record batches into Kafka key/value bytes identical to what Apache
//! Flink's JSON formats write.
//!
//! Data flows one way: DDL or JNI arguments -> [`SinkSpec`] -> plan (first batch) -> row encoder
//! -> [`KeyValueSlabs`].
#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(feature = "arrow")]
pub mod bind;
pub mod ddl;
#[cfg(feature = "arrow")]
pub mod encoder;
#[cfg(feature = "arrow")]
pub mod envelope;
pub mod error;
pub mod fingerprint;
pub mod float;
pub mod format;
pub mod options;
#[cfg(feature = "arrow")]
pub mod plan;
pub mod slab;
pub mod spec;
mod spec_build;
mod spec_options;
mod spec_validate;
pub mod type_parser;
pub mod types;
#[cfg(feature = "arrow")]
pub mod validate;
#[cfg(feature = "arrow")]
pub mod write;
#[cfg(feature = "arrow")]
mod write_merge;

pub use error::{KjsonError, Position, Result};
pub use options::{Compatibility, FlinkVersion, FloatSpelling, JsonOptions, MapNullKeyMode, TimestampFormat};
pub use slab::{KeyValueSlabs, Slab};
pub use spec::{Column, Connector, SideSpec, SinkParts, SinkSpec};
pub use types::{DataType, IntervalKind, LogicalType, RowField};
#[cfg(feature = "arrow")]
pub mod generated;
#[cfg(feature = "arrow")]
pub use encoder::{BatchEncoder, DynamicEncoder, RowKind};
pub use fingerprint::{canonical_spec, spec_fingerprint};
