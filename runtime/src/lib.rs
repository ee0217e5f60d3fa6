//! kjson-runtime: turns Arrow record batches into Kafka key/value bytes identical to what Apache
//! Flink's JSON formats write.
//!
//! Data flows one way, and the folders follow it:
//! `sql` (DDL text) -> `spec` ([`SinkSpec`]) -> `encode` (plan on the first batch, bind, row
//! loop, value writers) -> [`KeyValueSlabs`]; the read side goes back: Kafka records -> `decode`
//! (Flink's JSON deserializers, record by record) -> an Arrow batch. `spelling` and `float` spell single values;
//! `types`, `options` and `error` are the vocabulary every stage shares.
//!
//! The promised surface is what the crate root, `decode`, `error`, `options`, `spec` and `types`
//! show. `encode`, `float`, `spelling`, `sql` and `codegen_support` are public for kjson's own
//! crates and generated code only: hidden from the docs and not covered by semver.
#![deny(unsafe_op_in_unsafe_fn)]

#[cfg(feature = "arrow")]
pub mod decode;
#[cfg(feature = "arrow")]
#[doc(hidden)]
pub mod encode;
pub mod error;
#[doc(hidden)]
pub mod float;
pub mod options;
pub mod spec;
#[doc(hidden)]
pub mod spelling;
#[doc(hidden)]
pub mod sql;
pub mod types;

#[cfg(feature = "arrow")]
#[doc(hidden)]
pub use decode::generated_support as decode_support;
#[cfg(feature = "arrow")]
#[doc(hidden)]
pub use encode::codegen_support;
#[cfg(feature = "arrow")]
pub use encode::{validate_batch, EncoderCore, KeyValueSlabs, Slab, PLANS_KEPT};
pub use error::{KjsonError, Position, Result};
pub use options::{Compatibility, FlinkVersion, FloatSpelling, JsonOptions, MapNullKeyMode, TimestampFormat};
pub use spec::{
    canonical_scan_spec, canonical_spec, scan_fingerprint, spec_fingerprint, Column, Connector, Format, SideSpec,
    SinkParts, SinkSpec,
};
pub use types::{DataType, IntervalKind, LogicalType, RowField, RowKind};
