//! [`Decoder`]: reads each record's key and value with their formats and assembles the table's
//! physical rows as Flink's Kafka source does (key fields first, then the value's fields over
//! them; in upsert mode a null value is a DELETE of its key).
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{Schema, SchemaRef};

use super::arrow_out::{arrow_field, build};
use super::convert;
use super::lexer::{Lexer, Token};
use super::value::Value;
use super::{DecodeSettings, DecodedBatch, OnError, RecordSide};
use crate::error::{KjsonError, Result};
use crate::options::Compatibility;
use crate::spec::{Format, SideSpec, SinkSpec};
use crate::types::{DataType, LogicalType, RowField};

const INSERT: i8 = 0;
const DELETE: i8 = 3;

/// One side's row type (the format's field names) and where its fields go in the table's row.
struct SideReader {
    fields: Vec<RowField>,
    projection: Vec<usize>,
    settings: DecodeSettings,
}

/// Decodes batches of Kafka records of one table; opened once per task, like the encoder.
pub struct Decoder {
    spec: SinkSpec,
    schema: SchemaRef,
    key: Option<SideReader>,
    value: SideReader,
    on_error: OnError,
}

/// One output row before it joins the batch.
struct Row {
    kind: i8,
    values: Vec<Value>,
}

impl Decoder {
    /// Opens a decoder for the table of `spec` (the same `CREATE TABLE` as for encoding).
    pub fn open(spec: SinkSpec, compatibility: Compatibility) -> Result<Decoder> {
        let fields = spec.columns.iter().map(|c| arrow_field(&c.name, &c.data_type)).collect::<Result<Vec<_>>>()?;
        let key = spec.key.as_ref().map(|side| side_reader(&spec, side, compatibility)).transpose()?;
        let value = side_reader(&spec, &spec.value, compatibility)?;
        let schema = Arc::new(Schema::new(fields));
        Ok(Decoder { spec, schema, key, value, on_error: OnError::Fail })
    }

    /// The Arrow schema of the decoded batches: the physical columns.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    pub fn spec(&self) -> &SinkSpec {
        &self.spec
    }

    pub fn set_on_error(&mut self, on_error: OnError) {
        self.on_error = on_error;
    }

    /// Decodes one fetch: `values` always, `keys` when the table reads key fields (ignored
    /// otherwise). Record `i` of both sides is one Kafka record.
    pub fn decode(&mut self, keys: Option<RecordSide>, values: RecordSide) -> Result<DecodedBatch> {
        if let (Some(keys), true) = (&keys, self.key.is_some()) {
            if keys.len() != values.len() {
                return Err(KjsonError::schema(format!(
                    "{} keys for {} values: both sides need one entry per record",
                    keys.len(),
                    values.len()
                )));
            }
        }
        let mut rows = Vec::new();
        let mut records = Vec::new();
        let mut errors = Vec::new();
        for index in 0..values.len() {
            let key = match (&keys, &self.key) {
                (Some(keys), Some(_)) => keys.record(index)?,
                _ => None,
            };
            match self.record_rows(key, values.record(index)?) {
                Ok(found) => {
                    records.extend(std::iter::repeat_n(index as u32, found.len()));
                    rows.extend(found);
                }
                Err(message) => {
                    let error = KjsonError::Record { record: index, message };
                    match self.on_error {
                        OnError::Fail => return Err(error),
                        OnError::Collect => errors.push(error),
                    }
                }
            }
        }
        let row_kinds = rows.iter().map(|r| r.kind).collect();
        let batch = self.batch(&rows)?;
        Ok(DecodedBatch { batch, row_kinds, records, errors })
    }

    fn record_rows(&self, key: Option<&[u8]>, value: Option<&[u8]>) -> std::result::Result<Vec<Row>, String> {
        let key_rows = match &self.key {
            Some(reader) => read_message(reader, key)?,
            None => Vec::new(),
        };
        if value.is_none() && self.spec.is_upsert() {
            return Ok(self.joined(&key_rows, None, DELETE));
        }
        let mut rows = Vec::new();
        for value_row in read_message(&self.value, value)? {
            rows.extend(self.joined(&key_rows, Some(value_row), INSERT));
        }
        Ok(rows)
    }

    /// The table rows of one value row with every key row (or none).
    fn joined(&self, key_rows: &[Vec<Value>], value_row: Option<Vec<Value>>, kind: i8) -> Vec<Row> {
        let arity = self.spec.columns.len();
        let make = |key_row: Option<&Vec<Value>>| {
            let mut values = vec![Value::Null; arity];
            if let (Some(reader), Some(key_row)) = (&self.key, key_row) {
                for (&at, v) in reader.projection.iter().zip(key_row) {
                    values[at] = v.clone();
                }
            }
            if let Some(value_row) = &value_row {
                for (&at, v) in self.value.projection.iter().zip(value_row) {
                    values[at] = v.clone();
                }
            }
            Row { kind, values }
        };
        match key_rows.is_empty() {
            true => vec![make(None)],
            false => key_rows.iter().map(|k| make(Some(k))).collect(),
        }
    }

    fn batch(&self, rows: &[Row]) -> Result<RecordBatch> {
        let columns = self
            .spec
            .columns
            .iter()
            .zip(self.schema.fields())
            .enumerate()
            .map(|(i, (column, field))| {
                let values: Vec<&Value> = rows.iter().map(|r| &r.values[i]).collect();
                build(&column.data_type.logical, field.data_type(), &values)
            })
            .collect();
        let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(rows.len()));
        RecordBatch::try_new_with_options(self.schema.clone(), columns, &options)
            .map_err(|e| KjsonError::schema(format!("internal: decoded arrays do not form a batch: {e}")))
    }
}

fn side_reader(spec: &SinkSpec, side: &SideSpec, compatibility: Compatibility) -> Result<SideReader> {
    if side.format != Format::Json {
        return Err(KjsonError::option(format!(
            "the read side decodes the 'json' format only so far, not '{}'",
            side.format.name()
        )));
    }
    let options = &side.options;
    if options.fail_on_missing_field && options.ignore_parse_errors {
        return Err(KjsonError::option("fail-on-missing-field and ignore-parse-errors shouldn't both be true."));
    }
    if !options.json_parser {
        return Err(KjsonError::option(
            "'decode.json-parser.enabled' = 'false' (Flink's tree decoder) is not read by kjson yet",
        ));
    }
    let fields: Vec<RowField> = side
        .projection
        .iter()
        .zip(&side.field_names)
        .map(|(&at, name)| RowField {
            name: name.clone(),
            data_type: spec.columns[at].data_type.clone(),
            description: None,
        })
        .collect();
    let has_decimal = fields.iter().any(|f| has_decimal(&f.data_type.logical));
    let settings = DecodeSettings::new(options, compatibility, has_decimal);
    Ok(SideReader { fields, projection: side.projection.clone(), settings })
}

fn has_decimal(ty: &LogicalType) -> bool {
    match ty {
        LogicalType::Decimal { .. } => true,
        LogicalType::Array(inner) | LogicalType::Multiset(inner) => has_decimal(&inner.logical),
        LogicalType::Map { key, value } => has_decimal(&key.logical) || has_decimal(&value.logical),
        LogicalType::Row(fields) => fields.iter().any(|f| has_decimal(&f.data_type.logical)),
        _ => false,
    }
}

/// The rows one message gives on one side: none for a null or empty message (and, under
/// `ignore-parse-errors`, for one that fails), one per object, one per element of a top-level
/// array (Flink 2.x).
fn read_message(reader: &SideReader, message: Option<&[u8]>) -> std::result::Result<Vec<Vec<Value>>, String> {
    let Some(message) = message.filter(|m| !m.is_empty()) else {
        return Ok(Vec::new());
    };
    let mut rows = Vec::new();
    match read_rows(reader, message, &mut rows) {
        Ok(()) => Ok(rows),
        Err(_) if reader.settings.ignore_parse_errors => Ok(rows),
        Err(cause) => Err(format!("Failed to deserialize JSON '{}'. {cause}", String::from_utf8_lossy(message))),
    }
}

fn read_rows(reader: &SideReader, message: &[u8], rows: &mut Vec<Vec<Value>>) -> std::result::Result<(), String> {
    let settings = &reader.settings;
    let mut lexer = Lexer::new(message, settings.limits);
    let row_type = DataType::nullable(LogicalType::Row(reader.fields.clone()));
    match lexer.next()? {
        Some(Token::StartObject) => push_row(convert::convert(&mut lexer, &row_type, settings)?, rows),
        Some(Token::StartArray) if settings.top_level_arrays => {
            while lexer.next()? != Some(Token::EndArray) {
                push_row(convert::convert(&mut lexer, &row_type, settings)?, rows);
            }
        }
        _ => return Err("No content to map due to end-of-input".to_string()),
    }
    Ok(())
}

fn push_row(value: Value, rows: &mut Vec<Vec<Value>>) {
    if let Value::Row(values) = value {
        rows.push(values);
    }
}
