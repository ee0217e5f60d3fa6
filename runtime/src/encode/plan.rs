//! The plan, built from the first batch: every physical column's Arrow type checked against its
//! Flink logical type, with what the writers need resolved once (TIMESTAMP_LTZ marks at any
//! depth, pre-escaped field names, decimal scales, time units).
use arrow_schema::{DataType as ArrowType, Field, IntervalUnit, Schema, TimeUnit};

use crate::error::{KjsonError, Result};
use crate::spelling::escape;
use crate::types::{DataType, IntervalKind, LogicalType};

/// What to write for one value, resolved from the logical type and the Arrow type.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanNode {
    Boolean,
    /// TINYINT..BIGINT and INTERVAL carried as Arrow integers.
    Integer,
    Float32,
    Float64,
    Decimal {
        scale: u8,
    },
    /// CHAR / VARCHAR (from Utf8 family, or Binary family decoded lossily).
    String,
    /// CHAR / VARCHAR carried as WTF-8 bytes in a Binary family array marked
    /// [`WTF8_METADATA`]: a Java `String` with its unpaired surrogates (kjson's JVM writer).
    Wtf8String,
    /// BINARY / VARBINARY, written as Base64.
    Bytes,
    Date,
    Time,
    /// From an Arrow `Timestamp`, or from a struct of epoch milliseconds (Int64) and
    /// nanoseconds of the millisecond (Int32), Flink's `TimestampData`, which reaches years that
    /// a nanosecond `Timestamp` cannot.
    Timestamp {
        ltz: bool,
    },
    /// INTERVAL carried as an Arrow `Interval` or `Duration`.
    Interval,
    Array(Box<PlanNode>),
    /// MAP and MULTISET; keys are always strings ([`PlanNode::String`] or
    /// [`PlanNode::Wtf8String`]).
    Map {
        key: Box<PlanNode>,
        value: Box<PlanNode>,
    },
    Row(Vec<RowFieldPlan>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct RowFieldPlan {
    /// `"name":` with the name escaped as Jackson writes it.
    pub name_json: Vec<u8>,
    pub name: String,
    pub node: PlanNode,
}

/// The field metadata (key, value) that marks a Binary, LargeBinary or BinaryView string
/// column, at any depth, as WTF-8: the UTF-8 of a Java `String` in which an unpaired surrogate
/// is its 3-byte sequence, written as Jackson escapes it (`\uD800`).
pub const WTF8_METADATA: (&str, &str) = ("kjson.encoding", "wtf-8");

/// True if `field` carries the [`WTF8_METADATA`] mark.
pub fn is_wtf8(field: &Field) -> bool {
    field.metadata().get(WTF8_METADATA.0).is_some_and(|v| v == WTF8_METADATA.1)
}

/// How a column reaches the encoder: its Arrow type and, for a top-level column, the WTF-8 mark
/// (nested fields carry theirs inside the type). Plans are built and reused per carriage.
#[derive(Debug, Clone, PartialEq)]
pub struct Carriage {
    pub data_type: ArrowType,
    pub wtf8: bool,
}

impl Carriage {
    pub fn of(field: &Field) -> Carriage {
        Carriage { data_type: field.data_type().clone(), wtf8: is_wtf8(field) }
    }
}

/// The plan of all physical columns, and the Arrow schema it was built for.
#[derive(Debug, Clone)]
pub struct Plan {
    pub columns: Vec<PlanNode>,
    /// How the physical columns were carried: a batch carried the same way reuses the plan.
    pub carriages: Vec<Carriage>,
}

/// `"name":` for a field name.
pub fn field_name_json(name: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len() + 3);
    escape::write_json_str(&mut out, name);
    out.push(b':');
    out
}

impl Plan {
    /// Checks the batch schema's physical columns against the sink's columns.
    pub fn build(columns: &[(String, DataType)], fields: &[&Field]) -> Result<Plan> {
        if columns.len() != fields.len() {
            return Err(KjsonError::schema(format!(
                "the sink has {} physical columns ({}), the Arrow batch has {} columns ({})",
                columns.len(),
                columns.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "),
                fields.len(),
                fields.iter().map(|f| f.name().as_str()).collect::<Vec<_>>().join(", ")
            )));
        }
        let nodes = columns
            .iter()
            .zip(fields)
            .map(|((name, ty), field)| plan_node(name, ty, field))
            .collect::<Result<Vec<_>>>()?;
        let carriages = fields.iter().map(|f| Carriage::of(f)).collect();
        Ok(Plan { columns: nodes, carriages })
    }

    /// True if `fields` carry the physical columns as this plan's batch did.
    pub fn carried_as(&self, fields: &[&Field]) -> bool {
        fields.len() == self.carriages.len()
            && self.carriages.iter().zip(fields).all(|(c, f)| c.data_type == *f.data_type() && c.wtf8 == is_wtf8(f))
    }
}

/// The physical-column fields of a schema, skipping the row-kind column if named.
pub fn physical_fields(schema: &Schema, row_kind_column: Option<usize>) -> Vec<&Field> {
    schema.fields().iter().enumerate().filter(|(i, _)| Some(*i) != row_kind_column).map(|(_, f)| f.as_ref()).collect()
}

fn mismatch(path: &str, ty: &DataType, found: &ArrowType, accepted: &str) -> KjsonError {
    KjsonError::schema(format!(
        "column `{path}`: expected Flink type {ty} (Arrow {accepted}), found Arrow type {found}"
    ))
}

/// Resolves one value of logical type `ty` carried as Arrow field `field` at column path `path`.
pub fn plan_node(path: &str, ty: &DataType, field: &Field) -> Result<PlanNode> {
    use LogicalType as L;
    let found = field.data_type();
    if let ArrowType::Dictionary(_, value) = found {
        return match ty.logical {
            L::Char { .. } | L::VarChar { .. } => {
                let values = Field::new(field.name(), *value.clone(), true).with_metadata(field.metadata().clone());
                plan_node(path, ty, &values)
            }
            _ => Err(mismatch(path, ty, found, "dictionaries are accepted for strings only")),
        };
    }
    let ok = |node: PlanNode, accepted: bool, what: &str| {
        if accepted {
            Ok(node)
        } else {
            Err(mismatch(path, ty, found, what))
        }
    };
    match &ty.logical {
        L::Boolean => ok(PlanNode::Boolean, matches!(found, ArrowType::Boolean), "Boolean"),
        L::TinyInt => ok(PlanNode::Integer, matches!(found, ArrowType::Int8), "Int8"),
        L::SmallInt => ok(PlanNode::Integer, matches!(found, ArrowType::Int16), "Int16"),
        L::Int => ok(PlanNode::Integer, matches!(found, ArrowType::Int32), "Int32"),
        L::BigInt => ok(PlanNode::Integer, matches!(found, ArrowType::Int64), "Int64"),
        L::Float => ok(PlanNode::Float32, matches!(found, ArrowType::Float32), "Float32"),
        L::Double => ok(PlanNode::Float64, matches!(found, ArrowType::Float64), "Float64"),
        L::Decimal { scale, .. } => plan_decimal(path, ty, found, *scale),
        L::Char { .. } | L::VarChar { .. } => ok(
            string_node(field),
            matches!(
                found,
                ArrowType::Utf8
                    | ArrowType::LargeUtf8
                    | ArrowType::Utf8View
                    | ArrowType::Binary
                    | ArrowType::LargeBinary
                    | ArrowType::BinaryView
            ),
            "Utf8, LargeUtf8, Utf8View, a dictionary of those, or Binary holding UTF-8",
        ),
        L::Binary { .. } | L::VarBinary { .. } => ok(
            PlanNode::Bytes,
            matches!(
                found,
                ArrowType::Binary | ArrowType::LargeBinary | ArrowType::BinaryView | ArrowType::FixedSizeBinary(_)
            ),
            "Binary, LargeBinary, BinaryView or FixedSizeBinary",
        ),
        L::Date => ok(PlanNode::Date, matches!(found, ArrowType::Date32 | ArrowType::Date64), "Date32 or Date64"),
        L::Time { .. } => {
            ok(PlanNode::Time, matches!(found, ArrowType::Time32(_) | ArrowType::Time64(_)), "Time32 or Time64")
        }
        L::Timestamp { .. } => ok(
            PlanNode::Timestamp { ltz: false },
            matches!(found, ArrowType::Timestamp(_, None)) || is_timestamp_parts(found),
            "Timestamp without a time zone, or Struct<Int64 epoch millis, Int32 nano of milli>",
        ),
        L::TimestampLtz { .. } => ok(
            PlanNode::Timestamp { ltz: true },
            matches!(found, ArrowType::Timestamp(_, _)) || is_timestamp_parts(found),
            "Timestamp, or Struct<Int64 epoch millis, Int32 nano of milli>",
        ),
        L::Interval { kind, .. } => plan_interval(path, ty, found, *kind),
        L::Array(element) => plan_array(path, ty, found, element),
        L::Map { key, value } => plan_map(path, ty, found, key, value),
        L::Multiset(element) => {
            let count = DataType::not_null(LogicalType::Int);
            plan_map(path, ty, found, element, &count)
        }
        L::Row(fields) => plan_row(path, ty, found, fields),
        L::Unsupported { text } => {
            Err(KjsonError::type_error(format!("column `{path}`: Not support to parse type: {text}")))
        }
    }
}

/// A string node: WTF-8 when a Binary family array carries the mark.
fn string_node(field: &Field) -> PlanNode {
    let binary = matches!(field.data_type(), ArrowType::Binary | ArrowType::LargeBinary | ArrowType::BinaryView);
    if binary && is_wtf8(field) {
        PlanNode::Wtf8String
    } else {
        PlanNode::String
    }
}

/// Flink's `TimestampData` as a struct: epoch milliseconds (Int64), then nanoseconds within the
/// millisecond (Int32, 0..=999_999).
pub fn is_timestamp_parts(found: &ArrowType) -> bool {
    matches!(found, ArrowType::Struct(f) if f.len() == 2
        && f[0].data_type() == &ArrowType::Int64 && f[1].data_type() == &ArrowType::Int32)
}

fn plan_decimal(path: &str, ty: &DataType, found: &ArrowType, scale: u8) -> Result<PlanNode> {
    match found {
        ArrowType::Decimal128(_, s) if i16::from(*s) == i16::from(scale) => Ok(PlanNode::Decimal { scale }),
        _ => Err(mismatch(path, ty, found, &format!("Decimal128 with scale {scale}"))),
    }
}

fn plan_interval(path: &str, ty: &DataType, found: &ArrowType, kind: IntervalKind) -> Result<PlanNode> {
    match (kind, found) {
        (IntervalKind::YearMonth, ArrowType::Int32) | (IntervalKind::DayTime, ArrowType::Int64) => {
            Ok(PlanNode::Integer)
        }
        (IntervalKind::YearMonth, ArrowType::Interval(IntervalUnit::YearMonth))
        | (IntervalKind::DayTime, ArrowType::Interval(IntervalUnit::DayTime))
        | (IntervalKind::DayTime, ArrowType::Duration(_)) => Ok(PlanNode::Interval),
        (IntervalKind::YearMonth, _) => Err(mismatch(path, ty, found, "Int32 months or Interval(YearMonth)")),
        (IntervalKind::DayTime, _) => {
            Err(mismatch(path, ty, found, "Int64 milliseconds, Interval(DayTime) or Duration"))
        }
    }
}

fn plan_array(path: &str, ty: &DataType, found: &ArrowType, element: &DataType) -> Result<PlanNode> {
    match found {
        ArrowType::List(f) | ArrowType::LargeList(f) | ArrowType::FixedSizeList(f, _) => {
            let child = plan_node(&format!("{path}[]"), element, f)?;
            Ok(PlanNode::Array(Box::new(child)))
        }
        _ => Err(mismatch(path, ty, found, "List, LargeList or FixedSizeList")),
    }
}

fn plan_map(path: &str, ty: &DataType, found: &ArrowType, key: &DataType, value: &DataType) -> Result<PlanNode> {
    // A List of key/value structs is accepted too: it can carry null keys, which Arrow's Map
    // forbids and Flink's MAP allows.
    let (ArrowType::Map(entries, _) | ArrowType::List(entries)) = found else {
        return Err(mismatch(path, ty, found, "Map, or List of key/value structs"));
    };
    let ArrowType::Struct(kv) = entries.data_type() else {
        return Err(mismatch(path, ty, found, "Map with a key/value struct"));
    };
    if kv.len() != 2 {
        return Err(mismatch(path, ty, found, "Map with two entry fields"));
    }
    if !key.is_string() {
        return Err(KjsonError::type_error(format!(
            "column `{path}`: JSON format doesn't support non-string as key type of map. The type is: {}",
            ty.logical
        )));
    }
    let key_node = plan_node(&format!("{path}{{key}}"), key, &kv[0])?;
    let value_node = plan_node(&format!("{path}{{value}}"), value, &kv[1])?;
    Ok(PlanNode::Map { key: Box::new(key_node), value: Box::new(value_node) })
}

fn plan_row(path: &str, ty: &DataType, found: &ArrowType, fields: &[crate::types::RowField]) -> Result<PlanNode> {
    let ArrowType::Struct(arrow_fields) = found else {
        return Err(mismatch(path, ty, found, "Struct"));
    };
    if arrow_fields.len() != fields.len() {
        return Err(mismatch(path, ty, found, &format!("Struct with {} fields", fields.len())));
    }
    let planned = fields
        .iter()
        .zip(arrow_fields.iter())
        .map(|(f, af)| {
            let node = plan_node(&format!("{path}.{}", f.name), &f.data_type, af)?;
            Ok(RowFieldPlan { name_json: field_name_json(&f.name), name: f.name.clone(), node })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(PlanNode::Row(planned))
}

/// Milliseconds per Arrow time unit step, as a (multiplier, divisor) pair.
pub fn unit_to_millis(unit: TimeUnit) -> (i64, i64) {
    match unit {
        TimeUnit::Second => (1000, 1),
        TimeUnit::Millisecond => (1, 1),
        TimeUnit::Microsecond => (1, 1000),
        TimeUnit::Nanosecond => (1, 1_000_000),
    }
}
