//! [`Decoder`]: reads each record's key and value with their formats and assembles the table's
//! physical rows as Flink's Kafka source does (key fields first, then the value's fields over
//! them; in upsert mode a null value is a DELETE of its key).
use std::borrow::Cow;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{Schema, SchemaRef};

use super::arrow_out::{arrow_field, finish};
use super::cdc;
use super::columns::Column;
use super::direct::RowTarget;
use super::fast::{Filters, RowKinds, RowPlan};
use super::lexer::LexerBuffers;
use super::message::{read_message, read_message_into, reads_into_columns};
use super::metadata::{self, MetaKey};
use super::side::{Failure, SideReader, DELETE, INSERT};
use super::value::Value;
use super::{DecodeSettings, DecodedBatch, OnError, RecordSide, TimestampLayout};
use crate::error::{KjsonError, Result};
use crate::options::Compatibility;
use crate::spec::{Format, IgnoredKind, SideSpec, SinkSpec};
use crate::types::{DataType, LogicalType, RowField};

/// Decodes batches of Kafka records of one table; opened once per task, like the encoder.
pub struct Decoder {
    spec: SinkSpec,
    schema: SchemaRef,
    key: Option<SideReader>,
    value: SideReader,
    /// Metadata columns put Flink's source on its projecting path even without a key.
    has_metadata: bool,
    /// The value's fields are the table's columns in order and there is no key: a value row is
    /// the table row as it is.
    value_is_row: bool,
    /// The value side is read straight into the columns (see `reads_into_columns`).
    value_into_columns: bool,
    /// The columns only the key sets: (key field, column).
    key_only: Vec<(usize, usize)>,
    /// The columns neither side sets.
    unset: Vec<usize>,
    /// The key's common-case messages read into scratch columns (one per key field).
    key_plan: Option<RowPlan>,
    /// Per column, the key field that sets it.
    key_field_of: Vec<Option<usize>>,
    on_error: OnError,
    timestamps: TimestampLayout,
}

/// The physical columns, then the value format's metadata columns (named `value.<key>`).
fn arrow_schema(spec: &SinkSpec, metadata: &[MetaKey], timestamps: TimestampLayout) -> Result<SchemaRef> {
    let fields = spec.columns.iter().map(|c| arrow_field(&c.name, &c.data_type, timestamps));
    let meta = metadata.iter().map(|m| arrow_field(&format!("value.{}", m.key), &m.output_type(), timestamps));
    Ok(Arc::new(Schema::new(fields.chain(meta).collect::<Result<Vec<_>>>()?)))
}

/// The rows a batch of `records` is reserved for: a json record gives one row; a changelog's
/// UPDATE gives two, so with one row a record its columns would grow (a copy of each) once a
/// batch (about 50 instructions a maxwell record). Unused room is never touched.
fn expected_rows(format: Format, records: usize) -> usize {
    match format.is_insert_only() {
        true => records,
        false => records.saturating_mul(2),
    }
}

/// The batch being decoded: the table's columns and each row's RowKind byte.
struct Output {
    columns: Vec<Column>,
    kinds: Vec<i8>,
}

impl Output {
    fn rows(&self) -> usize {
        self.kinds.len()
    }

    fn push(&mut self, kind: i8, values: &[Value]) {
        self.columns.iter_mut().zip(values).for_each(|(column, value)| column.push_value(value));
        self.kinds.push(kind);
    }

    /// Drops the rows past the first `rows` (those of a record that failed).
    fn truncate(&mut self, rows: usize) {
        self.columns.iter_mut().for_each(|column| column.truncate(rows));
        self.kinds.truncate(rows);
    }
}

impl Decoder {
    /// Opens a decoder for the table of `spec` (the same `CREATE TABLE` as for encoding).
    pub fn open(mut spec: SinkSpec, compatibility: Compatibility) -> Result<Decoder> {
        for column in &mut spec.columns {
            column.data_type.logical = resolved(&column.data_type.logical, compatibility);
        }
        let schema = arrow_schema(&spec, &[], TimestampLayout::default())?;
        let key = spec.key.as_ref().map(|side| side_reader(&spec, side, compatibility)).transpose()?;
        let value = side_reader(&spec, &spec.value, compatibility)?;
        let has_metadata = spec.ignored_columns.iter().any(|c| c.kind == IgnoredKind::Metadata);
        let value_is_row = key.is_none()
            && value.projection.len() == spec.columns.len()
            && value.projection.iter().enumerate().all(|(i, &at)| i == at);
        let in_value = |column: &usize| value.projection.contains(column);
        let key_projection = key.as_ref().map_or(&[][..], |k| &k.projection[..]);
        let key_only: Vec<(usize, usize)> =
            key_projection.iter().copied().enumerate().filter(|(_, at)| !in_value(at)).collect();
        let unset =
            (0..spec.columns.len()).filter(|at| !in_value(at) && !key_only.iter().any(|(_, k)| k == at)).collect();
        let key_plan = match &key {
            Some(k) if k.format == Format::Json && !k.has_map_like => RowPlan::new(&k.fields, &[], &k.settings),
            _ => None,
        };
        let key_field_of = (0..spec.columns.len()).map(|at| key_projection.iter().rposition(|&k| k == at)).collect();
        Ok(Decoder {
            timestamps: TimestampLayout::default(),
            key_plan,
            key_field_of,
            value_into_columns: reads_into_columns(&value),
            spec,
            schema,
            key,
            value,
            has_metadata,
            value_is_row,
            key_only,
            unset,
            on_error: OnError::Fail,
        })
    }

    /// The Arrow schema of the decoded batches: the physical columns (then the value format's
    /// metadata columns, where kjson's source asked for them).
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    pub fn spec(&self) -> &SinkSpec {
        &self.spec
    }

    /// Lays the timestamps of later batches out as `timestamps` says ([`TimestampLayout`]); the
    /// schema changes with it.
    pub fn set_timestamp_layout(&mut self, timestamps: TimestampLayout) -> Result<()> {
        self.schema = arrow_schema(&self.spec, &self.value.metadata, timestamps)?;
        self.timestamps = timestamps;
        Ok(())
    }

    /// Reads the value format's metadata `keys` (without `value.`, in the order of Flink's
    /// produced row) into columns after the physical ones; refused, naming the key, where the
    /// format has no such key or kjson does not read it. For kjson's own source.
    #[doc(hidden)]
    pub fn set_value_metadata(&mut self, keys: &[String]) -> Result<()> {
        let meta = metadata::keys(self.value.format, keys)?;
        let envelope = cdc::envelope_fields(self.value.format, self.value.schema_include, &self.value.fields, &meta);
        self.schema = arrow_schema(&self.spec, &meta, self.timestamps)?;
        self.value.envelope_type = DataType::nullable(LogicalType::Row(envelope));
        if !meta.is_empty() {
            // The fast changelog paths read no metadata.
            self.value.fast = None;
        }
        self.value.metadata = meta;
        Ok(())
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
        let rows = expected_rows(self.value.format, values.len());
        let types = self.spec.columns.iter().map(|c| c.data_type.clone());
        let meta_types = self.value.metadata.iter().map(|m| m.output_type());
        let mut columns: Vec<Column> = types.chain(meta_types).map(|t| Column::new(&t.logical)).collect();
        columns.iter_mut().for_each(|c| c.reserve(rows));
        let mut out = Output { columns, kinds: Vec::with_capacity(rows) };
        let mut records = Vec::with_capacity(rows);
        let mut errors = Vec::new();
        let key_fields = self.key.iter().flat_map(|k| &k.fields);
        let mut scratch = Scratch {
            buffers: LexerBuffers::default(),
            key_columns: key_fields.map(|f| Column::new(&f.data_type.logical)).collect(),
        };
        for index in 0..values.len() {
            let key = match (&keys, &self.key) {
                (Some(keys), Some(_)) => keys.record(index)?,
                _ => None,
            };
            let before = out.rows();
            match self.record_rows(key, values.record(index)?, &mut out, &mut scratch) {
                Ok(()) => records.extend(std::iter::repeat_n(index as u32, out.rows() - before)),
                Err(message) => {
                    // A record that fails leaves no row.
                    out.truncate(before);
                    let error = KjsonError::Record { record: index, message };
                    match self.on_error {
                        OnError::Fail => return Err(error),
                        OnError::Collect => errors.push(error),
                    }
                }
            }
        }
        let row_kinds = std::mem::take(&mut out.kinds);
        let batch = self.batch(out.columns, row_kinds.len())?;
        Ok(DecodedBatch { batch, row_kinds, records, errors })
    }

    /// The rows of one record. Flink's value format calls the projection for each row it reads,
    /// inside its own error handling: a failure there is swallowed under `ignore-parse-errors`.
    fn record_rows(
        &self,
        key: Option<&[u8]>,
        value: Option<&[u8]>,
        out: &mut Output,
        scratch: &mut Scratch,
    ) -> std::result::Result<(), String> {
        let Scratch { buffers, key_columns } = scratch;
        let fast_key = self.fast_key_row(key, key_columns);
        let mut read_rows = Vec::new();
        if let (Some(reader), false) = (&self.key, fast_key) {
            read_message(reader, key, &mut |row| {
                read_rows.push(row.map(|(_, values)| values));
                Ok(())
            })?;
        }
        let key_rows = match fast_key {
            true => KeyRows::Fast(key_columns),
            false => KeyRows::Values(&read_rows),
        };
        if value.is_none() && self.spec.is_upsert() {
            return self.join(&key_rows.values(), None, out).map_err(Failure::into_message);
        }
        if let (true, Some(key_row)) = (self.value_into_columns, self.single_key_row(key_rows)) {
            let mut target = IntoColumns { decoder: self, key_rows, key_row, out };
            return read_message_into(&self.value, value, &mut target, buffers);
        }
        // The sides `direct` does not read (maps, changelogs) have a fast path of their own.
        if let (Some(_), Some(key_row)) = (&self.value.fast, self.single_key_row(key_rows)) {
            if self.fast_rows(value, key_row, out) {
                return Ok(());
            }
        }
        let key_rows = key_rows.values();
        read_message(&self.value, value, &mut |value_row| self.join(&key_rows, value_row, out))
    }

    /// Whether the key's message is the common case, read into row 0 of `columns` (emptied
    /// first).
    fn fast_key_row(&self, key: Option<&[u8]>, columns: &mut [Column]) -> bool {
        let (Some(plan), Some(key)) = (self.key_plan.as_ref(), key.filter(|k| !k.is_empty())) else { return false };
        columns.iter_mut().for_each(|c| c.truncate(0));
        super::fast::read_row(plan, key, columns)
    }

    /// A row whose value columns are written: the columns only the key sets, the others null,
    /// and its RowKind.
    fn complete_row(&self, out: &mut Output, key_row: Option<KeyRow>, kind: i8) {
        for &(field, at) in &self.key_only {
            match key_row {
                Some(key_row) => key_row.push(field, &mut out.columns[at]),
                None => out.columns[at].push_null(),
            }
        }
        self.unset.iter().for_each(|&at| out.columns[at].push_null());
        self.push_metadata(out, &[]);
        out.kinds.push(kind);
    }

    /// The rows a fast read wrote, each completed by [`Decoder::complete_row`]; only their
    /// RowKinds when the value rows set every column (no key-only, unset or metadata column).
    fn complete_rows(&self, out: &mut Output, key_row: Option<KeyRow>, kinds: RowKinds) {
        if self.key_only.is_empty() && self.unset.is_empty() && out.columns.len() == self.spec.columns.len() {
            return kinds.push_into(&mut out.kinds);
        }
        kinds.iter().for_each(|kind| self.complete_row(out, key_row, kind));
    }

    /// A json (with a map) or changelog message in the common shape read straight into the
    /// columns; false (and nothing written) otherwise.
    fn fast_rows(&self, message: Option<&[u8]>, key_row: Option<KeyRow>, out: &mut Output) -> bool {
        let (Some(plan), Some(message)) = (&self.value.fast, message.filter(|m| !m.is_empty())) else {
            return false;
        };
        let before = out.rows();
        let kinds = match self.value.format {
            Format::Json => super::fast::read_row(plan, message, &mut out.columns).then(|| RowKinds::all(INSERT, 1)),
            format => {
                let filters = Filters {
                    database: self.value.database_include.as_ref(),
                    table: self.value.table_include.as_ref(),
                };
                super::fast::read_changelog(plan, format, &filters, message, &mut out.columns)
            }
        };
        match kinds {
            Some(kinds) => {
                self.complete_rows(out, key_row, kinds);
                true
            }
            None => {
                out.truncate(before);
                false
            }
        }
    }

    /// The key row every value row joins when there is one at most (`Some(None)`: the key sets
    /// no column); `None` when the key gives no row, a null row or several.
    fn single_key_row<'k>(&self, key_rows: KeyRows<'k>) -> Option<Option<KeyRow<'k>>> {
        match (&self.key, key_rows) {
            (Some(reader), _) if reader.projection.is_empty() => Some(None),
            (Some(_), KeyRows::Fast(columns)) => Some(Some(KeyRow::Columns(columns))),
            (Some(_), KeyRows::Values([Some(row)])) => Some(Some(KeyRow::Values(row))),
            (Some(_), _) => None,
            (None, _) => Some(None),
        }
    }

    /// The table rows of one value row (`None`: a null row, a DELETE in upsert mode) with every
    /// key row.
    fn join(
        &self,
        key_rows: &[Option<Vec<Value>>],
        value_row: Option<(i8, Vec<Value>)>,
        out: &mut Output,
    ) -> std::result::Result<(), Failure> {
        let kind = match (&value_row, self.spec.is_upsert()) {
            (Some((kind, _)), _) => *kind,
            (None, true) => DELETE,
            // Without key or metadata columns the null row leaves the source as is and fails the
            // next operator, inside the format's call: `ignore-parse-errors` swallows that, and the
            // message ends with the rows before it. Otherwise the projection refuses it, also
            // inside that call.
            (None, false) if self.key.is_none() && !self.has_metadata && !self.value.settings.ignore_parse_errors => {
                return Err(Failure::Fatal(NULL_ROW.into()))
            }
            (None, false) => return Err(Failure::Format(NULL_ROW.into())),
        };
        let (value_row, meta) = match value_row {
            Some((_, mut values)) => {
                let meta = values.split_off(self.value.fields.len().min(values.len()));
                (Some(values), meta)
            }
            None => (None, Vec::new()),
        };
        match &self.key {
            // With key fields, one row per key row: a record whose key gives none gives no row.
            Some(reader) if !reader.projection.is_empty() => {
                let Some((last, others)) = key_rows.split_last() else { return Ok(()) };
                for key_row in others {
                    let key_row = key_row.as_ref().ok_or_else(|| Failure::Format(NULL_KEY_ROW.into()))?;
                    self.push_row(out, kind, Some(key_row), value_row.clone());
                    self.push_metadata(out, &meta);
                }
                // The last key row takes the value row; the others copy it.
                let last = last.as_ref().ok_or_else(|| Failure::Format(NULL_KEY_ROW.into()))?;
                self.push_row(out, kind, Some(last), value_row);
            }
            _ => self.push_row(out, kind, None, value_row),
        }
        self.push_metadata(out, &meta);
        Ok(())
    }

    /// The metadata columns of one row (`meta` empty: nulls).
    fn push_metadata(&self, out: &mut Output, meta: &[Value]) {
        let columns = out.columns.iter_mut().skip(self.spec.columns.len());
        for (at, column) in columns.enumerate() {
            match meta.get(at) {
                Some(value) => column.push_value(value),
                None => column.push_null(),
            }
        }
    }

    /// One table row: the key row's fields, then the value row's over them.
    fn push_row(&self, out: &mut Output, kind: i8, key_row: Option<&Vec<Value>>, value_row: Option<Vec<Value>>) {
        let arity = self.spec.columns.len();
        let value_row = match value_row {
            Some(values) if self.value_is_row && values.len() == arity => return out.push(kind, &values),
            // A null value row (an upsert DELETE): the key's columns, nulls elsewhere.
            None => {
                for (column, field) in out.columns.iter_mut().zip(&self.key_field_of) {
                    match (field, key_row) {
                        (Some(field), Some(key_row)) => column.push_value(&key_row[*field]),
                        _ => column.push_null(),
                    }
                }
                return out.kinds.push(kind);
            }
            other => other,
        };
        let mut values = vec![Value::Null; arity];
        if let (Some(reader), Some(key_row)) = (&self.key, key_row) {
            for (&at, v) in reader.projection.iter().zip(key_row) {
                values[at] = v.clone();
            }
        }
        if let Some(value_row) = value_row {
            for (&at, v) in self.value.projection.iter().zip(value_row) {
                values[at] = v;
            }
        }
        out.push(kind, &values);
    }

    fn batch(&self, columns: Vec<Column>, rows: usize) -> Result<RecordBatch> {
        let arrays = columns.into_iter().zip(self.schema.fields()).map(|(c, f)| finish(c, f.data_type())).collect();
        let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(rows));
        RecordBatch::try_new_with_options(self.schema.clone(), arrays, &options)
            .map_err(|e| KjsonError::internal(format!("decoded arrays do not form a batch: {e}")))
    }
}

impl Decoder {
    /// The one-pass plans of the key and the value side (where a generated decoder goes).
    pub(super) fn plans(&self) -> [Option<&RowPlan>; 2] {
        [self.key_plan.as_ref(), self.value.fast.as_ref()]
    }

    pub(super) fn plans_mut(&mut self) -> [Option<&mut RowPlan>; 2] {
        [self.key_plan.as_mut(), self.value.fast.as_mut()]
    }
}

#[cfg(test)]
impl Decoder {
    /// The same decoder reading every message through `direct` (the fast path's judge).
    pub(crate) fn without_fast_plans(mut self) -> Decoder {
        self.value.fast = None;
        self.key_plan = None;
        self
    }

    pub(crate) fn has_fast_plans(&self) -> bool {
        self.value.fast.is_some()
    }
}

/// What reading a batch reuses from one record to the next.
struct Scratch {
    buffers: LexerBuffers,
    key_columns: Vec<Column>,
}

/// A record's key rows: the common case's one row, in row 0 of the key's scratch columns (no
/// `Value` made per record), or the rows read as values.
#[derive(Clone, Copy)]
enum KeyRows<'k> {
    Fast(&'k [Column]),
    Values(&'k [Option<Vec<Value>>]),
}

impl<'k> KeyRows<'k> {
    /// The rows as [`Decoder::join`] takes them.
    fn values(self) -> Cow<'k, [Option<Vec<Value>>]> {
        match self {
            KeyRows::Fast(columns) => Cow::Owned(vec![Some(columns.iter().map(|c| c.value_at(0)).collect())]),
            KeyRows::Values(rows) => Cow::Borrowed(rows),
        }
    }
}

/// The one key row every value row of a record joins.
#[derive(Clone, Copy)]
enum KeyRow<'k> {
    /// Row 0 of the key's scratch columns.
    Columns(&'k [Column]),
    Values(&'k [Value]),
}

impl KeyRow<'_> {
    /// Key field `field` appended to `column`.
    fn push(self, field: usize, column: &mut Column) {
        match self {
            KeyRow::Columns(columns) => column.push_cell(&columns[field], 0),
            KeyRow::Values(values) => column.push_value(&values[field]),
        }
    }
}

/// The value side's rows written straight into the batch, joined with the record's key row.
struct IntoColumns<'d> {
    decoder: &'d Decoder,
    key_rows: KeyRows<'d>,
    key_row: Option<KeyRow<'d>>,
    out: &'d mut Output,
}

impl RowTarget for IntoColumns<'_> {
    fn columns(&mut self) -> (&mut [Column], usize) {
        let rows = self.out.rows();
        (&mut self.out.columns, rows)
    }

    fn end_row(&mut self, kind: Option<i8>) -> std::result::Result<(), Failure> {
        match kind {
            Some(kind) => {
                self.decoder.complete_row(self.out, self.key_row, kind);
                Ok(())
            }
            None => self.decoder.join(&self.key_rows.values(), None, self.out),
        }
    }
}

fn side_reader(spec: &SinkSpec, side: &SideSpec, compatibility: Compatibility) -> Result<SideReader> {
    let options = &side.options;
    if options.fail_on_missing_field && options.ignore_parse_errors {
        return Err(KjsonError::option("fail-on-missing-field and ignore-parse-errors shouldn't both be true."));
    }
    if options.json_parser_set && compatibility.flink_version < crate::options::FlinkVersion::V2_2 {
        return Err(KjsonError::option(format!(
            "Unsupported options found for '{}': 'decode.json-parser.enabled' is not an option of Flink 1.20's json format.",
            spec.connector.identifier()
        )));
    }
    let fields = spec.side_fields(side);
    let has_decimal =
        fields.iter().any(|f| contains(&f.data_type.logical, &|t| matches!(t, LogicalType::Decimal { .. })));
    let has_map_like = fields
        .iter()
        .any(|f| contains(&f.data_type.logical, &|t| matches!(t, LogicalType::Multiset(_) | LogicalType::Map { .. })));
    let settings = DecodeSettings::new(options, compatibility, has_decimal);
    let envelope = cdc::envelope_fields(side.format, options.schema_include, &fields, &[]);
    let fast = match (side.format, has_map_like) {
        (Format::Json, _) => RowPlan::new(&fields, &side.projection, &settings),
        (Format::DebeziumJson, false) if !options.schema_include => RowPlan::tree(&fields, &side.projection, &settings),
        (Format::CanalJson | Format::MaxwellJson | Format::OggJson, false) => {
            RowPlan::tree(&fields, &side.projection, &settings)
        }
        _ => None,
    };
    Ok(SideReader {
        row_type: DataType::nullable(LogicalType::Row(fields.clone())),
        fields,
        projection: side.projection.clone(),
        settings,
        has_map_like,
        format: side.format,
        envelope_type: DataType::nullable(LogicalType::Row(envelope)),
        schema_include: options.schema_include,
        database_include: include_pattern(options.database_include.as_deref(), "database.include")?,
        table_include: include_pattern(options.table_include.as_deref(), "table.include")?,
        metadata: Vec::new(),
        fast,
    })
}

/// A canal-json include pattern as Java's `Pattern.matches` applies it: the whole name.
fn include_pattern(pattern: Option<&str>, key: &str) -> Result<Option<regex::Regex>> {
    pattern
        .map(|text| {
            regex::Regex::new(&format!("^(?:{text})$")).map_err(|e| {
                KjsonError::option(format!(
                    "'canal-json.{key}' = '{text}': kjson cannot read this regular expression: {e}"
                ))
            })
        })
        .transpose()
}

/// Whether `ty` or a type nested in it satisfies `test`.
fn contains(ty: &LogicalType, test: &dyn Fn(&LogicalType) -> bool) -> bool {
    test(ty)
        || match ty {
            LogicalType::Array(inner) | LogicalType::Multiset(inner) => contains(&inner.logical, test),
            LogicalType::Map { key, value } => contains(&key.logical, test) || contains(&value.logical, test),
            LogicalType::Row(fields) => fields.iter().any(|f| contains(&f.data_type.logical, test)),
            _ => false,
        }
}

/// The type Flink's planner resolves from a DDL type: before 2.3 every TIME is TIME(0).
fn resolved(ty: &LogicalType, compatibility: Compatibility) -> LogicalType {
    let nested = |d: &DataType| DataType { logical: resolved(&d.logical, compatibility), nullable: d.nullable };
    match ty {
        LogicalType::Time { .. } if !compatibility.flink_version.time_has_fraction() => {
            LogicalType::Time { precision: 0 }
        }
        LogicalType::Array(inner) => LogicalType::Array(Box::new(nested(inner))),
        LogicalType::Multiset(inner) => LogicalType::Multiset(Box::new(nested(inner))),
        LogicalType::Map { key, value } => {
            LogicalType::Map { key: Box::new(nested(key)), value: Box::new(nested(value)) }
        }
        LogicalType::Row(fields) => {
            LogicalType::Row(fields.iter().map(|f| RowField { data_type: nested(&f.data_type), ..f.clone() }).collect())
        }
        other => other.clone(),
    }
}

const NULL_KEY_ROW: &str = "java.lang.NullPointerException: physicalKeyRow is null";

const NULL_ROW: &str = "Invalid null value received in non-upsert mode. Could not to set row kind for output record.";
