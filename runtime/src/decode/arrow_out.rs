//! The Arrow layout of decoded rows (the layout the encoder takes: Flink's own mapping) and the
//! arrays built from a batch's decoded values.
use std::sync::Arc;

use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, Date32Builder, Float32Builder, Float64Builder, Int16Builder, Int32Builder,
    Int64Builder, Int8Builder,
};
use arrow_array::{
    ArrayRef, Decimal128Array, ListArray, MapArray, StringArray, StructArray, Time32MillisecondArray,
    Time32SecondArray, Time64MicrosecondArray, Time64NanosecondArray, TimestampMicrosecondArray,
    TimestampMillisecondArray, TimestampSecondArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType as ArrowType, Field, Fields, TimeUnit};

use super::value::Value;
use crate::error::{KjsonError, Result};
use crate::types::{DataType, IntervalKind, LogicalType};

pub(crate) const EPOCH_MILLIS: &str = "epoch_millis";
pub(crate) const NANO_OF_MILLI: &str = "nano_of_milli";

/// The Arrow field of a decoded column: nullable (Flink does not check NOT NULL on read) except
/// map keys.
pub(crate) fn arrow_field(name: &str, ty: &DataType) -> Result<Field> {
    Ok(Field::new(name, arrow_type(&ty.logical)?, true))
}

fn arrow_type(ty: &LogicalType) -> Result<ArrowType> {
    Ok(match ty {
        LogicalType::Boolean => ArrowType::Boolean,
        LogicalType::TinyInt => ArrowType::Int8,
        LogicalType::SmallInt => ArrowType::Int16,
        LogicalType::Int | LogicalType::Interval { kind: IntervalKind::YearMonth, .. } => ArrowType::Int32,
        LogicalType::BigInt | LogicalType::Interval { .. } => ArrowType::Int64,
        LogicalType::Float => ArrowType::Float32,
        LogicalType::Double => ArrowType::Float64,
        LogicalType::Decimal { precision, scale } => ArrowType::Decimal128(*precision, *scale as i8),
        LogicalType::Char { .. } | LogicalType::VarChar { .. } => ArrowType::Utf8,
        LogicalType::Binary { .. } | LogicalType::VarBinary { .. } => ArrowType::Binary,
        LogicalType::Date => ArrowType::Date32,
        LogicalType::Time { precision } => match precision {
            0 => ArrowType::Time32(TimeUnit::Second),
            1..=3 => ArrowType::Time32(TimeUnit::Millisecond),
            4..=6 => ArrowType::Time64(TimeUnit::Microsecond),
            _ => ArrowType::Time64(TimeUnit::Nanosecond),
        },
        LogicalType::Timestamp { precision } | LogicalType::TimestampLtz { precision } => match precision {
            0 => ArrowType::Timestamp(TimeUnit::Second, None),
            1..=3 => ArrowType::Timestamp(TimeUnit::Millisecond, None),
            4..=6 => ArrowType::Timestamp(TimeUnit::Microsecond, None),
            _ => ArrowType::Struct(timestamp_parts()),
        },
        LogicalType::Array(element) => ArrowType::List(Arc::new(arrow_field("element", element)?)),
        LogicalType::Map { key, value } => map_type(key, value)?,
        LogicalType::Multiset(element) => map_type(element, &DataType::nullable(LogicalType::Int))?,
        LogicalType::Row(fields) => ArrowType::Struct(
            fields.iter().map(|f| arrow_field(&f.name, &f.data_type)).collect::<Result<Vec<_>>>()?.into(),
        ),
        LogicalType::Unsupported { text, .. } => {
            return Err(KjsonError::type_error(format!("the JSON format cannot read type {text}")))
        }
    })
}

fn timestamp_parts() -> Fields {
    vec![Field::new(EPOCH_MILLIS, ArrowType::Int64, false), Field::new(NANO_OF_MILLI, ArrowType::Int32, false)].into()
}

fn map_type(key: &DataType, value: &DataType) -> Result<ArrowType> {
    let key = Field::new("key", arrow_type(&key.logical)?, false);
    let entries = Field::new("items", ArrowType::Struct(vec![key, arrow_field("value", value)?].into()), false);
    Ok(ArrowType::Map(Arc::new(entries), false))
}

/// The array of `values` (one per row) for a column of type `ty` laid out as `arrow_type`.
pub(crate) fn build(ty: &LogicalType, arrow: &ArrowType, values: &[&Value]) -> ArrayRef {
    macro_rules! primitive {
        ($builder:ty, $pattern:pat => $out:expr) => {{
            let mut builder = <$builder>::with_capacity(values.len());
            for value in values {
                match value {
                    $pattern => builder.append_value($out),
                    _ => builder.append_null(),
                }
            }
            Arc::new(builder.finish()) as ArrayRef
        }};
    }
    match (ty, arrow) {
        (LogicalType::Boolean, _) => primitive!(BooleanBuilder, Value::Bool(v) => *v),
        (LogicalType::TinyInt, _) => primitive!(Int8Builder, Value::Int(v) => *v as i8),
        (LogicalType::SmallInt, _) => primitive!(Int16Builder, Value::Int(v) => *v as i16),
        (_, ArrowType::Int32) => primitive!(Int32Builder, Value::Int(v) => *v as i32),
        (_, ArrowType::Int64) => primitive!(Int64Builder, Value::Int(v) => *v),
        (LogicalType::Float, _) => primitive!(Float32Builder, Value::Float(v) => *v),
        (LogicalType::Double, _) => primitive!(Float64Builder, Value::Double(v) => *v),
        (LogicalType::Char { .. } | LogicalType::VarChar { .. }, _) => {
            let total = values.iter().map(|v| if let Value::Text(bytes) = v { bytes.len() } else { 0 }).sum();
            let mut builder = BinaryBuilder::with_capacity(values.len(), total);
            for value in values {
                match value {
                    Value::Text(bytes) => builder.append_value(bytes),
                    _ => builder.append_null(),
                }
            }
            // Java's getBytes(UTF_8) always gives valid UTF-8: checked once for the column.
            Arc::new(StringArray::try_from_binary(builder.finish()).expect("decoded text is UTF-8"))
        }
        (LogicalType::Binary { .. } | LogicalType::VarBinary { .. }, _) => {
            let mut builder = BinaryBuilder::with_capacity(values.len(), 0);
            for value in values {
                match value {
                    Value::Bytes(bytes) => builder.append_value(bytes),
                    _ => builder.append_null(),
                }
            }
            Arc::new(builder.finish())
        }
        (LogicalType::Date, _) => primitive!(Date32Builder, Value::Date(v) => *v),
        (LogicalType::Decimal { precision, scale }, _) => {
            let array: Decimal128Array =
                values.iter().map(|v| if let Value::Decimal(d) = v { Some(*d) } else { None }).collect();
            Arc::new(array.with_precision_and_scale(*precision, *scale as i8).expect("valid decimal type"))
        }
        (LogicalType::Time { .. }, _) => time_array(arrow, values),
        (LogicalType::Timestamp { .. } | LogicalType::TimestampLtz { .. }, _) => timestamp_array(arrow, values),
        (LogicalType::Array(element), ArrowType::List(field)) => {
            let mut items = Vec::new();
            let mut offsets = vec![0i32];
            for value in values {
                if let Value::List(list) = value {
                    items.extend(list.iter());
                }
                offsets.push(items.len() as i32);
            }
            let child = build(&element.logical, field.data_type(), &items);
            let nulls = nulls(values, |v| matches!(v, Value::List(_)));
            Arc::new(ListArray::new(field.clone(), OffsetBuffer::new(offsets.into()), child, nulls))
        }
        (LogicalType::Map { key, .. } | LogicalType::Multiset(key), ArrowType::Map(entries, _)) => {
            let value_type = match ty {
                LogicalType::Map { value, .. } => value.logical.clone(),
                _ => LogicalType::Int,
            };
            map_array(&key.logical, &value_type, entries, values)
        }
        (LogicalType::Row(fields), ArrowType::Struct(arrow_fields)) => {
            let columns = fields
                .iter()
                .zip(arrow_fields.iter())
                .enumerate()
                .map(|(i, (f, af))| {
                    let column: Vec<&Value> = values
                        .iter()
                        .map(|v| match v {
                            Value::Row(row) => &row[i],
                            _ => &Value::Null,
                        })
                        .collect();
                    build(&f.data_type.logical, af.data_type(), &column)
                })
                .collect();
            let nulls = nulls(values, |v| matches!(v, Value::Row(_)));
            Arc::new(StructArray::new(arrow_fields.clone(), columns, nulls))
        }
        _ => unreachable!("arrow_type gives every type its layout"),
    }
}

fn nulls(values: &[&Value], present: impl Fn(&Value) -> bool) -> Option<NullBuffer> {
    let validity: NullBuffer = values.iter().map(|v| present(v)).collect::<Vec<bool>>().into();
    (validity.null_count() > 0).then_some(validity)
}

fn map_array(key: &LogicalType, value: &LogicalType, entries: &Arc<Field>, values: &[&Value]) -> ArrayRef {
    let mut keys = Vec::new();
    let mut items = Vec::new();
    let mut offsets = vec![0i32];
    for v in values {
        if let Value::Map(map) = v {
            for (k, item) in map {
                keys.push(k);
                items.push(item);
            }
        }
        offsets.push(keys.len() as i32);
    }
    let ArrowType::Struct(entry_fields) = entries.data_type() else { unreachable!("map entries are a struct") };
    let key_array = build(key, entry_fields[0].data_type(), &keys);
    let value_array = build(value, entry_fields[1].data_type(), &items);
    let entry_array = StructArray::new(entry_fields.clone(), vec![key_array, value_array], None);
    let nulls = nulls(values, |v| matches!(v, Value::Map(_)));
    Arc::new(MapArray::new(entries.clone(), OffsetBuffer::new(offsets.into()), entry_array, nulls, false))
}

fn time_array(arrow: &ArrowType, values: &[&Value]) -> ArrayRef {
    let millis = values.iter().map(|v| if let Value::Time(t) = v { Some(*t) } else { None });
    match arrow {
        ArrowType::Time32(TimeUnit::Second) => {
            Arc::new(millis.map(|m| m.map(|m| m / 1000)).collect::<Time32SecondArray>())
        }
        ArrowType::Time32(_) => Arc::new(millis.collect::<Time32MillisecondArray>()),
        ArrowType::Time64(TimeUnit::Microsecond) => {
            Arc::new(millis.map(|m| m.map(|m| i64::from(m) * 1000)).collect::<Time64MicrosecondArray>())
        }
        _ => Arc::new(millis.map(|m| m.map(|m| i64::from(m) * 1_000_000)).collect::<Time64NanosecondArray>()),
    }
}

fn timestamp_array(arrow: &ArrowType, values: &[&Value]) -> ArrayRef {
    let parts = values.iter().map(|v| match v {
        Value::Timestamp { millis, nano_of_milli } => Some((*millis, *nano_of_milli)),
        _ => None,
    });
    match arrow {
        ArrowType::Timestamp(TimeUnit::Second, _) => {
            Arc::new(parts.map(|p| p.map(|(m, _)| m.div_euclid(1000))).collect::<TimestampSecondArray>())
        }
        ArrowType::Timestamp(TimeUnit::Millisecond, _) => {
            Arc::new(parts.map(|p| p.map(|(m, _)| m)).collect::<TimestampMillisecondArray>())
        }
        ArrowType::Timestamp(_, _) => Arc::new(
            parts.map(|p| p.map(|(m, n)| m * 1000 + i64::from(n) / 1000)).collect::<TimestampMicrosecondArray>(),
        ),
        _ => {
            let (millis, nanos): (Vec<i64>, Vec<i32>) = parts.clone().map(|p| p.unwrap_or((0, 0))).unzip();
            let nulls = nulls(values, |v| matches!(v, Value::Timestamp { .. }));
            let columns: Vec<ArrayRef> =
                vec![Arc::new(arrow_array::Int64Array::from(millis)), Arc::new(arrow_array::Int32Array::from(nanos))];
            Arc::new(StructArray::new(timestamp_parts(), columns, nulls))
        }
    }
}
