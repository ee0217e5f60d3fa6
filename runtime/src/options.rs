//! Format options and the compatibility target (Flink version, JVM float spelling).
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TimestampFormat {
    #[default]
    Sql,
    Iso8601,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum MapNullKeyMode {
    #[default]
    Fail,
    Drop,
    Literal,
}

/// The resolved format options of one side (key or value) of the sink.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JsonOptions {
    pub timestamp_format: TimestampFormat,
    pub map_null_key_mode: MapNullKeyMode,
    pub map_null_key_literal: String,
    pub encode_decimal_as_plain_number: bool,
    pub ignore_null_fields: bool,
    /// Read side: `fail-on-missing-field`.
    pub fail_on_missing_field: bool,
    /// Read side: `ignore-parse-errors` (a bad field is null, a bad message yields no row).
    pub ignore_parse_errors: bool,
    /// Read side: `decode.json-parser.enabled` (json; true unless set to false).
    pub json_parser: bool,
    /// Whether the table sets `decode.json-parser.enabled` at all (Flink 1.20 has no such option).
    pub json_parser_set: bool,
    /// Read side: debezium-json's `schema-include` (the `schema`/`payload` wrapper).
    pub schema_include: bool,
    /// Read side: canal-json's `database.include` and `table.include` regular expressions.
    pub database_include: Option<String>,
    pub table_include: Option<String>,
}

impl TimestampFormat {
    /// The value of `timestamp-format.standard` that selects it.
    pub fn option_value(self) -> &'static str {
        match self {
            TimestampFormat::Sql => "SQL",
            TimestampFormat::Iso8601 => "ISO-8601",
        }
    }
}

impl MapNullKeyMode {
    /// The value of `map-null-key.mode` that selects it.
    pub fn option_value(self) -> &'static str {
        match self {
            MapNullKeyMode::Fail => "FAIL",
            MapNullKeyMode::Drop => "DROP",
            MapNullKeyMode::Literal => "LITERAL",
        }
    }
}

impl Default for JsonOptions {
    fn default() -> Self {
        JsonOptions {
            timestamp_format: TimestampFormat::Sql,
            map_null_key_mode: MapNullKeyMode::Fail,
            map_null_key_literal: "null".to_string(),
            encode_decimal_as_plain_number: false,
            ignore_null_fields: false,
            fail_on_missing_field: false,
            ignore_parse_errors: false,
            json_parser: true,
            json_parser_set: false,
            schema_include: false,
            database_include: None,
            table_include: None,
        }
    }
}

/// The Flink release whose bytes are reproduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[non_exhaustive]
pub enum FlinkVersion {
    V1_20,
    V2_2,
    #[default]
    V2_3,
}

impl FlinkVersion {
    /// 2.3 prints TIME with its millisecond fraction; earlier releases truncate to seconds.
    pub fn time_has_fraction(self) -> bool {
        self >= FlinkVersion::V2_3
    }
    /// 2.x keeps the declared scale for plain decimals; 1.20 strips trailing zeros.
    pub fn plain_decimal_keeps_scale(self) -> bool {
        self >= FlinkVersion::V2_2
    }
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "1.20" => Some(FlinkVersion::V1_20),
            "2.2" => Some(FlinkVersion::V2_2),
            "2.3" => Some(FlinkVersion::V2_3),
            _ => None,
        }
    }
}

impl fmt::Display for FlinkVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FlinkVersion::V1_20 => "1.20",
            FlinkVersion::V2_2 => "2.2",
            FlinkVersion::V2_3 => "2.3",
        })
    }
}

/// How the JVM running Flink spells `float` and `double`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum FloatSpelling {
    /// JDK 18 and earlier: the legacy `FloatingDecimal` digits.
    #[default]
    Jdk17,
    /// JDK 19 and later: the shortest-decimal algorithm.
    Jdk19,
}

impl FloatSpelling {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "jdk17" => Some(FloatSpelling::Jdk17),
            "jdk19" => Some(FloatSpelling::Jdk19),
            _ => None,
        }
    }
}

impl fmt::Display for FloatSpelling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FloatSpelling::Jdk17 => "jdk17",
            FloatSpelling::Jdk19 => "jdk19",
        })
    }
}

/// What an encoder reproduces: chosen at open, fixed for the handle's life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Compatibility {
    pub flink_version: FlinkVersion,
    pub float_spelling: FloatSpelling,
}
