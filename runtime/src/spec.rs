//! The normalized sink description: which physical columns go to the Kafka key and value, under
//! which names and format options. Built from a DDL ([`SinkSpec::from_ddl`]) or from parts
//! ([`SinkSpec::from_parts`], what the JNI open call passes).
use std::collections::BTreeMap;

use crate::options::JsonOptions;
use crate::types::DataType;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Connector {
    /// `'connector' = 'kafka'`: every row is encoded; row kinds are ignored by `json`.
    Kafka,
    /// `'connector' = 'upsert-kafka'`: UPDATE_BEFORE and DELETE rows become tombstones.
    UpsertKafka,
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
    /// `computed`, `metadata` or `watermark`.
    pub kind: String,
}

/// One side (key or value) of the Kafka record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SideSpec {
    /// Indices into [`SinkSpec::columns`], in output order.
    pub projection: Vec<usize>,
    /// Output field names, parallel to `projection` (key names have the prefix removed).
    pub field_names: Vec<String>,
    /// The format name (`json`).
    pub format: String,
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

/// The sink description as separate parts, the shape the JNI open call passes.
#[derive(Debug, Clone, Default)]
pub struct SinkParts {
    pub field_names: Vec<String>,
    /// Flink type strings as `LogicalType#asSerializableString()` prints them.
    pub type_strings: Vec<String>,
    /// `None`: no key format, null keys.
    pub key_projection: Option<Vec<usize>>,
    pub value_projection: Vec<usize>,
    /// `key.fields-prefix`, stripped from key field names.
    pub key_prefix: String,
    pub upsert: bool,
    /// Format options of the key side, un-prefixed (`timestamp-format.standard`, ...); an
    /// optional `format` entry names the format (default `json`).
    pub key_options: BTreeMap<String, String>,
    /// Format options of the value side, as for `key_options`.
    pub value_options: BTreeMap<String, String>,
}

impl SinkSpec {
    /// Builds and validates the spec from a `CREATE TABLE` DDL with Flink's rules and messages.
    pub fn from_ddl(ddl: &str) -> crate::Result<SinkSpec> {
        let _ = ddl;
        todo!("spec from ddl")
    }

    /// Builds and validates the spec from parts (the JNI open call).
    pub fn from_parts(parts: &SinkParts) -> crate::Result<SinkSpec> {
        let _ = parts;
        todo!("spec from parts")
    }

    pub fn is_upsert(&self) -> bool {
        self.connector == Connector::UpsertKafka
    }
}
