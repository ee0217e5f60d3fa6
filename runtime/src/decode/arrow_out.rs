//! The Arrow layout of decoded rows (the layout the encoder takes: Flink's own mapping) and the
//! arrays made from a batch's decoded columns.
use std::sync::Arc;

use arrow_array::types::{
    Date32Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type, Time32MillisecondType,
    Time32SecondType, Time64MicrosecondType, Time64NanosecondType, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampSecondType,
};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, BinaryArray, BooleanArray, Decimal128Array, Int32Array, Int64Array, ListArray,
    MapArray, PrimitiveArray, StringArray, StructArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType as ArrowType, Field, Fields, TimeUnit};

use super::columns::{Blobs, Cells, Column, Nested};
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

pub(crate) fn timestamp_parts() -> Fields {
    vec![Field::new(EPOCH_MILLIS, ArrowType::Int64, false), Field::new(NANO_OF_MILLI, ArrowType::Int32, false)].into()
}

fn map_type(key: &DataType, value: &DataType) -> Result<ArrowType> {
    let key = Field::new("key", arrow_type(&key.logical)?, false);
    let entries = Field::new("items", ArrowType::Struct(vec![key, arrow_field("value", value)?].into()), false);
    Ok(ArrowType::Map(Arc::new(entries), false))
}

/// The array of a decoded column laid out as `arrow` (the layout [`arrow_field`] gave its type).
pub(crate) fn finish(column: Column, arrow: &ArrowType) -> ArrayRef {
    match (column, arrow) {
        (Column::Boolean(c), _) => Arc::new(BooleanArray::new(c.values.into_iter().collect(), nulls(c.valid))),
        (Column::Int8(c), _) => primitive::<Int8Type>(c.values, c.valid),
        (Column::Int16(c), _) => primitive::<Int16Type>(c.values, c.valid),
        (Column::Int32(c), _) => primitive::<Int32Type>(c.values, c.valid),
        (Column::Int64(c), _) => primitive::<Int64Type>(c.values, c.valid),
        (Column::Float32(c), _) => primitive::<Float32Type>(c.values, c.valid),
        (Column::Float64(c), _) => primitive::<Float64Type>(c.values, c.valid),
        (Column::Date(c), _) => primitive::<Date32Type>(c.values, c.valid),
        (Column::Decimal(c), ArrowType::Decimal128(precision, scale)) => Arc::new(
            Decimal128Array::new(c.values.into(), nulls(c.valid))
                .with_precision_and_scale(*precision, *scale)
                .expect("valid decimal type"),
        ),
        (Column::Time(c), _) => time_array(arrow, c),
        (Column::Timestamp(c), _) => timestamp_array(arrow, c),
        (Column::Text(b), _) => {
            let Blobs { data, offsets, valid } = b;
            // Java's getBytes(UTF_8) always gives valid UTF-8: checked once for the column.
            Arc::new(
                StringArray::try_new(OffsetBuffer::new(offsets.into()), data.into(), nulls(valid))
                    .expect("decoded text is UTF-8"),
            )
        }
        (Column::Bytes(b), _) => {
            let Blobs { data, offsets, valid } = b;
            Arc::new(BinaryArray::new(OffsetBuffer::new(offsets.into()), data.into(), nulls(valid)))
        }
        (Column::List(list), ArrowType::List(field)) => {
            let Nested { offsets, valid, child } = *list;
            let child = finish(child, field.data_type());
            Arc::new(ListArray::new(field.clone(), OffsetBuffer::new(offsets.into()), child, nulls(valid)))
        }
        (Column::Map(map), ArrowType::Map(entries, _)) => map_array(*map, entries),
        (Column::Row { valid, children }, ArrowType::Struct(fields)) => {
            let columns = children.into_iter().zip(fields.iter()).map(|(c, f)| finish(c, f.data_type())).collect();
            Arc::new(StructArray::new(fields.clone(), columns, nulls(valid)))
        }
        _ => unreachable!("a column is made from the type its layout comes from"),
    }
}

fn primitive<T: ArrowPrimitiveType>(values: Vec<T::Native>, valid: Vec<bool>) -> ArrayRef {
    Arc::new(PrimitiveArray::<T>::new(ScalarBuffer::from(values), nulls(valid)))
}

fn nulls(valid: Vec<bool>) -> Option<NullBuffer> {
    let validity: NullBuffer = valid.into();
    (validity.null_count() > 0).then_some(validity)
}

fn map_array(map: Nested<[Column; 2]>, entries: &Arc<Field>) -> ArrayRef {
    let Nested { offsets, valid, child: [keys, values] } = map;
    let ArrowType::Struct(entry_fields) = entries.data_type() else { unreachable!("map entries are a struct") };
    let key_array = finish(keys, entry_fields[0].data_type());
    let value_array = finish(values, entry_fields[1].data_type());
    let entry_array = StructArray::new(entry_fields.clone(), vec![key_array, value_array], None);
    Arc::new(MapArray::new(entries.clone(), OffsetBuffer::new(offsets.into()), entry_array, nulls(valid), false))
}

fn time_array(arrow: &ArrowType, millis: Cells<i32>) -> ArrayRef {
    let Cells { values, valid } = millis;
    match arrow {
        ArrowType::Time32(TimeUnit::Second) => {
            primitive::<Time32SecondType>(values.into_iter().map(|m| m / 1000).collect(), valid)
        }
        ArrowType::Time32(_) => primitive::<Time32MillisecondType>(values, valid),
        ArrowType::Time64(TimeUnit::Microsecond) => {
            primitive::<Time64MicrosecondType>(values.into_iter().map(|m| i64::from(m) * 1000).collect(), valid)
        }
        _ => primitive::<Time64NanosecondType>(values.into_iter().map(|m| i64::from(m) * 1_000_000).collect(), valid),
    }
}

fn timestamp_array(arrow: &ArrowType, parts: Cells<(i64, i32)>) -> ArrayRef {
    let Cells { values, valid } = parts;
    match arrow {
        ArrowType::Timestamp(TimeUnit::Second, _) => {
            primitive::<TimestampSecondType>(values.into_iter().map(|(m, _)| m.div_euclid(1000)).collect(), valid)
        }
        ArrowType::Timestamp(TimeUnit::Millisecond, _) => {
            primitive::<TimestampMillisecondType>(values.into_iter().map(|(m, _)| m).collect(), valid)
        }
        ArrowType::Timestamp(_, _) => primitive::<TimestampMicrosecondType>(
            values.into_iter().map(|(m, n)| m * 1000 + i64::from(n) / 1000).collect(),
            valid,
        ),
        _ => {
            let (millis, nanos): (Vec<i64>, Vec<i32>) = values.into_iter().unzip();
            let columns: Vec<ArrayRef> = vec![Arc::new(Int64Array::from(millis)), Arc::new(Int32Array::from(nanos))];
            Arc::new(StructArray::new(timestamp_parts(), columns, nulls(valid)))
        }
    }
}
