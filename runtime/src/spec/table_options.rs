//! Flink's option rules for the Kafka sink connectors and their formats: which keys exist, how
//! values parse, and the messages Flink gives (FactoryUtil, KafkaConnectorOptionsUtil,
//! JsonFormatOptionsUtil, ConfigurationUtils). Each message is the text of the exception Flink
//! throws; where Flink wraps a root cause, the wrapper's sentence and the root cause are joined.
use std::collections::{BTreeMap, BTreeSet};

use super::format::Format;
use super::Connector;
use crate::error::{KjsonError, Position, Result};
use crate::options::{JsonOptions, MapNullKeyMode, TimestampFormat};
use crate::sql::CreateTable;

/// One option value with the position of its key in the DDL (none for JNI parts).
#[derive(Debug, Clone)]
struct OptionValue {
    value: String,
    position: Option<Position>,
}

/// A table's options keyed as written; a repeated DDL key keeps its last value.
#[derive(Debug, Clone, Default)]
pub(crate) struct TableOptions {
    entries: BTreeMap<String, OptionValue>,
    /// Where errors about a missing option point (the DDL's `WITH`).
    missing_position: Option<Position>,
    /// The table is read (a source): the formats' sink-only refusals do not apply.
    pub read: bool,
}

impl TableOptions {
    pub fn from_ddl(table: &CreateTable) -> Self {
        let mut options =
            TableOptions { entries: BTreeMap::new(), missing_position: Some(table.with_position), read: false };
        for option in &table.options {
            let value = OptionValue { value: option.value.clone(), position: Some(option.key_position) };
            options.entries.insert(option.key.clone(), value);
        }
        options
    }

    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> Self {
        let entries = pairs.into_iter().map(|(key, value)| (key, OptionValue { value, position: None })).collect();
        TableOptions { entries, missing_position: None, read: false }
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries.get(key).map(|entry| entry.value.as_str())
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.entries.keys()
    }

    /// An option error at the key's position.
    pub fn error_at(&self, key: &str, message: impl Into<String>) -> KjsonError {
        let error = KjsonError::option(message);
        match self.entries.get(key).and_then(|entry| entry.position) {
            Some(position) => error.at(position),
            None => error,
        }
    }

    /// An option error about something absent, at the DDL's `WITH`.
    pub fn error_missing(&self, message: impl Into<String>) -> KjsonError {
        let error = KjsonError::option(message);
        match self.missing_position {
            Some(position) => error.at(position),
            None => error,
        }
    }
}

/// Flink's `EncodingUtils.escapeSingleQuotes`.
pub(crate) fn escape_single_quotes(text: &str) -> String {
    text.replace('\'', "''")
}

/// A format found on one side of the record, with its options resolved.
#[derive(Debug)]
pub(crate) struct ResolvedFormat {
    pub format: Format,
    /// The option naming the format: `format`, `key.format` or `value.format`.
    pub format_key: &'static str,
    /// Where its options live: `json.`, `key.json.` or `value.json.`.
    pub prefix: String,
    pub options: JsonOptions,
}

/// Finds the format named by `format_key` (if set) and validates its options, as Flink's
/// `discoverOptionalEncodingFormat` does.
pub(crate) fn discover_format(options: &TableOptions, format_key: &'static str) -> Result<Option<ResolvedFormat>> {
    let Some(name) = options.get(format_key) else {
        return Ok(None);
    };
    let Some(format) = Format::from_name(name) else {
        let mut available: Vec<&str> = Format::ALL.iter().map(|format| format.name()).collect();
        available.sort_unstable();
        let message = format!(
            "Option '{format_key}': Could not find any factory for identifier '{name}' that implements \
             'org.apache.flink.table.factories.SerializationFormatFactory' in the classpath.\n\n\
             Available factory identifiers are:\n\n{}",
            available.join("\n")
        );
        return Err(options.error_at(format_key, message));
    };
    let prefix = match format_key.strip_suffix("format") {
        Some(side) => format!("{side}{name}."),
        None => format!("{name}."),
    };
    let json = read_json_options(options, format, &prefix)?;
    Ok(Some(ResolvedFormat { format, format_key, prefix, options: json }))
}

/// Reads the encoder options under `prefix`, in the order of the format factories' validation:
/// typed (boolean) reads first, then map-null-key.mode, then timestamp-format.standard, then
/// the format's own sink refusals.
fn read_json_options(options: &TableOptions, format: Format, prefix: &str) -> Result<JsonOptions> {
    let side = if options.read { "scan" } else { "sink" };
    let wrapper = format!("Error creating {side} format '{}' in option space '{prefix}'.", format.name());
    let format = format.descriptor();
    let fail = |key: &str, root: String| options.error_at(&format!("{prefix}{key}"), format!("{wrapper} {root}"));
    let mut json = JsonOptions::default();
    for key in format.boolean_keys {
        let Some(value) = read_boolean(options, prefix, key).map_err(|root| fail(key, root))? else {
            continue;
        };
        match *key {
            "encode.decimal-as-plain-number" => json.encode_decimal_as_plain_number = value,
            "encode.ignore-null-fields" => json.ignore_null_fields = value,
            "fail-on-missing-field" => json.fail_on_missing_field = value,
            "ignore-parse-errors" => json.ignore_parse_errors = value,
            "decode.json-parser.enabled" => (json.json_parser, json.json_parser_set) = (value, true),
            "schema-include" => json.schema_include = value,
            _ => {}
        }
    }
    if let Some(text) = options.get(&format!("{prefix}map-null-key.mode")) {
        json.map_null_key_mode = match text.to_uppercase().as_str() {
            "FAIL" => MapNullKeyMode::Fail,
            "DROP" => MapNullKeyMode::Drop,
            "LITERAL" => MapNullKeyMode::Literal,
            // The list is a Java HashSet's toString, whose order is fixed by the names' hashes.
            _ => {
                let root = format!(
                    "Unsupported value '{text}' for option map-null-key.mode. Supported values are [LITERAL, FAIL, DROP]."
                );
                return Err(fail("map-null-key.mode", root));
            }
        };
    }
    if let Some(text) = options.get(&format!("{prefix}map-null-key.literal")) {
        json.map_null_key_literal = text.to_string();
    }
    if let Some(text) = options.get(&format!("{prefix}timestamp-format.standard")) {
        json.timestamp_format = match text {
            "SQL" => TimestampFormat::Sql,
            "ISO-8601" => TimestampFormat::Iso8601,
            _ => {
                let root = format!(
                    "Unsupported value '{text}' for timestamp-format.standard. Supported values are [SQL, ISO-8601]."
                );
                return Err(fail("timestamp-format.standard", root));
            }
        };
    }
    for key in ["database.include", "table.include"] {
        if let Some(text) = options.get(&format!("{prefix}{key}")) {
            let pattern = Some(text.to_string());
            match key {
                "database.include" => json.database_include = pattern,
                _ => json.table_include = pattern,
            }
        }
    }
    let refusals = if options.read { &[][..] } else { format.refused_when_true };
    for (key, message) in refusals {
        if read_boolean(options, prefix, key) == Ok(Some(true)) {
            return Err(fail(key, message.to_string()));
        }
    }
    Ok(json)
}

/// A boolean format option under `prefix`, if set; the error is Flink's root cause.
fn read_boolean(options: &TableOptions, prefix: &str, key: &str) -> std::result::Result<Option<bool>, String> {
    let Some(text) = options.get(&format!("{prefix}{key}")) else {
        return Ok(None);
    };
    parse_flink_boolean(text).map(Some).ok_or_else(|| {
        format!(
            "Invalid value for option '{key}'. Unrecognized option for boolean: {text}. \
             Expected either true or false(case insensitive)"
        )
    })
}

/// Flink's `ConfigurationUtils.convertToBoolean`: `true`/`false` after upper-casing.
pub(crate) fn parse_flink_boolean(text: &str) -> Option<bool> {
    match text.to_uppercase().as_str() {
        "TRUE" => Some(true),
        "FALSE" => Some(false),
        _ => None,
    }
}

/// `value.fields-include`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValueFieldsInclude {
    All,
    ExceptKey,
}

/// Reads `value.fields-include` as Flink's enum option (case-insensitive).
pub(crate) fn value_fields_include(options: &TableOptions) -> Result<ValueFieldsInclude> {
    let Some(text) = options.get("value.fields-include") else {
        return Ok(ValueFieldsInclude::All);
    };
    match text.to_uppercase().as_str() {
        "ALL" => Ok(ValueFieldsInclude::All),
        "EXCEPT_KEY" => Ok(ValueFieldsInclude::ExceptKey),
        _ => Err(options.error_at(
            "value.fields-include",
            "Invalid value for option 'value.fields-include'. Could not parse value for enum class \
             org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions$ValueFieldsStrategy. \
             Expected one of: [[ALL, EXCEPT_KEY]]",
        )),
    }
}

/// Reads `key.fields` as Flink's list option (`;`-separated, quoting allowed).
pub(crate) fn key_fields(options: &TableOptions) -> Result<Option<Vec<String>>> {
    let Some(text) = options.get("key.fields") else {
        return Ok(None);
    };
    split_option_list(text)
        .map(Some)
        .map_err(|root| options.error_at("key.fields", format!("Invalid value for option 'key.fields'. {root}")))
}

/// Flink's `StructuredOptionsSplitter.splitEscaped(text, ';')`: parts may be quoted with `'` or
/// `"` (a doubled quote escapes it); unquoted parts are trimmed; whitespace between parts is
/// skipped.
pub(crate) fn split_option_list(text: &str) -> std::result::Result<Vec<String>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens: Vec<(ListToken, String, usize)> = Vec::new();
    let mut cursor = 0;
    while cursor < chars.len() {
        let c = chars[cursor];
        if c == '\'' || c == '"' {
            let (part, next) = consume_quoted(&chars, cursor)?;
            tokens.push((ListToken::Quoted, part, cursor));
            cursor = next;
        } else if c == ';' {
            tokens.push((ListToken::Delimiter, String::new(), cursor));
            cursor += 1;
        } else if is_java_whitespace(c) {
            cursor += 1;
        } else {
            let start = cursor;
            while cursor < chars.len() && chars[cursor] != ';' {
                cursor += 1;
            }
            let part: String = chars[start..cursor].iter().collect();
            tokens.push((ListToken::Unquoted, part.trim_matches(|c: char| c <= ' ').to_string(), start));
        }
    }
    let mut parts = Vec::new();
    for (index, (kind, part, _)) in tokens.iter().enumerate() {
        let next = tokens.get(index + 1);
        match kind {
            ListToken::Quoted => {
                if let Some((next_kind, _, next_position)) = next {
                    if *next_kind != ListToken::Delimiter {
                        return Err(format!(
                            "Could not split string. Illegal quoting at position: {}",
                            next_position - 1
                        ));
                    }
                }
                parts.push(part.clone());
            }
            ListToken::Unquoted => parts.push(part.clone()),
            ListToken::Delimiter => {
                if next.is_some_and(|(next_kind, _, _)| *next_kind == ListToken::Delimiter) {
                    parts.push(String::new());
                }
            }
        }
    }
    Ok(parts)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListToken {
    Quoted,
    Unquoted,
    Delimiter,
}

/// Reads a quoted part starting at `start`; returns it and the index after the closing quote.
fn consume_quoted(chars: &[char], start: usize) -> std::result::Result<(String, usize), String> {
    let quote = chars[start];
    let mut part = String::new();
    let mut index = start + 1;
    while index < chars.len() {
        if chars[index] == quote {
            if chars.get(index + 1) == Some(&quote) {
                part.push(quote);
                index += 2;
                continue;
            }
            return Ok((part, index + 1));
        }
        part.push(chars[index]);
        index += 1;
    }
    Err("Could not split string. Quoting was not closed properly.".to_string())
}

/// Java's `Character.isWhitespace`: space separators except the no-break ones, and the ASCII
/// controls \t \n \u000B \f \r \u001C-\u001F.
fn is_java_whitespace(c: char) -> bool {
    matches!(c, '\t'..='\r' | '\u{1C}'..='\u{1F}' | ' ' | '\u{1680}' | '\u{2000}'..='\u{2006}')
        || matches!(c, '\u{2008}'..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{205F}' | '\u{3000}')
}

const IMPLICIT_OPTIONS: &[&str] = &["connector", "property-version"];

/// FactoryUtil's watermark options, accepted by every table factory.
const WATERMARK_OPTIONS: &[&str] = &[
    "scan.watermark.alignment.group",
    "scan.watermark.alignment.max-drift",
    "scan.watermark.alignment.update-interval",
    "scan.watermark.emit.strategy",
    "scan.watermark.idle-timeout",
];

/// `KafkaDynamicTableFactory`'s required and optional options (flink-connector-kafka main).
const KAFKA_OPTIONS: &[&str] = &[
    "format",
    "key.fields",
    "key.fields-prefix",
    "key.format",
    "properties.bootstrap.servers",
    "properties.group.id",
    "scan.bounded.mode",
    "scan.bounded.specific-offsets",
    "scan.bounded.timestamp-millis",
    "scan.parallelism",
    "scan.startup.mode",
    "scan.startup.specific-offsets",
    "scan.startup.timestamp-millis",
    "scan.topic-partition-discovery.interval",
    "sink.delivery-guarantee",
    "sink.parallelism",
    "sink.partitioner",
    "sink.semantic",
    "sink.transaction-naming-strategy",
    "sink.transactional-id-prefix",
    "topic",
    "topic-pattern",
    "value.fields-include",
    "value.format",
];

/// `UpsertKafkaDynamicTableFactory`'s required and optional options.
const UPSERT_KAFKA_OPTIONS: &[&str] = &[
    "key.fields-prefix",
    "key.format",
    "properties.bootstrap.servers",
    "scan.bounded.mode",
    "scan.bounded.specific-offsets",
    "scan.bounded.timestamp-millis",
    "scan.parallelism",
    "scan.topic-partition-discovery.interval",
    "sink.buffer-flush.interval",
    "sink.buffer-flush.max-rows",
    "sink.delivery-guarantee",
    "sink.parallelism",
    "sink.transaction-naming-strategy",
    "sink.transactional-id-prefix",
    "topic",
    "topic-pattern",
    "value.fields-include",
    "value.format",
];

/// The keys a connector's factory consumes before its formats add theirs.
pub(crate) fn connector_option_keys(connector: Connector) -> Vec<&'static str> {
    let own = match connector {
        Connector::Kafka => KAFKA_OPTIONS,
        Connector::UpsertKafka => UPSERT_KAFKA_OPTIONS,
    };
    IMPLICIT_OPTIONS.iter().chain(WATERMARK_OPTIONS).chain(own).copied().collect()
}

/// FactoryUtil's check for left-over keys: everything not consumed by the factory, its formats
/// (under their prefixes) or the skipped `properties.` prefix is rejected.
pub(crate) fn check_unsupported_options(
    options: &TableOptions,
    factory_identifier: &str,
    base_keys: &[&str],
    formats: &[&ResolvedFormat],
) -> Result<()> {
    let mut consumed: BTreeSet<String> = base_keys.iter().map(|key| key.to_string()).collect();
    for format in formats {
        consumed.extend(format.format.descriptor().option_keys.iter().map(|key| format!("{}{key}", format.prefix)));
    }
    consumed.extend(options.keys().filter(|key| key.starts_with("properties.")).cloned());
    let unsupported: Vec<&String> = options.keys().filter(|key| !consumed.contains(*key)).collect();
    let Some(first) = unsupported.first() else {
        return Ok(());
    };
    let unsupported_list: Vec<&str> = unsupported.iter().map(|key| key.as_str()).collect();
    let consumed_list: Vec<&str> = consumed.iter().map(String::as_str).collect();
    let message = format!(
        "Unsupported options found for '{factory_identifier}'.\n\nUnsupported options:\n\n{}\n\nSupported options:\n\n{}",
        unsupported_list.join("\n"),
        consumed_list.join("\n")
    );
    Err(options.error_at(first, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> std::result::Result<Vec<String>, String> {
        split_option_list(text)
    }

    fn strings(parts: &[&str]) -> std::result::Result<Vec<String>, String> {
        Ok(parts.iter().map(|part| part.to_string()).collect())
    }

    #[test]
    fn list_splitting_follows_flink() {
        assert_eq!(split("A;B;C"), strings(&["A", "B", "C"]));
        assert_eq!(split("'A;B';C"), strings(&["A;B", "C"]));
        assert_eq!(split("'AB''D;B';C"), strings(&["AB'D;B", "C"]));
        assert_eq!(split("\"AB'D\";B;C"), strings(&["AB'D", "B", "C"]));
        assert_eq!(split("   'A;B'    ;   C   "), strings(&["A;B", "C"]));
        assert_eq!(split("'A;B'    ;C A"), strings(&["A;B", "C A"]));
        assert_eq!(split("A'BD;B';C"), strings(&["A'BD", "B'", "C"]));
        assert_eq!(split("A;;B"), strings(&["A", "", "B"]));
        assert_eq!(split(";A;"), strings(&["A"]));
        assert_eq!(split(""), strings(&[]));
        assert_eq!(split("'AB'D;B;C"), Err("Could not split string. Illegal quoting at position: 3".to_string()));
        assert_eq!(split("C;'"), Err("Could not split string. Quoting was not closed properly.".to_string()));
    }

    #[test]
    fn booleans_are_case_insensitive_only() {
        assert_eq!(parse_flink_boolean("TrUe"), Some(true));
        assert_eq!(parse_flink_boolean("false"), Some(false));
        assert_eq!(parse_flink_boolean("yes"), None);
        assert_eq!(parse_flink_boolean(" true"), None);
    }

    #[test]
    fn value_fields_include_parses_like_a_flink_enum() {
        let options = TableOptions::from_pairs([("value.fields-include".to_string(), "except_key".to_string())]);
        assert_eq!(value_fields_include(&options).unwrap(), ValueFieldsInclude::ExceptKey);
        let options = TableOptions::from_pairs([("value.fields-include".to_string(), "NONE".to_string())]);
        let message = value_fields_include(&options).unwrap_err().message().to_string();
        assert!(message.starts_with("Invalid value for option 'value.fields-include'."), "{message}");
        assert!(message.ends_with("Expected one of: [[ALL, EXCEPT_KEY]]"), "{message}");
    }

    #[test]
    fn format_prefixes_follow_the_format_key() {
        let options = TableOptions::from_pairs([
            ("format".to_string(), "json".to_string()),
            ("key.format".to_string(), "json".to_string()),
            ("key.json.encode.ignore-null-fields".to_string(), "TRUE".to_string()),
        ]);
        let value = discover_format(&options, "format").unwrap().unwrap();
        assert_eq!(value.prefix, "json.");
        assert!(!value.options.ignore_null_fields);
        let key = discover_format(&options, "key.format").unwrap().unwrap();
        assert_eq!(key.prefix, "key.json.");
        assert!(key.options.ignore_null_fields);
        assert!(discover_format(&options, "value.format").unwrap().is_none());
    }
}
