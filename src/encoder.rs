//! [`Encoder`]: the generated encoder of a spec when this build has one, else the dynamic one.
//! Which one runs is never silent: [`Encoder::kind`] says it, and the CLI prints it.
use std::fmt;

use arrow::array::{Int8Array, RecordBatch};
use kjson_runtime::{spec_fingerprint, BatchEncoder, Compatibility, DynamicEncoder, KeyValueSlabs, Result, SinkSpec};

use crate::registry;

/// Which encoder an [`Encoder`] runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncoderKind {
    /// Schema-specialized code generated at build time from `origin`.
    Generated { type_name: &'static str, origin: &'static str, fingerprint: u64 },
    /// The plan-walking dynamic encoder; `forced` when the caller asked for it.
    Dynamic { fingerprint: u64, forced: bool },
}

impl EncoderKind {
    pub fn is_generated(&self) -> bool {
        matches!(self, EncoderKind::Generated { .. })
    }
}

impl fmt::Display for EncoderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncoderKind::Generated { type_name, origin, fingerprint } => {
                write!(f, "generated {type_name} (from {origin}, spec fingerprint {fingerprint:#018x})")
            }
            EncoderKind::Dynamic { fingerprint, forced: true } => {
                write!(f, "dynamic (requested; spec fingerprint {fingerprint:#018x})")
            }
            EncoderKind::Dynamic { fingerprint, forced: false } => {
                write!(f, "dynamic (no generated encoder for spec fingerprint {fingerprint:#018x})")
            }
        }
    }
}

/// A task-local encoder handle; see [`DynamicEncoder`] for the encode contract, which both
/// kinds share byte for byte.
pub struct Encoder {
    inner: Box<dyn BatchEncoder>,
    kind: EncoderKind,
}

impl Encoder {
    /// The generated encoder if this build has one for exactly this spec, else the dynamic one.
    pub fn open(spec: SinkSpec, compatibility: Compatibility) -> Result<Encoder> {
        match registry::lookup(&spec) {
            Some(entry) => {
                let kind = EncoderKind::Generated {
                    type_name: entry.type_name,
                    origin: entry.origin,
                    fingerprint: entry.fingerprint,
                };
                Ok(Encoder { inner: entry.open(spec, compatibility)?, kind })
            }
            None => {
                let kind = EncoderKind::Dynamic { fingerprint: spec_fingerprint(&spec), forced: false };
                Ok(Encoder { inner: Box::new(DynamicEncoder::open(spec, compatibility)?), kind })
            }
        }
    }

    /// The dynamic encoder even when a generated one exists (benchmarks, comparisons).
    pub fn open_dynamic(spec: SinkSpec, compatibility: Compatibility) -> Result<Encoder> {
        let kind = EncoderKind::Dynamic { fingerprint: spec_fingerprint(&spec), forced: true };
        Ok(Encoder { inner: Box::new(DynamicEncoder::open(spec, compatibility)?), kind })
    }

    pub fn kind(&self) -> &EncoderKind {
        &self.kind
    }

    /// Encodes one batch whose columns are the spec's physical columns, in order; `row_kinds`
    /// holds Flink RowKinds (0 +I, 1 -U, 2 +U, 3 -D), absent means all +I.
    pub fn encode(&mut self, batch: &RecordBatch, row_kinds: Option<&Int8Array>) -> Result<&KeyValueSlabs> {
        self.inner.encode(batch, row_kinds)
    }

    pub fn spec(&self) -> &SinkSpec {
        self.inner.spec()
    }

    pub fn compatibility(&self) -> Compatibility {
        self.inner.compatibility()
    }
}
