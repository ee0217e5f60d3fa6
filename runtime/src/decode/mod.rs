//! The read side: Kafka records (one slab per side, with offsets and lengths, the shape the
//! encoder hands out) decoded into an Arrow batch, row for row as Flink's Kafka source and its
//! JSON deserializers read them.
//!
//! Stages: `fast` (the common case of a json message, straight into the columns), else
//! `lexer` (Jackson's tokens) -> `direct` (Flink's streaming converters straight into
//! the batch's `columns`, for a json side without maps) or `convert` / `node_convert` (Flink's
//! streaming and tree converters into values, one record at a time; `cdc` for the changelog
//! envelopes, `metadata` for their readable metadata) -> `message` (a format's error handling)
//! -> `assemble` (the key and value rows merged into the table's physical row, upsert
//! tombstones, appended to the columns) -> `arrow_out` (the batch's arrays).
mod arrow_out;
mod assemble;
mod base64;
mod binary_rows;
mod cdc;
mod columns;
mod convert;
mod direct;
mod failure;
mod fast;
mod flink_timestamp;
#[doc(hidden)]
pub mod generated_support;
mod java;
mod lexer;
mod message;
mod metadata;
mod node;
mod node_convert;
mod rows;
mod side;
mod sql_timestamp;
mod temporal;
mod tree;
mod value;

use std::sync::Arc;

use arrow_array::{ArrayRef, Int32Array, Int8Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

pub use assemble::Decoder;
pub use binary_rows::{binary_rows_refusal, BinaryRows};
pub use generated_support::DecoderKind;

impl Decoder {
    /// [`Decoder::schema`] with the two columns the edges add: refused when a column clashes.
    pub fn output_schema(&self) -> Result<SchemaRef> {
        with_extra_fields(&self.schema())
    }
}

use crate::error::{KjsonError, Result};
use crate::options::{Compatibility, FlinkVersion, FloatSpelling, JsonOptions, TimestampFormat};

/// The records of one Kafka fetch, one side (keys or values): record `i` is
/// `data[offsets[i]..offsets[i] + lengths[i]]`, or null when `lengths[i]` is negative.
#[derive(Debug, Clone, Copy)]
pub struct RecordSide<'a> {
    pub data: &'a [u8],
    pub offsets: &'a [i32],
    pub lengths: &'a [i32],
}

impl<'a> RecordSide<'a> {
    /// Record `index`: `None` for a null key or value.
    pub fn record(&self, index: usize) -> Result<Option<&'a [u8]>> {
        let (Some(&offset), Some(&length)) = (self.offsets.get(index), self.lengths.get(index)) else {
            return Err(KjsonError::schema(format!("record {index}: no offset or length for it")));
        };
        if length < 0 {
            return Ok(None);
        }
        let start =
            usize::try_from(offset).map_err(|_| KjsonError::schema(format!("record {index}: negative offset")))?;
        let end = start + length as usize;
        self.data.get(start..end).map(Some).ok_or_else(|| {
            KjsonError::schema(format!(
                "record {index}: bytes {start}..{end} are outside the slab of {} bytes",
                self.data.len()
            ))
        })
    }

    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }
}

/// What a batch of records decoded into.
#[derive(Debug, Clone)]
pub struct DecodedBatch {
    /// The table's physical columns, in schema order.
    pub batch: RecordBatch,
    /// Per row: Flink's RowKind byte (0 +I, 1 -U, 2 +U, 3 -D).
    pub row_kinds: Vec<i8>,
    /// Per row: the index of the record it came from (a record can give 0, 1 or many rows).
    pub records: Vec<u32>,
    /// Under [`OnError::Collect`], the records that failed, in order; none otherwise.
    pub errors: Vec<KjsonError>,
}

/// The columns the edges (CLI, JNI, C) add after the physical ones: the row's RowKind byte
/// (Int8) and the index of the record it came from (Int32).
pub const ROW_KIND_COLUMN: &str = "__row_kind";
pub const RECORD_COLUMN: &str = "__record";

/// The physical columns of `physical` followed by [`ROW_KIND_COLUMN`] and [`RECORD_COLUMN`]; a
/// table column of either name is refused.
pub fn with_extra_fields(physical: &Schema) -> Result<SchemaRef> {
    if let Some(clash) =
        physical.fields().iter().find(|f| [ROW_KIND_COLUMN, RECORD_COLUMN].contains(&f.name().as_str()))
    {
        return Err(KjsonError::schema(format!(
            "column `{}` has the name of a column the decoder adds; rename it",
            clash.name()
        )));
    }
    let mut fields: Vec<Arc<Field>> = physical.fields().iter().cloned().collect();
    fields.push(Arc::new(Field::new(ROW_KIND_COLUMN, DataType::Int8, false)));
    fields.push(Arc::new(Field::new(RECORD_COLUMN, DataType::Int32, false)));
    Ok(Arc::new(Schema::new(fields)))
}

impl DecodedBatch {
    /// The batch with the row kinds and record indices as two more columns (see
    /// [`with_extra_fields`]); record indices are offset by `first_record`.
    pub fn with_extra_columns(&self, first_record: usize) -> Result<RecordBatch> {
        let schema = with_extra_fields(&self.batch.schema())?;
        let records = self
            .records
            .iter()
            .map(|&r| i32::try_from(first_record + r as usize))
            .collect::<std::result::Result<Vec<i32>, _>>()
            .map_err(|_| KjsonError::Limit { message: "a record index does not fit an Int32".into() })?;
        let mut columns: Vec<ArrayRef> = self.batch.columns().to_vec();
        columns.push(Arc::new(Int8Array::from(self.row_kinds.clone())));
        columns.push(Arc::new(Int32Array::from(records)));
        let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(self.batch.num_rows()));
        RecordBatch::try_new_with_options(schema, columns, &options)
            .map_err(|e| KjsonError::internal(format!("decoded columns do not form a batch: {e}")))
    }
}

/// What a record that Flink's deserializer would throw on does to the batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnError {
    /// The batch fails with that record's error, as the Flink job would.
    #[default]
    Fail,
    /// The record gives no row and its error is listed (for dead-letter handling and tests).
    Collect,
}

/// How timestamps are laid out in Arrow: the unit the column's precision gives, or every digit
/// Flink's own rows keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimestampLayout {
    /// Flink's Arrow mapping: seconds at precision 0, milliseconds to 3, microseconds to 6, the
    /// `epoch_millis` / `nano_of_milli` struct above. Digits past the unit are cut.
    #[default]
    ByPrecision,
    /// What a Flink `TimestampData` read by the JSON formats holds once Flink's serializer has
    /// carried it: milliseconds up to precision 3 (also at precision 0), and from precision 4 on
    /// the struct with every digit the record had, past the declared precision too. For sources
    /// that hand rows to Flink.
    AsFlinkRows,
}

/// The settings one side's converters read.
#[derive(Debug, Clone)]
pub(crate) struct DecodeSettings {
    pub fail_on_missing_field: bool,
    pub ignore_parse_errors: bool,
    pub iso_timestamps: bool,
    pub time_keeps_fraction: bool,
    /// A DECIMAL anywhere in the side's row makes Jackson read floats as `BigDecimal`s.
    pub big_decimal_floats: bool,
    /// Jackson 2.14 (Flink 1.20) keeps a float whose double is infinite (`1e400`) as a double
    /// even then.
    pub infinite_floats_as_double: bool,
    pub float_spelling: FloatSpelling,
    pub limits: lexer::Limits,
    /// Flink 2.x: a top-level array is one row per element, and a message that reads as a null
    /// row (a failure under `ignore-parse-errors`) is handed on as a null row.
    pub top_level_arrays: bool,
    /// Flink's streaming decoder (`decode.json-parser.enabled`, the default); else its tree one.
    pub streaming: bool,
    /// Flink 1.20: a MULTISET holding a null count fails the record past the format.
    pub multiset_null_count_fails: bool,
}

impl DecodeSettings {
    fn new(options: &JsonOptions, compatibility: Compatibility, has_decimal: bool) -> DecodeSettings {
        let jackson_constraints = compatibility.flink_version >= FlinkVersion::V2_2;
        DecodeSettings {
            fail_on_missing_field: options.fail_on_missing_field,
            ignore_parse_errors: options.ignore_parse_errors,
            iso_timestamps: options.timestamp_format == TimestampFormat::Iso8601,
            time_keeps_fraction: compatibility.flink_version.time_has_fraction(),
            big_decimal_floats: has_decimal,
            infinite_floats_as_double: !jackson_constraints,
            float_spelling: compatibility.float_spelling,
            limits: if jackson_constraints { lexer::Limits::JACKSON_2_15 } else { lexer::Limits::NONE },
            top_level_arrays: jackson_constraints,
            multiset_null_count_fails: compatibility.flink_version < FlinkVersion::V2_2,
            streaming: options.json_parser,
        }
    }
}
