//! [`Encoder`]: the generated encoder of a spec when this build has one, else the dynamic one.
//! Which one runs is never silent: [`Encoder::kind`] says it, and the CLI prints it.
use std::fmt;

use arrow_array::{Int8Array, RecordBatch};
use kjson_runtime::encoder::BatchEncoder;
use kjson_runtime::fingerprint::spec_fingerprint;
use kjson_runtime::{Compatibility, DynamicEncoder, KeyValueSlabs, Result, SinkSpec};

use crate::registry;

/// Which encoder an [`Encoder`] runs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncoderKind {
    /// Schema-specialized code generated at build time from `origin`.
    Generated { type_name: &'static str, origin: &'static str, fingerprint: u64 },
    /// The plan-walking dynamic encoder; `forced` when the caller asked for it.
    Dynamic { fingerprint: u64, forced: bool },
}

impl EncoderKind {
    /// What [`Encoder::open`] picks for `spec` in this build, without opening it.
    pub fn for_spec(spec: &SinkSpec) -> EncoderKind {
        match registry::lookup(spec) {
            Some(entry) => EncoderKind::Generated {
                type_name: entry.type_name,
                origin: entry.origin,
                fingerprint: entry.fingerprint,
            },
            None => EncoderKind::Dynamic { fingerprint: spec_fingerprint(spec), forced: false },
        }
    }

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
        let kind = EncoderKind::for_spec(&spec);
        let inner = match registry::lookup(&spec) {
            Some(entry) => entry.open(spec, compatibility)?,
            None => Box::new(DynamicEncoder::open(spec, compatibility)?),
        };
        Ok(Encoder { inner, kind })
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
