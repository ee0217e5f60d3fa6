//! The encoder registry: the generated encoders compiled into this build (from `schemas/` and
//! `$KJSON_SCHEMAS_DIR`, see `build.rs`), one per distinct row layout, keyed by the fingerprint
//! of their normalized spec's layout.
//! [`crate::Encoder::open`] looks a spec up here and falls back to the dynamic encoder.
use kjson_runtime::codegen_support::{open_generated, GeneratedSchema};
use kjson_runtime::{canonical_spec, spec_fingerprint, Compatibility, EncoderCore, Result, SinkSpec};

/// Opens a generated encoder for a spec that matches it.
type OpenFn = fn(SinkSpec, Compatibility) -> Result<EncoderCore>;

/// One generated encoder of this build.
pub struct GeneratedEntry {
    /// The schema files of its layout, e.g. `schemas/q9.sql, schemas/q9_debezium.sql`.
    pub origin: &'static str,
    /// The generated type, e.g. `NexmarkQ0`.
    pub type_name: &'static str,
    pub fingerprint: u64,
    pub canonical_spec: &'static str,
    open: OpenFn,
}

impl GeneratedEntry {
    pub const fn of<S: GeneratedSchema>(origin: &'static str, type_name: &'static str) -> GeneratedEntry {
        GeneratedEntry {
            origin,
            type_name,
            fingerprint: S::FINGERPRINT,
            canonical_spec: S::CANONICAL_SPEC,
            open: open_generated::<S>,
        }
    }

    pub fn open(&self, spec: SinkSpec, compatibility: Compatibility) -> Result<EncoderCore> {
        (self.open)(spec, compatibility)
    }
}

mod generated {
    include!(concat!(env!("OUT_DIR"), "/kjson_generated/registry.rs"));
}

/// Every generated encoder of this build, in schema-file order.
pub fn generated_schemas() -> &'static [GeneratedEntry] {
    generated::SCHEMAS
}

/// The generated encoder whose row layout is exactly `spec`'s (fingerprint, then canonical text);
/// the encoder it opens takes the connector and formats from `spec`.
pub fn lookup(spec: &SinkSpec) -> Option<&'static GeneratedEntry> {
    let fingerprint = spec_fingerprint(spec);
    let mut candidates = generated_schemas().iter().filter(|e| e.fingerprint == fingerprint).peekable();
    candidates.peek()?;
    let canonical = canonical_spec(spec);
    candidates.find(|e| e.canonical_spec == canonical)
}
