//! The json format's common case in one pass: a message that is one object whose names are
//! plain (no escape) and whose values are the tokens their columns read without a coercion
//! (numbers for numbers, strings for text and times, literals for booleans, objects for rows,
//! arrays for arrays, `null` anywhere). Flink's streaming converters read such a message without
//! an error whatever the options, so its values go straight into the columns without Jackson's
//! token machine. On anything else `read_row` gives up; the caller truncates what it wrote and
//! reads the message with `direct`, which gives Flink's errors and coercions.
mod block;
mod changelog;
mod data_old;
mod envelope;
pub(crate) mod read;
pub(crate) mod scan;

use super::columns::Column;
use super::DecodeSettings;
use crate::types::{IntervalKind, LogicalType, RowField};
use scan::Prefix;

pub(crate) use changelog::read_changelog;
pub(crate) use data_old::Filters;
pub(crate) use envelope::RowKinds;
pub(crate) use read::read_row;

/// Deeper rows and arrays are left to `direct` (Jackson's depth limit is 1000).
const MAX_DEPTH: usize = 32;
/// A row's fields are tracked in one 64-bit mask.
const MAX_ARITY: usize = 64;

/// How a row's fields are read: by name, into their columns.
#[derive(Debug)]
pub(crate) struct RowPlan {
    fields: Vec<FieldPlan>,
    limits: PlanLimits,
    /// A generated decoder's reader of the same row, used in place of the plan's fields.
    pub generated: Option<GeneratedRead>,
}

/// A generated decoder's one-pass reader of a side's row (see `decode::generated_support`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct GeneratedRead {
    /// The generated type, e.g. `NexmarkQ0Decoder`.
    pub type_name: &'static str,
    /// As `read::fields_row` with the plan's fields: an object's members after its `{`.
    pub row: read::ReadObject,
}

#[derive(Debug)]
struct FieldPlan {
    /// `"name":`, as Flink writes the member.
    member: Prefix,
    kind: Kind,
    /// The column written (the table's for the top row, the child's index in a nested one).
    column: usize,
}

/// The options and limits that change what a message reads as.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlanLimits {
    fail_on_missing_field: bool,
    iso_timestamps: bool,
    time_keeps_fraction: bool,
    max_string_length: usize,
    max_number_length: usize,
    max_name_length: usize,
    /// Read as Flink's tree converters read a Jackson tree (the changelog formats): numbers
    /// become nodes first, so only the tokens whose node gives the streaming value are read.
    tree: bool,
    /// Float tokens become `BigDecimal` nodes (a DECIMAL in the row).
    big_decimal_floats: bool,
}

#[derive(Debug)]
enum Kind {
    Boolean,
    /// Any integer column (TINYINT to BIGINT, the intervals), with its range.
    Integer {
        min: i64,
        max: i64,
    },
    Float,
    Double,
    Decimal {
        precision: u8,
        scale: u8,
    },
    Text,
    Bytes,
    Date,
    Time,
    Timestamp {
        ltz: bool,
    },
    /// Boxed: the match on a kind then reads a plain tag (not a niche of the plan's `Vec`).
    Row(Box<RowPlan>),
    Array(Box<Kind>),
    /// A MAP with STRING keys (its value's kind), or a MULTISET of STRING (`None`: INT counts).
    Map(Option<Box<Kind>>),
}

impl RowPlan {
    /// The plan of a side's row (`columns`: the column of each field), or `None` when a type,
    /// a name or the shape is one only `direct` reads.
    pub(crate) fn new(fields: &[RowField], columns: &[usize], settings: &DecodeSettings) -> Option<RowPlan> {
        match settings.streaming {
            true => RowPlan::with_mode(fields, columns, settings, false),
            false => None,
        }
    }

    /// The plan of a changelog format's row, read from the message's tree.
    pub(crate) fn tree(fields: &[RowField], columns: &[usize], settings: &DecodeSettings) -> Option<RowPlan> {
        RowPlan::with_mode(fields, columns, settings, true)
    }

    fn with_mode(fields: &[RowField], columns: &[usize], settings: &DecodeSettings, tree: bool) -> Option<RowPlan> {
        let limits = PlanLimits {
            fail_on_missing_field: settings.fail_on_missing_field,
            iso_timestamps: settings.iso_timestamps,
            time_keeps_fraction: settings.time_keeps_fraction,
            max_string_length: settings.limits.max_string_length,
            max_number_length: settings.limits.max_number_length,
            max_name_length: settings.limits.max_name_length,
            tree,
            big_decimal_floats: settings.big_decimal_floats,
        };
        // Names are compared as raw bytes: one Jackson could read as a longer name is refused.
        if settings.limits.max_name_length < fields.iter().map(|f| f.name.len()).max().unwrap_or(0) {
            return None;
        }
        row_plan(fields, columns, limits, 1)
    }
}

impl RowPlan {
    /// The columns the row's fields write.
    fn columns(&self) -> impl Iterator<Item = usize> + '_ {
        self.fields.iter().map(|f| f.column)
    }

    /// The rows in the plan's columns (all of them hold as many between messages).
    fn rows(&self, columns: &[Column]) -> usize {
        self.fields.first().map_or(0, |f| columns[f.column].len())
    }

    /// Every field is a scalar (no ROW, ARRAY, MAP or MULTISET).
    fn is_flat(&self) -> bool {
        self.fields.iter().all(|f| !matches!(f.kind, Kind::Row(_) | Kind::Array(_) | Kind::Map(_)))
    }
}

fn row_plan(fields: &[RowField], columns: &[usize], limits: PlanLimits, depth: usize) -> Option<RowPlan> {
    if fields.len() > MAX_ARITY || depth > MAX_DEPTH {
        return None;
    }
    let mut plans = Vec::with_capacity(fields.len());
    for (index, field) in fields.iter().enumerate() {
        // A quote or backslash in a name would make its raw bytes differ from its JSON text.
        let plain = !field.name.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20);
        let unique = fields[..index].iter().all(|f| f.name != field.name);
        if !plain || !unique {
            return None;
        }
        plans.push(FieldPlan {
            member: Prefix::new(format!("\"{}\":", field.name).into_bytes()),
            kind: kind(&field.data_type.logical, limits, depth)?,
            column: columns.get(index).copied().unwrap_or(index),
        });
    }
    Some(RowPlan { fields: plans, limits, generated: None })
}

fn is_string(ty: &LogicalType) -> bool {
    matches!(ty, LogicalType::Char { .. } | LogicalType::VarChar { .. })
}

fn kind(ty: &LogicalType, limits: PlanLimits, depth: usize) -> Option<Kind> {
    let integer = |min: i64, max: i64| Some(Kind::Integer { min, max });
    match ty {
        LogicalType::Boolean => Some(Kind::Boolean),
        LogicalType::TinyInt => integer(i8::MIN.into(), i8::MAX.into()),
        LogicalType::SmallInt => integer(i16::MIN.into(), i16::MAX.into()),
        LogicalType::Int | LogicalType::Interval { kind: IntervalKind::YearMonth, .. } => {
            integer(i32::MIN.into(), i32::MAX.into())
        }
        LogicalType::BigInt | LogicalType::Interval { .. } => integer(i64::MIN, i64::MAX),
        LogicalType::Float => Some(Kind::Float),
        LogicalType::Double => Some(Kind::Double),
        LogicalType::Decimal { precision, scale } => Some(Kind::Decimal { precision: *precision, scale: *scale }),
        LogicalType::Char { .. } | LogicalType::VarChar { .. } => Some(Kind::Text),
        LogicalType::Binary { .. } | LogicalType::VarBinary { .. } => Some(Kind::Bytes),
        LogicalType::Date => Some(Kind::Date),
        LogicalType::Time { .. } => Some(Kind::Time),
        LogicalType::Timestamp { .. } => Some(Kind::Timestamp { ltz: false }),
        LogicalType::TimestampLtz { .. } => Some(Kind::Timestamp { ltz: true }),
        LogicalType::Row(fields) => Some(Kind::Row(Box::new(row_plan(fields, &[], limits, depth + 1)?))),
        LogicalType::Array(element) if depth < MAX_DEPTH => {
            Some(Kind::Array(Box::new(kind(&element.logical, limits, depth + 1)?)))
        }
        LogicalType::Map { key, value } if depth < MAX_DEPTH && is_string(&key.logical) => {
            Some(Kind::Map(Some(Box::new(kind(&value.logical, limits, depth + 1)?))))
        }
        LogicalType::Multiset(element) if is_string(&element.logical) => Some(Kind::Map(None)),
        LogicalType::Array(_)
        | LogicalType::Map { .. }
        | LogicalType::Multiset(_)
        | LogicalType::Unsupported { .. } => None,
    }
}

#[cfg(test)]
mod tests;
