//! kjson: Arrow record batches to Kafka records byte-identical to Apache Flink's JSON formats.
pub use kjson_runtime as runtime;

pub mod cli;
pub mod encoder;
pub mod input;
pub mod jni;
pub mod nexmark;
pub mod registry;

pub use encoder::{Encoder, EncoderKind};
