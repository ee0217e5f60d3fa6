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
use arrow_buffer::{BooleanBuffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType as ArrowType, Field, Fields, TimeUnit};

use super::columns::{Blobs, Cells, Column, Nested};
use super::TimestampLayout;
use crate::error::{KjsonError, Result};
use crate::types::{DataType, IntervalKind, LogicalType};

pub(crate) const EPOCH_MILLIS: &str = "epoch_millis";
pub(crate) const NANO_OF_MILLI: &str = "nano_of_milli";

/// The Arrow field of a decoded column: nullable (Flink does not check NOT NULL on read) except
/// map keys.
pub(crate) fn arrow_field(name: &str, ty: &DataType, timestamps: TimestampLayout) -> Result<Field> {
    Ok(Field::new(name, arrow_type(&ty.logical, timestamps)?, true))
}

fn arrow_type(ty: &LogicalType, timestamps: TimestampLayout) -> Result<ArrowType> {
    let field = |name: &str, ty: &DataType| arrow_field(name, ty, timestamps);
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
        LogicalType::Timestamp { precision } | LogicalType::TimestampLtz { precision } => {
            timestamp_type(*precision, timestamps)
        }
        LogicalType::Array(element) => ArrowType::List(Arc::new(field("element", element)?)),
        LogicalType::Map { key, value } => map_type(key, value, timestamps)?,
        LogicalType::Multiset(element) => map_type(element, &DataType::nullable(LogicalType::Int), timestamps)?,
        LogicalType::Row(fields) => {
            ArrowType::Struct(fields.iter().map(|f| field(&f.name, &f.data_type)).collect::<Result<Vec<_>>>()?.into())
        }
        LogicalType::Unsupported { text, .. } => {
            return Err(KjsonError::type_error(format!("the JSON format cannot read type {text}")))
        }
    })
}

fn timestamp_type(precision: u8, timestamps: TimestampLayout) -> ArrowType {
    match (precision, timestamps) {
        (0, TimestampLayout::ByPrecision) => ArrowType::Timestamp(TimeUnit::Second, None),
        (0..=3, _) => ArrowType::Timestamp(TimeUnit::Millisecond, None),
        (4..=6, TimestampLayout::ByPrecision) => ArrowType::Timestamp(TimeUnit::Microsecond, None),
        _ => ArrowType::Struct(timestamp_parts()),
    }
}

pub(crate) fn timestamp_parts() -> Fields {
    vec![Field::new(EPOCH_MILLIS, ArrowType::Int64, false), Field::new(NANO_OF_MILLI, ArrowType::Int32, false)].into()
}

fn map_type(key: &DataType, value: &DataType, timestamps: TimestampLayout) -> Result<ArrowType> {
    let key = Field::new("key", arrow_type(&key.logical, timestamps)?, false);
    let value = arrow_field("value", value, timestamps)?;
    let entries = Field::new("items", ArrowType::Struct(vec![key, value].into()), false);
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
    if !valid.contains(&false) {
        return None;
    }
    // Eight cells a byte by one multiplication (arrow's `From<Vec<bool>>` sets a bit at a time):
    // cell k's 0 or 1 in byte k of the word lands in bit 56 + k of the product, with no carry.
    let bits: Vec<u8> = valid
        .chunks(8)
        .map(|cells| {
            let mut word = [0u8; 8];
            word.iter_mut().zip(cells).for_each(|(byte, &cell)| *byte = u8::from(cell));
            (u64::from_le_bytes(word).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
        })
        .collect();
    Some(NullBuffer::new(BooleanBuffer::new(bits.into(), 0, valid.len())))
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

#[cfg(test)]
mod tests {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{TimestampMicrosecondType, TimestampMillisecondType, TimestampSecondType};

    use super::super::{Decoder, RecordSide, TimestampLayout};
    use crate::options::Compatibility;
    use crate::spec::SinkSpec;

    const DDL: &str = "CREATE TABLE t (ts0 TIMESTAMP(0), ts6 TIMESTAMP_LTZ(6), ts9 TIMESTAMP(9)) WITH ('connector' = \
                       'kafka', 'topic' = 't', 'format' = 'json')";
    const RECORD: &[u8] =
        br#"{"ts0":"1969-12-31 23:59:59.987","ts6":"2024-02-29 23:59:58.123456789Z","ts9":"1970-01-01 00:00:00.5"}"#;

    fn decoded(timestamps: TimestampLayout) -> arrow_array::RecordBatch {
        let spec = SinkSpec::from_source_ddl(DDL).expect("ddl");
        let mut decoder = Decoder::open(spec, Compatibility::default()).expect("open");
        decoder.set_timestamp_layout(timestamps).expect("layout");
        let values = RecordSide { data: RECORD, offsets: &[0], lengths: &[RECORD.len() as i32] };
        decoder.decode(None, values).expect("decode").batch
    }

    /// (epoch millis, nanos of the milli) of a parts struct's row 0.
    fn parts(batch: &arrow_array::RecordBatch, column: usize) -> (i64, i32) {
        let parts = batch.column(column).as_struct();
        let millis = parts.column(0).as_primitive::<arrow_array::types::Int64Type>().value(0);
        (millis, parts.column(1).as_primitive::<arrow_array::types::Int32Type>().value(0))
    }

    #[test]
    fn by_precision_cuts_the_digits_past_the_unit() {
        let batch = decoded(TimestampLayout::ByPrecision);
        assert_eq!(batch.column(0).as_primitive::<TimestampSecondType>().value(0), -1);
        assert_eq!(batch.column(1).as_primitive::<TimestampMicrosecondType>().value(0), 1_709_251_198_123_456);
        assert_eq!(parts(&batch, 2), (500, 0));
    }

    #[test]
    fn as_flink_rows_keeps_the_millis_to_precision_3_and_every_digit_above() {
        let batch = decoded(TimestampLayout::AsFlinkRows);
        assert_eq!(batch.column(0).as_primitive::<TimestampMillisecondType>().value(0), -13);
        assert_eq!(parts(&batch, 1), (1_709_251_198_123, 456_789));
        assert_eq!(parts(&batch, 2), (500, 0));
    }

    #[test]
    fn packed_validity_is_arrows() {
        let mut seed = 5u64;
        for len in 0..70 {
            let valid: Vec<bool> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    seed >> 62 != 0
                })
                .collect();
            let arrows = arrow_buffer::NullBuffer::from(valid.clone());
            assert_eq!(super::nulls(valid), (arrows.null_count() > 0).then_some(arrows));
        }
    }
}
