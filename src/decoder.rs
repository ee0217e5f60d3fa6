//! Generated decoders: the decoders compiled into this build from the scan sides of `schemas/`
//! (and `$KJSON_SCHEMAS_DIR`, see `build.rs`), keyed by the fingerprint of the scan spec: the row
//! layout, as for the encoders, plus the connector and the formats, which a decoder does not
//! take from run time. [`open_decoder`] looks a spec up here; [`Decoder::open`] is the dynamic
//! decoder, always. [`Decoder::kind`] says which sides a generated decoder reads.
use kjson_runtime::decode::Decoder;
use kjson_runtime::decode_support::GeneratedDecoder;
use kjson_runtime::{canonical_scan_spec, scan_fingerprint, Compatibility, Result, SinkSpec};

/// One generated decoder of this build.
pub struct GeneratedDecoderEntry {
    /// The schema file it was generated from, e.g. `schemas/q0.sql`.
    pub origin: &'static str,
    /// The generated type, e.g. `NexmarkQ0Decoder`.
    pub type_name: &'static str,
    pub fingerprint: u64,
    pub canonical_spec: &'static str,
    attach: fn(&mut Decoder) -> bool,
}

impl GeneratedDecoderEntry {
    pub const fn of<D: GeneratedDecoder>(origin: &'static str) -> GeneratedDecoderEntry {
        GeneratedDecoderEntry {
            origin,
            type_name: D::TYPE_NAME,
            fingerprint: D::FINGERPRINT,
            canonical_spec: D::CANONICAL_SPEC,
            attach: Decoder::use_generated::<D>,
        }
    }
}

mod generated {
    include!(concat!(env!("OUT_DIR"), "/kjson_generated_decode/registry.rs"));
}

/// Every generated decoder of this build, in schema-file order.
pub fn generated_decoders() -> &'static [GeneratedDecoderEntry] {
    generated::DECODERS
}

/// The generated decoder whose scan spec is exactly `spec` (fingerprint, then canonical text).
pub fn lookup_decoder(spec: &SinkSpec) -> Option<&'static GeneratedDecoderEntry> {
    let fingerprint = scan_fingerprint(spec);
    let mut candidates = generated_decoders().iter().filter(|e| e.fingerprint == fingerprint).peekable();
    candidates.peek()?;
    let canonical = canonical_scan_spec(spec);
    candidates.find(|e| e.canonical_spec == canonical)
}

/// Opens the decoder of a scan `spec` (`SinkSpec::from_source_ddl` / `from_source_parts`): each
/// side's rows (a json key's, a json value's or those in a changelog envelope) read by the
/// generated decoder of the same spec when this build has one and the side's options allow the
/// one-pass reader, else by the dynamic decoder. Rows, row kinds and
/// errors are the same either way; [`Decoder::open`] always opens the dynamic one.
pub fn open_decoder(spec: SinkSpec, compatibility: Compatibility) -> Result<Decoder> {
    let entry = lookup_decoder(&spec);
    let mut decoder = Decoder::open(spec, compatibility)?;
    if let Some(entry) = entry {
        (entry.attach)(&mut decoder);
    }
    Ok(decoder)
}
