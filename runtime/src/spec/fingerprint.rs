//! The fingerprint of a normalized [`SinkSpec`]'s row layout: what decides whether a generated
//! encoder fits a spec. kjson-codegen stamps it into the generated code and the registry
//! recomputes it at open, both through this one function, so the two can never disagree on what
//! "the same layout" means.
//!
//! Covered, since the generated row writers' bytes depend on them: every physical column (name,
//! Flink type with nullability), whether there is a key, and each side's projection, output names
//! and options. Not covered, since the encoder decides them at run time from the spec it is opened
//! with: the connector (upsert tombstones) and each side's format (its envelope around the row
//! object), so `json` and `debezium-json` sinks of one table share one generated encoder. Nor the
//! table name, the primary key beyond the key projection, computed/metadata columns, or the
//! [`Compatibility`](crate::Compatibility) (the Flink version and float spelling are run-time
//! parameters of generated code).
use std::fmt::Write;

use super::{SideSpec, SinkSpec};
use crate::options::JsonOptions;

/// Bumped whenever the canonical text or what generated code assumes changes meaning (2: the
/// connector and the formats left the text, as run-time choices).
const CANONICAL_VERSION: u32 = 2;

/// The row layout of `spec`, one line per fact, names and strings in Rust debug quoting so that no
/// name can forge a line.
pub fn canonical_spec(spec: &SinkSpec) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "kjson-layout {CANONICAL_VERSION}");
    for (index, column) in spec.columns.iter().enumerate() {
        let _ = writeln!(text, "column {index} {:?} {:?}", column.name, column.data_type.to_string());
    }
    match &spec.key {
        Some(key) => canonical_side(&mut text, "key", key),
        None => text.push_str("key none\n"),
    }
    canonical_side(&mut text, "value", &spec.value);
    text
}

fn canonical_side(text: &mut String, label: &str, side: &SideSpec) {
    for (column, name) in side.projection.iter().zip(&side.field_names) {
        let _ = writeln!(text, "{label} field {column} {name:?}");
    }
    let _ = writeln!(text, "{label} options {}", canonical_options(&side.options));
}

fn canonical_options(options: &JsonOptions) -> String {
    let timestamp = options.timestamp_format.option_value();
    let null_key = options.map_null_key_mode.option_value();
    format!(
        "timestamp={timestamp} map-null-key={null_key} literal={:?} decimal-plain={} ignore-null-fields={}",
        options.map_null_key_literal, options.encode_decimal_as_plain_number, options.ignore_null_fields
    )
}

/// What identifies a generated decoder: the row layout plus what the read side takes from the
/// spec itself rather than from run time: the connector (tombstones as deletes) and each side's
/// format (a `json` row reader must never read a changelog envelope).
pub fn canonical_scan_spec(spec: &SinkSpec) -> String {
    let mut text = canonical_spec(spec);
    let _ = writeln!(text, "connector {}", spec.connector.identifier());
    if let Some(key) = &spec.key {
        let _ = writeln!(text, "key format {:?}", key.format.name());
    }
    let _ = writeln!(text, "value format {:?}", spec.value.format.name());
    text
}

/// [`spec_fingerprint`]'s counterpart for [`canonical_scan_spec`].
pub fn scan_fingerprint(spec: &SinkSpec) -> u64 {
    fnv1a_64(canonical_scan_spec(spec).as_bytes())
}

/// FNV-1a, 64 bits, of the canonical text: stable across builds, platforms and Rust versions
/// (unlike `std`'s hashers), which a fingerprint baked into generated source needs.
pub fn spec_fingerprint(spec: &SinkSpec) -> u64 {
    fnv1a_64(canonical_spec(spec).as_bytes())
}

pub fn fnv1a_64(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET_BASIS, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{MapNullKeyMode, TimestampFormat};

    const DDL: &str = "CREATE TABLE t (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (\
        'connector' = 'upsert-kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'x:1', \
        'key.format' = 'json', 'value.format' = 'json')";

    #[test]
    fn fnv1a_known_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a_64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a_64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a_64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn canonical_text_lists_columns_sides_and_options() {
        let spec = SinkSpec::from_ddl(DDL).unwrap();
        let expected = "kjson-layout 2\n\
            column 0 \"id\" \"BIGINT NOT NULL\"\ncolumn 1 \"name\" \"STRING\"\n\
            key field 0 \"id\"\n\
            key options timestamp=SQL map-null-key=FAIL literal=\"null\" decimal-plain=false ignore-null-fields=false\n\
            value field 0 \"id\"\nvalue field 1 \"name\"\n\
            value options timestamp=SQL map-null-key=FAIL literal=\"null\" decimal-plain=false ignore-null-fields=false\n";
        assert_eq!(canonical_spec(&spec), expected);
    }

    #[test]
    fn layout_changes_move_the_fingerprint_run_time_choices_do_not() {
        let base = SinkSpec::from_ddl(DDL).unwrap();
        let fingerprint = spec_fingerprint(&base);
        type Change = Box<dyn Fn(&mut SinkSpec)>;
        // The row writers write the same bytes; the encoder opened with the spec decides the rest.
        let run_time: Vec<Change> = vec![
            Box::new(|s| s.table_name = "other".into()),
            Box::new(|s| s.connector = crate::Connector::Kafka),
            Box::new(|s| s.value.format = super::super::Format::DebeziumJson),
        ];
        for (index, change) in run_time.iter().enumerate() {
            let mut spec = base.clone();
            change(&mut spec);
            assert_eq!(spec_fingerprint(&spec), fingerprint, "run-time change {index}");
        }
        let changes: Vec<Change> = vec![
            Box::new(|s| s.columns[1].name = "Name".into()),
            Box::new(|s| s.columns[1].data_type.nullable = false),
            Box::new(|s| s.value.field_names[1] = "n".into()),
            Box::new(|s| s.value.projection = vec![1, 0]),
            Box::new(|s| s.value.options.ignore_null_fields = true),
            Box::new(|s| s.value.options.timestamp_format = TimestampFormat::Iso8601),
            Box::new(|s| s.value.options.encode_decimal_as_plain_number = true),
            Box::new(|s| s.value.options.map_null_key_mode = MapNullKeyMode::Drop),
            Box::new(|s| s.value.options.map_null_key_literal = "nil".into()),
            Box::new(|s| s.key = None),
            Box::new(|s| s.key.as_mut().unwrap().options.ignore_null_fields = true),
        ];
        for (index, change) in changes.iter().enumerate() {
            let mut spec = base.clone();
            change(&mut spec);
            assert_ne!(spec_fingerprint(&spec), fingerprint, "change {index}");
        }
    }
}
