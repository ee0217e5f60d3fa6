//! The formats kjson writes: `json` and the four CDC formats, which share json's encoder and
//! options (under their own prefix) and wrap the row object in an envelope chosen by the row
//! kind ([`Format::envelope`], defined beside the bytes in `envelope.rs`). What Flink's format
//! factories accept is each format's [`FormatDescriptor`].
use std::fmt;

/// A value (or key) format, named as in `'format' = '...'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `json`: the row object as is; insert-only.
    Json,
    /// `debezium-json`: `{"before":...,"after":...,"op":...}`.
    DebeziumJson,
    /// `canal-json`: `{"data":[...],"type":...}`.
    CanalJson,
    /// `maxwell-json`: `{"data":...,"type":...}`.
    MaxwellJson,
    /// `ogg-json`: `{"before":...,"after":...,"op_type":...}`.
    OggJson,
}

impl Format {
    /// Every format, in the order of their names.
    pub const ALL: [Format; 5] =
        [Format::CanalJson, Format::DebeziumJson, Format::Json, Format::MaxwellJson, Format::OggJson];

    /// The factory identifier: what `format`, `key.format` or `value.format` is set to.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::DebeziumJson => "debezium-json",
            Format::CanalJson => "canal-json",
            Format::MaxwellJson => "maxwell-json",
            Format::OggJson => "ogg-json",
        }
    }

    /// The format with this factory identifier (exact, case-sensitive, as Flink's discovery).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|format| format.name() == name)
    }

    /// Whether the format's changelog mode is insert-only (what the connectors check).
    pub fn is_insert_only(self) -> bool {
        self == Format::Json
    }

    /// The changelog mode as Flink prints it in messages.
    pub(crate) fn changelog_mode(self) -> &'static str {
        match self.is_insert_only() {
            true => "[INSERT]",
            false => "[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]",
        }
    }

    /// The options the format's factory accepts.
    pub(crate) fn descriptor(self) -> &'static FormatDescriptor {
        match self {
            Format::Json => &JSON,
            Format::DebeziumJson => &DEBEZIUM,
            Format::CanalJson => &CANAL,
            Format::MaxwellJson | Format::OggJson => &MAXWELL_OGG,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The options of one format factory (its sink side).
#[derive(Debug)]
pub(crate) struct FormatDescriptor {
    /// The factory's option keys, un-prefixed, sorted.
    pub option_keys: &'static [&'static str],
    /// The boolean options in the order Flink's `validateFactoryOptions` reads them: the
    /// iteration order of the factory's `HashSet` of options (which the keys' hashes fix), so
    /// the first bad one is the one Flink reports. Decode-only ones are kept for the read side.
    pub boolean_keys: &'static [&'static str],
    /// Boolean options a sink must not set to true, with the message Flink gives.
    pub refused_when_true: &'static [(&'static str, &'static str)],
}

const JSON_OPTION_KEYS: &[&str] = &[
    "decode.json-parser.enabled",
    "encode.decimal-as-plain-number",
    "encode.ignore-null-fields",
    "fail-on-missing-field",
    "ignore-parse-errors",
    "map-null-key.literal",
    "map-null-key.mode",
    "timestamp-format.standard",
];

const JSON_BOOLEAN_KEYS: &[&str] = &[
    "encode.decimal-as-plain-number",
    "encode.ignore-null-fields",
    "decode.json-parser.enabled",
    "fail-on-missing-field",
    "ignore-parse-errors",
];

const DEBEZIUM_OPTION_KEYS: &[&str] = &[
    "encode.decimal-as-plain-number",
    "encode.ignore-null-fields",
    "ignore-parse-errors",
    "map-null-key.literal",
    "map-null-key.mode",
    "schema-include",
    "timestamp-format.standard",
];

const DEBEZIUM_BOOLEAN_KEYS: &[&str] =
    &["encode.decimal-as-plain-number", "encode.ignore-null-fields", "schema-include", "ignore-parse-errors"];

const DEBEZIUM_SCHEMA_INCLUDE: &str =
    "Debezium JSON serialization doesn't support 'debezium-json.schema-include' option been set to true.";

const CANAL_OPTION_KEYS: &[&str] = &[
    "database.include",
    "encode.decimal-as-plain-number",
    "encode.ignore-null-fields",
    "ignore-parse-errors",
    "map-null-key.literal",
    "map-null-key.mode",
    "table.include",
    "timestamp-format.standard",
];

/// maxwell-json and ogg-json: json's encode options plus `ignore-parse-errors`.
const CDC_OPTION_KEYS: &[&str] = &[
    "encode.decimal-as-plain-number",
    "encode.ignore-null-fields",
    "ignore-parse-errors",
    "map-null-key.literal",
    "map-null-key.mode",
    "timestamp-format.standard",
];

const CDC_BOOLEAN_KEYS: &[&str] =
    &["encode.decimal-as-plain-number", "encode.ignore-null-fields", "ignore-parse-errors"];

static JSON: FormatDescriptor =
    FormatDescriptor { option_keys: JSON_OPTION_KEYS, boolean_keys: JSON_BOOLEAN_KEYS, refused_when_true: &[] };

static DEBEZIUM: FormatDescriptor = FormatDescriptor {
    option_keys: DEBEZIUM_OPTION_KEYS,
    boolean_keys: DEBEZIUM_BOOLEAN_KEYS,
    refused_when_true: &[("schema-include", DEBEZIUM_SCHEMA_INCLUDE)],
};

static CANAL: FormatDescriptor =
    FormatDescriptor { option_keys: CANAL_OPTION_KEYS, boolean_keys: CDC_BOOLEAN_KEYS, refused_when_true: &[] };

static MAXWELL_OGG: FormatDescriptor =
    FormatDescriptor { option_keys: CDC_OPTION_KEYS, boolean_keys: CDC_BOOLEAN_KEYS, refused_when_true: &[] };

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_sorted() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
        let names: Vec<&str> = Format::ALL.iter().map(|format| format.name()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
        assert_eq!(Format::from_name("JSON"), None);
        assert_eq!(Format::from_name("csv"), None);
    }
}
