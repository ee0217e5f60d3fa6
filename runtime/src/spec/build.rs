//! Builds a [`SinkSpec`] with the Kafka connectors' rules, in the order Flink applies them:
//! schema (duplicate columns, watermark, primary key), connector, key and value formats,
//! option reads and left-over options, primary key rules, key and value projections, and last
//! the JSON encoder's type checks (which Flink runs when it creates the encoders).
use super::connector::discover_connector;
use super::table_options::{
    check_unsupported_options, connector_option_keys, discover_format, key_fields, value_fields_include,
    ResolvedFormat, TableOptions, ValueFieldsInclude,
};
use super::writable::check_writable;
use super::{Column, Connector, IgnoredColumn, IgnoredKind, SideSpec, SinkParts, SinkSpec};
use crate::error::{KjsonError, Position, Result};
use crate::sql::{parse_create_table, parse_type, ColumnKind, CreateTable, PrimaryKey};

const REQUIRES_KEY_FIELDS: &str =
    "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'.";

const UPSERT_REQUIRES_PRIMARY_KEY: &str = "'upsert-kafka' tables require to define a PRIMARY KEY constraint. \
    The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key. The PRIMARY \
    KEY also defines records in the 'upsert-kafka' table should update or delete on which keys.";

const PREFIX_WITH_ALL: &str = "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. \
    Set it to 'EXCEPT_KEY' instead to avoid field overlaps.";

/// The physical columns, with the DDL positions errors about them point at.
struct Schema {
    columns: Vec<Column>,
    positions: Vec<Option<Position>>,
    ignored: Vec<IgnoredColumn>,
    primary_key: Vec<String>,
    primary_key_position: Option<Position>,
}

/// The formats of the two sides; the key is absent without `key.format`.
struct Formats {
    key: Option<ResolvedFormat>,
    value: ResolvedFormat,
}

/// Physical column indices of the key and the value in output order, and the key name prefix.
struct Layout {
    key: Option<Vec<usize>>,
    value: Vec<usize>,
    prefix: String,
}

fn pinned(error: KjsonError, position: Option<Position>) -> KjsonError {
    match position {
        Some(position) => error.at(position),
        None => error,
    }
}

impl SinkSpec {
    /// Builds and validates the spec from a `CREATE TABLE` DDL with Flink's rules and messages.
    /// Errors carry the line and column of the offending token, option key or column.
    pub fn from_ddl(ddl: &str) -> Result<SinkSpec> {
        spec_from_table(&parse_create_table(ddl)?)
    }

    /// Builds and validates the spec from parts (the JNI open call).
    pub fn from_parts(parts: &SinkParts) -> Result<SinkSpec> {
        spec_from_parts(parts, false)
    }

    /// As [`SinkSpec::from_ddl`], for a table that is read: the scan side's rules (for example
    /// debezium-json's `schema-include` is allowed).
    pub fn from_source_ddl(ddl: &str) -> Result<SinkSpec> {
        let table = parse_create_table(ddl)?;
        let schema = resolve_schema(&table)?;
        let mut options = TableOptions::from_ddl(&table);
        options.read = true;
        spec_from_schema(table.name.join("."), &object_identifier(&table.name), schema, &options)
    }

    /// As [`SinkSpec::from_parts`], for a table that is read.
    pub fn from_source_parts(parts: &SinkParts) -> Result<SinkSpec> {
        spec_from_parts(parts, true)
    }
}

/// Builds the spec of a parsed `CREATE TABLE`.
fn spec_from_table(table: &CreateTable) -> Result<SinkSpec> {
    let schema = resolve_schema(table)?;
    let options = TableOptions::from_ddl(table);
    spec_from_schema(table.name.join("."), &object_identifier(&table.name), schema, &options)
}

/// Builds the spec of parts: the columns, the primary key and the options as written.
fn spec_from_parts(parts: &SinkParts, read: bool) -> Result<SinkSpec> {
    let schema = parts_schema(parts)?;
    let mut options = TableOptions::from_pairs(parts.options.iter().map(|(key, value)| (key.clone(), value.clone())));
    options.read = read;
    spec_from_schema(parts.table_name.clone(), &parts.table_name, schema, &options)
}

/// The connector's and formats' rules on a resolved schema: one path for DDL and parts.
fn spec_from_schema(name: String, identifier: &str, schema: Schema, options: &TableOptions) -> Result<SinkSpec> {
    let factory = discover_connector(options)?;
    let connector = factory.connector;
    let formats = discover_formats(options, connector)?;
    let include = value_fields_include(options)?;
    let fields = if connector == Connector::Kafka { key_fields(options)? } else { None };
    let used: Vec<&ResolvedFormat> = formats.key.iter().chain([&formats.value]).collect();
    let mut base_keys = connector_option_keys(connector);
    base_keys.extend(factory.own_option_keys());
    check_unsupported_options(options, factory.identifier(), &base_keys, &used)?;
    factory.check_own_options(options)?;
    let layout = match connector {
        Connector::Kafka => kafka_layout(&schema, options, identifier, &formats, fields, include)?,
        Connector::UpsertKafka => upsert_layout(&schema, options, &formats, include)?,
    };
    let key_fields_key = if connector == Connector::Kafka { "key.fields" } else { "key.fields-prefix" };
    let duplicate_key_error = |message: String| options.error_at(key_fields_key, message);
    assemble(name, connector, schema, layout, formats, duplicate_key_error)
}

/// Columns, watermark and primary key, with the checks of Flink's schema resolver.
fn resolve_schema(table: &CreateTable) -> Result<Schema> {
    check_duplicate_columns(table.columns.iter().map(|c| (c.name.as_str(), Some(c.position))))?;
    check_watermarks(table)?;
    let mut schema = Schema {
        columns: Vec::new(),
        positions: Vec::new(),
        ignored: Vec::new(),
        primary_key: Vec::new(),
        primary_key_position: None,
    };
    for column in &table.columns {
        let kind = match &column.kind {
            ColumnKind::Physical(data_type) => {
                schema.columns.push(Column { name: column.name.clone(), data_type: data_type.clone() });
                schema.positions.push(Some(column.position));
                continue;
            }
            ColumnKind::Computed => IgnoredKind::Computed,
            ColumnKind::Metadata { .. } => IgnoredKind::Metadata,
        };
        schema.ignored.push(IgnoredColumn { name: column.name.clone(), kind });
    }
    for watermark in &table.watermarks {
        schema.ignored.push(IgnoredColumn { name: watermark.column.clone(), kind: IgnoredKind::Watermark });
    }
    if let Some(key) = &table.primary_key {
        check_primary_key(table, key)?;
        schema.primary_key = key.columns.iter().map(|(name, _)| name.clone()).collect();
        schema.primary_key_position = Some(key.position);
    }
    Ok(schema)
}

fn check_duplicate_columns<'a>(columns: impl Iterator<Item = (&'a str, Option<Position>)>) -> Result<()> {
    let columns: Vec<(&str, Option<Position>)> = columns.collect();
    let mut duplicates: Vec<&str> = Vec::new();
    let mut first_repeat = None;
    for (index, (name, position)) in columns.iter().enumerate() {
        if columns[..index].iter().any(|(earlier, _)| earlier == name) {
            first_repeat = first_repeat.or(Some(*position));
            if !duplicates.contains(name) {
                duplicates.push(name);
            }
        }
    }
    let Some(position) = first_repeat else {
        return Ok(());
    };
    let message =
        format!("Schema must not contain duplicate column names. Found duplicates: [{}]", duplicates.join(", "));
    Err(pinned(KjsonError::parse(message, None), position))
}

fn check_watermarks(table: &CreateTable) -> Result<()> {
    if let Some(second) = table.watermarks.get(1) {
        let message = "Multiple watermark definitions are not supported yet.";
        return Err(KjsonError::parse(message, Some(second.position)));
    }
    for watermark in &table.watermarks {
        if !table.columns.iter().any(|column| column.name == watermark.column) {
            let names: Vec<&str> = table.columns.iter().map(|column| column.name.as_str()).collect();
            let message = format!(
                "Invalid column name '{}' for rowtime attribute in watermark declaration. Available columns are: [{}]",
                watermark.column,
                names.join(", ")
            );
            return Err(KjsonError::parse(message, Some(watermark.position)));
        }
    }
    Ok(())
}

fn check_primary_key(table: &CreateTable, key: &PrimaryKey) -> Result<()> {
    let name = key.name();
    for (index, (column, position)) in key.columns.iter().enumerate() {
        if key.columns[..index].iter().any(|(earlier, _)| earlier == column) {
            let message = format!(
                "Invalid primary key '{name}'. A primary key must not contain duplicate columns. Found: [{column}]"
            );
            return Err(KjsonError::parse(message, Some(*position)));
        }
    }
    for (column, position) in &key.columns {
        let problem = match table.columns.iter().find(|c| c.name == *column).map(|c| &c.kind) {
            None => "does not exist",
            Some(ColumnKind::Physical(_)) => continue,
            Some(_) => "is not a physical column",
        };
        let message = format!("Invalid primary key '{name}'. Column '{column}' {problem}.");
        return Err(KjsonError::parse(message, Some(*position)));
    }
    Ok(())
}

/// Key and value formats as the two factories discover them.
fn discover_formats(options: &TableOptions, connector: Connector) -> Result<Formats> {
    let key = discover_format(options, "key.format")?;
    if connector == Connector::UpsertKafka {
        let key = key.ok_or_else(|| options.error_missing("Could not find required sink format 'key.format'."))?;
        let value = discover_format(options, "value.format")?
            .ok_or_else(|| options.error_missing("Could not find required sink format 'value.format'."))?;
        return Ok(Formats { key: Some(key), value });
    }
    check_kafka_key_format(options, key.as_ref())?;
    let value = match discover_format(options, "format")? {
        Some(value) => value,
        None => discover_format(options, "value.format")?
            .ok_or_else(|| options.error_missing("Could not find required sink format 'value.format'."))?,
    };
    Ok(Formats { key, value })
}

/// `'kafka'` keys: the format must be insert-only (a CDC envelope would be wrong in a key).
fn check_kafka_key_format(options: &TableOptions, key: Option<&ResolvedFormat>) -> Result<()> {
    match key.filter(|key| !key.format.is_insert_only()) {
        Some(key) => {
            let message = format!(
                "A key format should only deal with INSERT-only records. But {} has a changelog mode of {}.",
                key.format.name(),
                key.format.changelog_mode()
            );
            Err(options.error_at("key.format", message))
        }
        None => Ok(()),
    }
}

/// `'kafka'`: primary key rule, then `key.fields` and `value.fields-include` projections.
fn kafka_layout(
    schema: &Schema,
    options: &TableOptions,
    table_identifier: &str,
    formats: &Formats,
    fields: Option<Vec<String>>,
    include: ValueFieldsInclude,
) -> Result<Layout> {
    if !schema.primary_key.is_empty() && formats.value.format.is_insert_only() {
        let format_name = options.get("format").or_else(|| options.get("value.format")).unwrap_or_default();
        let message = format!(
            "The Kafka table '{}' with '{format_name}' format doesn't support defining PRIMARY KEY constraint on the \
             table, because it can't guarantee the semantic of primary key.",
            table_identifier
        );
        return Err(pinned(KjsonError::option(message), schema.primary_key_position));
    }
    let prefix = options.get("key.fields-prefix").unwrap_or_default().to_string();
    let key = match (&formats.key, fields) {
        (None, None) => None,
        (None, Some(_)) => {
            let message = "The option 'key.fields' can only be declared if a key format is defined using 'key.format'.";
            return Err(options.error_at("key.fields", message));
        }
        (Some(_), None) => return Err(options.error_at("key.format", REQUIRES_KEY_FIELDS)),
        (Some(_), Some(fields)) if fields.is_empty() => return Err(options.error_at("key.format", REQUIRES_KEY_FIELDS)),
        (Some(_), Some(fields)) => {
            Some(key_projection(schema, &fields, &prefix).map_err(|message| options.error_at("key.fields", message))?)
        }
    };
    let value = value_projection(schema, key.as_deref(), &prefix, include)
        .map_err(|message| options.error_at("key.fields-prefix", message))?;
    Ok(Layout { key, value, prefix })
}

/// `'upsert-kafka'`: insert-only formats, a primary key, and the key from its columns.
fn upsert_layout(
    schema: &Schema,
    options: &TableOptions,
    formats: &Formats,
    include: ValueFieldsInclude,
) -> Result<Layout> {
    check_upsert_formats(options, formats)?;
    if schema.primary_key.is_empty() {
        return Err(options.error_at("connector", UPSERT_REQUIRES_PRIMARY_KEY));
    }
    let prefix = options.get("key.fields-prefix").unwrap_or_default().to_string();
    let at_prefix = |message: String| options.error_at("key.fields-prefix", message);
    let key = key_projection(schema, &schema.primary_key, &prefix).map_err(at_prefix)?;
    let value = value_projection(schema, Some(&key), &prefix, include).map_err(at_prefix)?;
    Ok(Layout { key: Some(key), value, prefix })
}

fn check_upsert_formats(options: &TableOptions, formats: &Formats) -> Result<()> {
    let sides = formats.key.iter().map(|format| (format, "key")).chain([(&formats.value, "value")]);
    for (format, side) in sides {
        if !format.format.is_insert_only() {
            let name = format.format.name();
            let message = format!(
                "'upsert-kafka' connector doesn't support '{name}' as {side} format, because '{name}' is not in \
                 insert-only mode."
            );
            return Err(options.error_at(format.format_key, message));
        }
    }
    Ok(())
}

/// Flink's `createKeyFormatProjection` for the given key fields.
fn key_projection(schema: &Schema, fields: &[String], prefix: &str) -> std::result::Result<Vec<usize>, String> {
    let mut projection = Vec::with_capacity(fields.len());
    for field in fields {
        let Some(index) = schema.columns.iter().position(|column| column.name == *field) else {
            let names: Vec<&str> = schema.columns.iter().map(|column| column.name.as_str()).collect();
            return Err(format!(
                "Could not find the field '{field}' in the table schema for usage in the key format. A key field \
                 must be a regular, physical column. The following columns can be selected in the 'key.fields' \
                 option:\n[{}]",
                names.join(", ")
            ));
        };
        if !field.starts_with(prefix) {
            return Err(format!(
                "All fields in 'key.fields' must be prefixed with '{prefix}' when option 'key.fields-prefix' is set \
                 but field '{field}' is not prefixed."
            ));
        }
        projection.push(index);
    }
    Ok(projection)
}

/// Flink's `createValueFormatProjection`.
fn value_projection(
    schema: &Schema,
    key: Option<&[usize]>,
    prefix: &str,
    include: ValueFieldsInclude,
) -> std::result::Result<Vec<usize>, String> {
    let all = 0..schema.columns.len();
    match include {
        ValueFieldsInclude::All if !prefix.is_empty() => Err(PREFIX_WITH_ALL.to_string()),
        ValueFieldsInclude::All => Ok(all.collect()),
        ValueFieldsInclude::ExceptKey => {
            let key = key.unwrap_or_default();
            Ok(all.filter(|index| !key.contains(index)).collect())
        }
    }
}

/// Flink's `ObjectIdentifier#asSummaryString()` with the default catalog and database.
fn object_identifier(name: &[String]) -> String {
    let defaults = ["default_catalog", "default_database"];
    let missing = 3usize.saturating_sub(name.len());
    let parts: Vec<&str> = defaults[..missing].iter().copied().chain(name.iter().map(String::as_str)).collect();
    parts.join(".")
}

/// Columns of parts: names with parsed type strings, and the primary key over them.
fn parts_schema(parts: &SinkParts) -> Result<Schema> {
    if parts.field_names.len() != parts.type_strings.len() {
        let message = format!(
            "The sink has {} field names but {} type strings",
            parts.field_names.len(),
            parts.type_strings.len()
        );
        return Err(KjsonError::option(message));
    }
    check_duplicate_columns(parts.field_names.iter().map(|name| (name.as_str(), None)))?;
    let mut columns = Vec::with_capacity(parts.field_names.len());
    for (name, text) in parts.field_names.iter().zip(&parts.type_strings) {
        let data_type = parse_type(text).map_err(|error| KjsonError::Parse {
            message: format!("Column '{name}' has an invalid type '{text}': {}", error.message()),
            position: error.position(),
        })?;
        columns.push(Column { name: name.clone(), data_type });
    }
    check_parts_primary_key(&columns, &parts.primary_key)?;
    let positions = vec![None; columns.len()];
    let primary_key = parts.primary_key.clone();
    Ok(Schema { columns, positions, ignored: Vec::new(), primary_key, primary_key_position: None })
}

/// The schema resolver's primary key checks, for a key given by column names.
fn check_parts_primary_key(columns: &[Column], key: &[String]) -> Result<()> {
    let name = format!("PK_{}", key.join("_"));
    for (index, column) in key.iter().enumerate() {
        let problem = if key[..index].contains(column) {
            format!("A primary key must not contain duplicate columns. Found: [{column}]")
        } else if !columns.iter().any(|c| c.name == *column) {
            format!("Column '{column}' does not exist.")
        } else {
            continue;
        };
        return Err(KjsonError::option(format!("Invalid primary key '{name}'. {problem}")));
    }
    Ok(())
}

/// Builds the sides, checks their field names and types, and returns the spec.
fn assemble(
    table_name: String,
    connector: Connector,
    schema: Schema,
    layout: Layout,
    formats: Formats,
    duplicate_key_error: impl Fn(String) -> KjsonError,
) -> Result<SinkSpec> {
    let key = match (layout.key, formats.key) {
        (Some(projection), Some(format)) => Some(side_spec(&schema, projection, &layout.prefix, format)),
        _ => None,
    };
    let value = side_spec(&schema, layout.value, "", formats.value);
    if let Some(key) = &key {
        check_unique_names(key).map_err(&duplicate_key_error)?;
    }
    check_unique_names(&value).map_err(KjsonError::option)?;
    for side in key.iter().chain([&value]) {
        check_side_types(&schema, side)?;
    }
    Ok(SinkSpec {
        table_name,
        connector,
        columns: schema.columns,
        ignored_columns: schema.ignored,
        primary_key: schema.primary_key,
        key,
        value,
    })
}

fn side_spec(schema: &Schema, projection: Vec<usize>, prefix: &str, format: ResolvedFormat) -> SideSpec {
    let field_names = projection
        .iter()
        .map(|&index| {
            let name = &schema.columns[index].name;
            name.strip_prefix(prefix).unwrap_or(name).to_string()
        })
        .collect();
    SideSpec { projection, field_names, format: format.format, options: format.options }
}

/// Flink's RowType check on the projected row.
fn check_unique_names(side: &SideSpec) -> std::result::Result<(), String> {
    for (index, name) in side.field_names.iter().enumerate() {
        if side.field_names[..index].contains(name) {
            return Err(format!("Field names must be unique. Found duplicates: [{name}]"));
        }
    }
    Ok(())
}

fn check_side_types(schema: &Schema, side: &SideSpec) -> Result<()> {
    for &index in &side.projection {
        let column = &schema.columns[index];
        if let Err(message) = check_writable(&column.data_type) {
            let error = KjsonError::type_error(format!("Column '{}': {message}", column.name));
            return Err(pinned(error, schema.positions[index]));
        }
    }
    Ok(())
}
