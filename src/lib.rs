//! kjson: Arrow record batches to Kafka records byte-identical to Apache Flink's JSON formats.
pub use kjson_runtime as runtime;

mod encoder;
mod registry;

pub use encoder::{Encoder, EncoderKind};
