//! [`Encoder`]: the generated encoder of a spec when this build has one, else the dynamic one.
//! Which one runs is never silent: [`Encoder::kind`] says it, and the CLI prints it.
//!
//! An encoder plans against the Arrow types of a batch. Arrow engines may change how a column is
//! carried between batches (Utf8, then Utf8View or a dictionary; a list item that becomes
//! nullable) while the logical types stay the same, so [`Encoder`] keeps one planned encoder per
//! Arrow encoding it has seen, up to [`PLANS_KEPT`], and re-plans on a new one. A batch whose
//! types do not fit the sink's logical types is refused by the plan, as on the first batch.
use std::fmt;

use arrow_array::{Int8Array, RecordBatch};
use arrow_schema::Schema;
use kjson_runtime::encode::Carriage;
use kjson_runtime::{spec_fingerprint, BatchEncoder, Compatibility, DynamicEncoder, KeyValueSlabs, Result, SinkSpec};

use crate::registry::{self, GeneratedEntry};

/// How many Arrow encodings of the batch an [`Encoder`] keeps a plan for; the least recently
/// used is dropped first. Each kept plan holds its own output buffers.
pub const PLANS_KEPT: usize = 4;

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

/// A task-local encoder handle; see [`DynamicEncoder`] for the encode contract, which both
/// kinds share byte for byte.
pub struct Encoder {
    spec: SinkSpec,
    compatibility: Compatibility,
    kind: EncoderKind,
    generated: Option<&'static GeneratedEntry>,
    /// Most recently used first.
    plans: Vec<PlannedEncoder>,
    /// Opened with the handle (so a refused spec fails at open) and not planned yet.
    unplanned: Option<Box<dyn BatchEncoder>>,
}

/// An encoder planned (or about to be) for one Arrow encoding of the batch.
struct PlannedEncoder {
    carriages: Vec<Carriage>,
    inner: Box<dyn BatchEncoder>,
    /// False until a batch encodes without error.
    succeeded: bool,
}

impl Encoder {
    /// The generated encoder if this build has one for exactly this spec, else the dynamic one.
    pub fn open(spec: SinkSpec, compatibility: Compatibility) -> Result<Encoder> {
        let kind = EncoderKind::for_spec(&spec);
        let generated = registry::lookup(&spec);
        Encoder::with(spec, compatibility, kind, generated)
    }

    /// The dynamic encoder even when a generated one exists (benchmarks, comparisons).
    pub fn open_dynamic(spec: SinkSpec, compatibility: Compatibility) -> Result<Encoder> {
        let kind = EncoderKind::Dynamic { fingerprint: spec_fingerprint(&spec), forced: true };
        Encoder::with(spec, compatibility, kind, None)
    }

    fn with(
        spec: SinkSpec,
        compatibility: Compatibility,
        kind: EncoderKind,
        generated: Option<&'static GeneratedEntry>,
    ) -> Result<Encoder> {
        let mut encoder = Encoder { spec, compatibility, kind, generated, plans: Vec::new(), unplanned: None };
        encoder.unplanned = Some(encoder.open_inner()?);
        Ok(encoder)
    }

    fn open_inner(&self) -> Result<Box<dyn BatchEncoder>> {
        match self.generated {
            Some(entry) => entry.open(self.spec.clone(), self.compatibility),
            None => Ok(Box::new(DynamicEncoder::open(self.spec.clone(), self.compatibility)?)),
        }
    }

    pub fn kind(&self) -> &EncoderKind {
        &self.kind
    }

    /// Encodes one batch whose columns are the spec's physical columns, in order; `row_kinds`
    /// holds Flink RowKinds (0 +I, 1 -U, 2 +U, 3 -D), absent means all +I. A batch whose Arrow
    /// types differ from the previous batch's is planned afresh (see the module docs).
    pub fn encode(&mut self, batch: &RecordBatch, row_kinds: Option<&Int8Array>) -> Result<&KeyValueSlabs> {
        self.select_plan(&batch.schema())?;
        let planned = &mut self.plans[0];
        let slabs = planned.inner.encode(batch, row_kinds)?;
        planned.succeeded = true;
        Ok(slabs)
    }

    /// Moves the plan for this schema's Arrow types to the front, opening one if there is none.
    /// An encoder whose batches all failed (a refused type) is dropped here, so it holds no slot.
    fn select_plan(&mut self, schema: &Schema) -> Result<()> {
        self.plans.retain(|p| p.succeeded);
        let same_types = |p: &PlannedEncoder| {
            p.carriages.len() == schema.fields().len()
                && p.carriages.iter().zip(schema.fields()).all(|(c, f)| *c == Carriage::of(f))
        };
        if let Some(found) = self.plans.iter().position(same_types) {
            self.plans[..=found].rotate_right(1);
            return Ok(());
        }
        let carriages: Vec<Carriage> = schema.fields().iter().map(|f| Carriage::of(f)).collect();
        let inner = match self.unplanned.take() {
            Some(inner) => inner,
            None => self.open_inner()?,
        };
        self.plans.truncate(PLANS_KEPT - 1);
        self.plans.insert(0, PlannedEncoder { carriages, inner, succeeded: false });
        Ok(())
    }

    /// How many Arrow encodings this encoder holds a plan for (at most [`PLANS_KEPT`]).
    pub fn plans_kept(&self) -> usize {
        self.plans.len()
    }

    pub fn spec(&self) -> &SinkSpec {
        &self.spec
    }

    pub fn compatibility(&self) -> Compatibility {
        self.compatibility
    }
}
