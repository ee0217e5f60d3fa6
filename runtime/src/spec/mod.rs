//! The normalized sink description: which physical columns go to the Kafka key and value, under
//! which names, formats and format options. This file owns the types; `build` makes them from a
//! DDL ([`SinkSpec::from_ddl`]) or from parts ([`SinkSpec::from_parts`], what the JNI and C open
//! calls pass) with Flink's rules (`table_options`, `format`, `writable`); `envelope` and
//! `fingerprint` read them.
use std::collections::BTreeMap;
use std::fmt::Write;

use crate::options::JsonOptions;
use crate::types::{DataType, RowField};

mod build;
mod connector;
mod envelope;
mod fingerprint;
mod format;
mod table_options;
mod writable;

pub use envelope::{Envelope, Wrap};
pub use fingerprint::{canonical_scan_spec, canonical_spec, scan_fingerprint, spec_fingerprint};
pub use format::Format;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Connector {
    /// `'connector' = 'kafka'` (or kjson's `kjson-kafka`): every row is encoded; row kinds are
    /// ignored by `json`.
    Kafka,
    /// `'connector' = 'upsert-kafka'` (or `kjson-upsert-kafka`): UPDATE_BEFORE and DELETE rows
    /// become tombstones.
    UpsertKafka,
}

impl Connector {
    /// Flink's factory identifier of the stock connector whose records kjson writes.
    pub fn identifier(self) -> &'static str {
        match self {
            Connector::Kafka => "kafka",
            Connector::UpsertKafka => "upsert-kafka",
        }
    }
}

/// A physical column of the sink table.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Column {
    pub name: String,
    pub data_type: DataType,
}

/// A DDL column that is not physical (computed or metadata), kept only for `inspect`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IgnoredColumn {
    pub name: String,
    pub kind: IgnoredKind,
}

/// Why a DDL column writes no byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IgnoredKind {
    /// `name AS expression`.
    Computed,
    /// `name type METADATA [FROM ...]`.
    Metadata,
    /// The column of a `WATERMARK FOR` clause (also listed as a physical column if it is one).
    Watermark,
}

/// One side (key or value) of the Kafka record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SideSpec {
    /// Indices into [`SinkSpec::columns`], in output order.
    pub projection: Vec<usize>,
    /// Output field names, parallel to `projection` (key names have the prefix removed).
    pub field_names: Vec<String>,
    pub format: Format,
    pub options: JsonOptions,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SinkSpec {
    pub table_name: String,
    pub connector: Connector,
    /// Physical columns in schema order: the Arrow batch carries exactly these, in this order.
    pub columns: Vec<Column>,
    pub ignored_columns: Vec<IgnoredColumn>,
    pub primary_key: Vec<String>,
    /// `None`: the Kafka key is null (no `key.format`).
    pub key: Option<SideSpec>,
    pub value: SideSpec,
}

/// A sink table as an engine's catalog resolved it, the shape the JNI and C open calls pass: the
/// physical columns, the primary key and the `WITH` options exactly as written. The key and value
/// projections and every option rule are applied by [`SinkSpec::from_parts`], as for a DDL.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SinkParts {
    /// The table's name in messages (Flink's `ObjectIdentifier#asSummaryString()`); may be empty.
    pub table_name: String,
    pub field_names: Vec<String>,
    /// Flink type strings as `LogicalType#asSerializableString()` prints them.
    pub type_strings: Vec<String>,
    /// Column names of the `PRIMARY KEY`, in its order; empty without one.
    pub primary_key: Vec<String>,
    /// The table options (`connector`, `key.format`, `key.fields`, `value.json.*`, ...).
    pub options: BTreeMap<String, String>,
}

impl SinkParts {
    /// Parts from physical columns as `(name, Flink type string)` pairs and the table options.
    pub fn new<'a>(
        columns: impl IntoIterator<Item = (&'a str, &'a str)>,
        options: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> SinkParts {
        let (field_names, type_strings) =
            columns.into_iter().map(|(name, text)| (name.to_string(), text.to_string())).unzip();
        let options = options.into_iter().map(|(key, value)| (key.to_string(), value.to_string())).collect();
        SinkParts { field_names, type_strings, options, ..SinkParts::default() }
    }

    /// The same parts with a primary key over the given columns.
    pub fn with_primary_key<'a>(mut self, columns: impl IntoIterator<Item = &'a str>) -> SinkParts {
        self.primary_key = columns.into_iter().map(str::to_string).collect();
        self
    }
}

impl SinkSpec {
    pub fn is_upsert(&self) -> bool {
        self.connector == Connector::UpsertKafka
    }

    /// The fields of one of this spec's sides, as the row its messages hold: each projected
    /// column's type under the side's field name.
    pub fn side_fields(&self, side: &SideSpec) -> Vec<RowField> {
        let fields = side.projection.iter().zip(&side.field_names);
        fields
            .map(|(&at, name)| RowField {
                name: name.clone(),
                data_type: self.columns[at].data_type.clone(),
                description: None,
            })
            .collect()
    }

    /// A readable multi-line summary for `kjson inspect`.
    pub fn describe(&self) -> String {
        self.describe_as(self.connector.identifier())
    }

    /// As [`SinkSpec::describe`], naming the connector as the table wrote it (`kjson-kafka` is
    /// a stand-in for `kafka`: the same records).
    pub fn describe_as(&self, written_connector: &str) -> String {
        let mut out = String::new();
        let name = if self.table_name.is_empty() { "(from parts)" } else { &self.table_name };
        let stock = self.connector.identifier();
        let _ = writeln!(out, "table: {name}");
        let upsert = self.is_upsert();
        let _ = match written_connector == stock {
            true => writeln!(out, "connector: {stock} (upsert: {upsert})"),
            false => writeln!(out, "connector: {written_connector} (the records of {stock}, upsert: {upsert})"),
        };
        let _ = writeln!(out, "columns:");
        for (index, column) in self.columns.iter().enumerate() {
            let _ = writeln!(out, "  {index}: {} {}", column.name, column.data_type);
        }
        if !self.primary_key.is_empty() {
            let _ = writeln!(out, "primary key: {}", self.primary_key.join(", "));
        }
        match &self.key {
            Some(key) => self.describe_side(&mut out, "key", key),
            None => {
                let _ = writeln!(out, "key: none (the Kafka key is null)");
            }
        }
        self.describe_side(&mut out, "value", &self.value);
        if !self.ignored_columns.is_empty() {
            let _ = writeln!(out, "not written to Kafka:");
            for column in &self.ignored_columns {
                match column.kind {
                    IgnoredKind::Watermark => writeln!(out, "  watermark for {}", column.name),
                    IgnoredKind::Computed => writeln!(out, "  {} (computed column)", column.name),
                    IgnoredKind::Metadata => writeln!(out, "  {} (metadata column)", column.name),
                }
                .ok();
            }
        }
        out
    }

    fn describe_side(&self, out: &mut String, label: &str, side: &SideSpec) {
        let _ = writeln!(out, "{label}: format {}, fields:", side.format);
        if side.projection.is_empty() {
            let _ = writeln!(out, "  (none: the record is {{}})");
        }
        for (&index, name) in side.projection.iter().zip(&side.field_names) {
            let _ = match self.columns.get(index) {
                Some(column) => writeln!(out, "  \"{name}\" <- column {index} {} {}", column.name, column.data_type),
                None => writeln!(out, "  \"{name}\" <- column {index} (missing)"),
            };
        }
        let options = &side.options;
        let timestamp = options.timestamp_format.option_value();
        let null_key = options.map_null_key_mode.option_value();
        let _ = writeln!(
            out,
            "  options: timestamp-format.standard={timestamp}, map-null-key.mode={null_key}, \
             map-null-key.literal={}, encode.decimal-as-plain-number={}, encode.ignore-null-fields={}",
            options.map_null_key_literal, options.encode_decimal_as_plain_number, options.ignore_null_fields
        );
    }
}

#[cfg(test)]
mod tests;
