//! kjson: Arrow record batches to Kafka records byte-identical to Apache Flink's JSON formats.
pub use kjson_runtime as runtime;

#[cfg(feature = "cli")]
pub mod cli;
pub mod encoder;
#[cfg(feature = "cli")]
pub mod input;
#[cfg(feature = "jni")]
pub mod jni;
pub mod nexmark;
pub mod registry;

pub use encoder::{Encoder, EncoderKind};
