//! kjson-runtime: turns Arrow record batches into Kafka key/value bytes identical to what Apache
//! Flink's JSON formats write.
//!
//! Data flows one way: DDL or JNI arguments -> [`SinkSpec`] -> plan (first batch) -> row encoder
//! -> [`KeyValueSlabs`].
#![deny(unsafe_op_in_unsafe_fn)]

pub mod error;
pub mod types;
pub mod type_parser;
pub mod ddl;
pub mod options;
pub mod spec;
mod spec_build;
mod spec_options;
mod spec_validate;
pub mod float;
pub mod format;
pub mod slab;
pub mod plan;
pub mod bind;
pub mod write;
pub mod encoder;
pub mod envelope;

pub use error::{KjsonError, Position, Result};
pub use options::{Compatibility, FlinkVersion, FloatSpelling, JsonOptions, MapNullKeyMode, TimestampFormat};
pub use slab::{KeyValueSlabs, Slab};
pub use spec::{Column, Connector, SideSpec, SinkParts, SinkSpec};
pub use types::{DataType, IntervalKind, LogicalType, RowField};
pub use encoder::{DynamicEncoder, RowKind};
