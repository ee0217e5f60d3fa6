//! What every writer of a row gets and gives back: the side's options resolved once
//! ([`WriteContext`]), and the data-dependent failure of a value ([`ValueError`]).
use super::plan::field_name_json;
use crate::options::{Compatibility, JsonOptions};

/// How one side (key or value) writes: its options, resolved once.
pub struct WriteContext {
    pub options: JsonOptions,
    pub compatibility: Compatibility,
    /// `"<literal>":` for `map-null-key.mode = LITERAL`.
    pub literal_key_json: Vec<u8>,
    /// The literal's raw bytes, to detect collisions with real keys.
    pub literal_key: Vec<u8>,
}

impl WriteContext {
    pub fn new(options: JsonOptions, compatibility: Compatibility) -> Self {
        let literal_key_json = field_name_json(&options.map_null_key_literal);
        let literal_key = options.map_null_key_literal.as_bytes().to_vec();
        WriteContext { options, compatibility, literal_key_json, literal_key }
    }
}

/// A data-dependent failure inside a row. `path` collects the enclosing ROW field names,
/// innermost first, as Flink's "Fail to serialize at field" wrappers do.
#[derive(Debug)]
#[non_exhaustive]
pub enum ValueError {
    NullMapKey { path: Vec<String> },
    OutOfRange { what: String, path: Vec<String> },
}

impl ValueError {
    /// The same error, one ROW field further out.
    pub fn within(mut self, field: &str) -> Self {
        match &mut self {
            ValueError::NullMapKey { path } | ValueError::OutOfRange { path, .. } => path.push(field.to_string()),
        }
        self
    }
}

pub type WriteResult = std::result::Result<(), ValueError>;
