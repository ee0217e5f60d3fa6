//! [`Encoder`]: the generated encoder of a spec when this build has one, else the dynamic one.
//! Which one runs is never silent: [`Encoder::kind`] says it, and the CLI prints it.
//!
//! Both kinds are one [`EncoderCore`] (one spec, one set of slabs, a plan per Arrow encoding of
//! the batch, up to [`PLANS_KEPT`]) with the row loop chosen at open. Arrow engines may change
//! how a column is carried between batches (Utf8, then Utf8View or a dictionary; a list item that
//! becomes nullable) while the logical types stay the same: a new encoding is planned afresh, and
//! a batch whose types do not fit the sink's logical types is refused, as on the first batch.
use std::fmt;

use arrow_array::{Int8Array, RecordBatch};
pub use kjson_runtime::PLANS_KEPT;
use kjson_runtime::{spec_fingerprint, Compatibility, EncoderCore, KeyValueSlabs, Result, SinkSpec};

use crate::registry::{self, GeneratedEntry};

/// Which encoder an [`Encoder`] runs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncoderKind {
    /// Schema-specialized code generated at build time from `origin`: the schema files of its row
    /// layout, comma-separated (a spec's connector and formats are run-time choices, so one
    /// encoder serves, say, a `json` and a `debezium-json` sink of one table).
    Generated { type_name: &'static str, origin: &'static str, fingerprint: u64 },
    /// The plan-walking dynamic encoder; `forced` when the caller asked for it.
    Dynamic { fingerprint: u64, forced: bool },
}

impl EncoderKind {
    /// What [`Encoder::open`] picks for `spec` in this build, without opening it.
    pub fn for_spec(spec: &SinkSpec) -> EncoderKind {
        EncoderKind::of(registry::lookup(spec), spec)
    }

    /// The kind of `entry`'s encoder, or of the dynamic one when this build has none for `spec`.
    fn of(entry: Option<&GeneratedEntry>, spec: &SinkSpec) -> EncoderKind {
        match entry {
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
                write!(f, "generated {type_name} (from {origin}; spec fingerprint {fingerprint:#018x})")
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

/// A task-local encoder handle: the encoder core (see [`EncoderCore`] for the encode contract,
/// which both kinds share byte for byte) and which kind it runs.
pub struct Encoder {
    core: EncoderCore,
    kind: EncoderKind,
}

impl Encoder {
    /// The generated encoder if this build has one for exactly this spec, else the dynamic one.
    pub fn open(spec: SinkSpec, compatibility: Compatibility) -> Result<Encoder> {
        let entry = registry::lookup(&spec);
        let kind = EncoderKind::of(entry, &spec);
        let core = match entry {
            Some(entry) => entry.open(spec, compatibility)?,
            None => EncoderCore::open_dynamic(spec, compatibility)?,
        };
        Ok(Encoder { core, kind })
    }

    /// The dynamic encoder even when a generated one exists (benchmarks, comparisons).
    pub fn open_dynamic(spec: SinkSpec, compatibility: Compatibility) -> Result<Encoder> {
        let kind = EncoderKind::Dynamic { fingerprint: spec_fingerprint(&spec), forced: true };
        Ok(Encoder { core: EncoderCore::open_dynamic(spec, compatibility)?, kind })
    }

    pub fn kind(&self) -> &EncoderKind {
        &self.kind
    }

    /// Encodes one batch whose columns are the spec's physical columns, in order; `row_kinds`
    /// holds Flink RowKinds (0 +I, 1 -U, 2 +U, 3 -D), absent means all +I. A batch whose Arrow
    /// types differ from the previous batch's is planned afresh (see the module docs).
    pub fn encode(&mut self, batch: &RecordBatch, row_kinds: Option<&Int8Array>) -> Result<&KeyValueSlabs> {
        self.core.encode(batch, row_kinds)
    }

    /// How many Arrow encodings this encoder holds a plan for (at most [`PLANS_KEPT`]).
    pub fn plans_kept(&self) -> usize {
        self.core.plans_kept()
    }

    pub fn spec(&self) -> &SinkSpec {
        self.core.spec()
    }

    pub fn compatibility(&self) -> Compatibility {
        self.core.compatibility()
    }
}
