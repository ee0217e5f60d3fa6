//! Rows for any sink DDL, drawn from its column types in the Arrow layout Flink's `ArrowUtils`
//! writes (the `nested` and `wide` bench sinks): plausible values (short words, recent
//! timestamps, small collections) with a few nulls wherever a type is nullable. Deterministic
//! from the seed, built before anything is timed.
use std::sync::Arc;

use arrow_array::types::{
    Int32Type, Int64Type, Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType,
};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, BinaryArray, BooleanArray, Date32Array, Decimal128Array, FixedSizeBinaryArray,
    Float32Array, Float64Array, Int16Array, Int8Array, ListArray, MapArray, PrimitiveArray, RecordBatch, StringArray,
    StructArray,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{Field, Fields, Schema};
use kjson_arrow::runtime::{DataType, IntervalKind, LogicalType, SinkSpec};

use crate::nexmark::rng::SplitMix64;
use crate::nexmark::NexmarkBatch;

/// Chance of a null in a nullable value, in 1/100.
const NULL_PERCENT: u32 = 5;

/// A batch of `rows` rows with the columns of `spec`.
pub fn spec_batch(spec: &SinkSpec, rng: &mut SplitMix64, rows: usize) -> Result<NexmarkBatch, String> {
    let mut fields = Vec::new();
    let mut columns = Vec::new();
    for column in &spec.columns {
        let array = typed_array(&column.data_type, rows, rng)?;
        fields.push(Field::new(&column.name, array.data_type().clone(), column.data_type.nullable));
        columns.push(array);
    }
    let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).map_err(|e| e.to_string())?;
    Ok(NexmarkBatch { batch, row_kinds: None })
}

fn validity(ty: &DataType, rows: usize, rng: &mut SplitMix64) -> Option<NullBuffer> {
    ty.nullable.then(|| NullBuffer::from_iter((0..rows).map(|_| rng.next_below(100) >= NULL_PERCENT)))
}

fn primitive<T: ArrowPrimitiveType>(
    rows: usize,
    nulls: Option<NullBuffer>,
    mut draw: impl FnMut() -> T::Native,
) -> ArrayRef {
    Arc::new(PrimitiveArray::<T>::new((0..rows).map(|_| draw()).collect(), nulls))
}

/// An array of `rows` values of type `ty`.
fn typed_array(ty: &DataType, rows: usize, rng: &mut SplitMix64) -> Result<ArrayRef, String> {
    use LogicalType as L;
    let nulls = validity(ty, rows, rng);
    let array: ArrayRef = match &ty.logical {
        L::Boolean => Arc::new(BooleanArray::new((0..rows).map(|_| rng.next_below(2) == 0).collect(), nulls)),
        L::TinyInt => Arc::new(Int8Array::new((0..rows).map(|_| rng.next_below(200) as i8).collect(), nulls)),
        L::SmallInt => Arc::new(Int16Array::new((0..rows).map(|_| rng.next_below(30_000) as i16).collect(), nulls)),
        L::Int | L::Interval { kind: IntervalKind::YearMonth, .. } => {
            primitive::<Int32Type>(rows, nulls, || rng.next_below(1_000_000) as i32)
        }
        L::BigInt => primitive::<Int64Type>(rows, nulls, || rng.next_long_below(10_000_000_000)),
        L::Interval { kind: IntervalKind::DayTime, .. } => {
            primitive::<Int64Type>(rows, nulls, || rng.next_long_below(864_000_000))
        }
        L::Float => {
            Arc::new(Float32Array::new((0..rows).map(|_| rng.next_below(10_000) as f32 / 10.0).collect(), nulls))
        }
        L::Double => {
            Arc::new(Float64Array::new((0..rows).map(|_| rng.next_below(1_000_000) as f64 / 100.0).collect(), nulls))
        }
        L::Decimal { precision, scale } => decimals(*precision, *scale, rows, nulls, rng)?,
        L::Char { length } | L::VarChar { length } => strings(*length, rows, nulls, rng),
        L::Binary { length } => fixed_binaries(*length, rows, nulls, rng)?,
        L::VarBinary { length } => binaries(*length, rows, nulls, rng),
        L::Date => Arc::new(Date32Array::new((0..rows).map(|_| 19_000 + rng.next_below(2000) as i32).collect(), nulls)),
        L::Time { precision } => times(*precision, rows, nulls, rng),
        L::Timestamp { precision } | L::TimestampLtz { precision } => timestamps(*precision, rows, nulls, rng),
        L::Array(element) => list(element, rows, nulls, rng)?,
        L::Map { key, value } => map(key, value, rows, nulls, rng)?,
        L::Multiset(element) => map(element, &DataType::not_null(LogicalType::Int), rows, nulls, rng)?,
        L::Row(fields) => {
            let mut children = Vec::new();
            for field in fields {
                let child = typed_array(&field.data_type, rows, rng)?;
                children.push((Field::new(&field.name, child.data_type().clone(), field.data_type.nullable), child));
            }
            let (fields, arrays): (Vec<_>, Vec<_>) = children.into_iter().unzip();
            Arc::new(StructArray::try_new(Fields::from(fields), arrays, nulls).map_err(|e| e.to_string())?)
        }
        L::Unsupported { text } => return Err(format!("no Arrow layout for {text}")),
    };
    Ok(array)
}

fn decimals(
    precision: u8,
    scale: u8,
    rows: usize,
    nulls: Option<NullBuffer>,
    rng: &mut SplitMix64,
) -> Result<ArrayRef, String> {
    // Amounts of up to 9 integer digits, at most the column's precision.
    let bound = 10i128.pow(u32::from(precision.min(scale + 9)));
    let values = (0..rows).map(|_| i128::from(rng.next_u64()) % bound - bound / 4).collect::<Vec<_>>();
    let array = Decimal128Array::new(values.into(), nulls)
        .with_precision_and_scale(precision, scale as i8)
        .map_err(|e| format!("DECIMAL({precision}, {scale}): {e}"))?;
    Ok(Arc::new(array))
}

const WORDS: [&str; 12] =
    ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "kilo", "lima"];

/// One or two words, cut to the declared length.
fn strings(length: u32, rows: usize, nulls: Option<NullBuffer>, rng: &mut SplitMix64) -> ArrayRef {
    let texts: Vec<Option<String>> = (0..rows)
        .map(|row| {
            let mut text = WORDS[rng.next_below(12) as usize].to_string();
            if rng.next_below(2) == 0 {
                text.push(' ');
                text.push_str(WORDS[rng.next_below(12) as usize]);
            }
            text.truncate(length as usize);
            nulls.as_ref().is_none_or(|n| n.is_valid(row)).then_some(text)
        })
        .collect();
    Arc::new(StringArray::from(texts))
}

fn fixed_binaries(
    length: u32,
    rows: usize,
    nulls: Option<NullBuffer>,
    rng: &mut SplitMix64,
) -> Result<ArrayRef, String> {
    let size = length.min(64) as i32;
    let values = (0..rows).map(|row| {
        let valid = nulls.as_ref().is_none_or(|n| n.is_valid(row));
        valid.then(|| (0..size).map(|_| rng.next_u64() as u8).collect::<Vec<_>>())
    });
    let values: Vec<_> = values.collect();
    let array = FixedSizeBinaryArray::try_from_sparse_iter_with_size(values.into_iter(), size)
        .map_err(|e| format!("BINARY({length}): {e}"))?;
    Ok(Arc::new(array))
}

fn binaries(length: u32, rows: usize, nulls: Option<NullBuffer>, rng: &mut SplitMix64) -> ArrayRef {
    let values: Vec<Option<Vec<u8>>> = (0..rows)
        .map(|row| {
            let len = rng.next_below(length.min(16) + 1);
            let bytes = (0..len).map(|_| rng.next_u64() as u8).collect();
            nulls.as_ref().is_none_or(|n| n.is_valid(row)).then_some(bytes)
        })
        .collect();
    Arc::new(BinaryArray::from_iter(values))
}

/// TIME(p) in the unit `ArrowUtils` picks for `p`.
fn times(precision: u8, rows: usize, nulls: Option<NullBuffer>, rng: &mut SplitMix64) -> ArrayRef {
    let mut millis = || i64::from(rng.next_below(86_400_000));
    match precision {
        0 => primitive::<Time32SecondType>(rows, nulls, || (millis() / 1000) as i32),
        1..=3 => primitive::<Time32MillisecondType>(rows, nulls, || millis() as i32),
        4..=6 => primitive::<Time64MicrosecondType>(rows, nulls, || millis() * 1000),
        _ => primitive::<Time64NanosecondType>(rows, nulls, || millis() * 1_000_000 + 123),
    }
}

/// TIMESTAMP(p) and TIMESTAMP_LTZ(p): event times in 2024, a few per second.
fn timestamps(precision: u8, rows: usize, nulls: Option<NullBuffer>, rng: &mut SplitMix64) -> ArrayRef {
    let start = 1_704_067_200_000i64 + i64::from(rng.next_below(1 << 30));
    let mut micros = (0..rows as i64).map(move |row| (start + row * 250) * 1000 + 17);
    let mut next = || micros.next().unwrap_or(0);
    match precision {
        0 => primitive::<TimestampSecondType>(rows, nulls, || next() / 1_000_000),
        1..=3 => primitive::<TimestampMillisecondType>(rows, nulls, || next() / 1000),
        4..=6 => primitive::<TimestampMicrosecondType>(rows, nulls, next),
        _ => primitive::<TimestampNanosecondType>(rows, nulls, || next() * 1000 + 9),
    }
}

/// Offsets of `rows` collections of 0 to 3 entries each.
fn offsets(rows: usize, nulls: &Option<NullBuffer>, rng: &mut SplitMix64) -> OffsetBuffer<i32> {
    let lengths = (0..rows).map(|row| {
        let valid = nulls.as_ref().is_none_or(|n| n.is_valid(row));
        if valid {
            rng.next_below(4) as usize
        } else {
            0
        }
    });
    OffsetBuffer::from_lengths(lengths.collect::<Vec<_>>())
}

fn list(element: &DataType, rows: usize, nulls: Option<NullBuffer>, rng: &mut SplitMix64) -> Result<ArrayRef, String> {
    let offsets = offsets(rows, &nulls, rng);
    let values = typed_array(element, offsets.last() as usize, rng)?;
    let field = Arc::new(Field::new("element", values.data_type().clone(), element.nullable));
    Ok(Arc::new(ListArray::try_new(field, offsets, values, nulls).map_err(|e| e.to_string())?))
}

fn map(
    key: &DataType,
    value: &DataType,
    rows: usize,
    nulls: Option<NullBuffer>,
    rng: &mut SplitMix64,
) -> Result<ArrayRef, String> {
    let offsets = offsets(rows, &nulls, rng);
    let entries = offsets.last() as usize;
    // Arrow's map keys are never null.
    let keys = typed_array(&DataType { logical: key.logical.clone(), nullable: false }, entries, rng)?;
    let values = typed_array(value, entries, rng)?;
    let fields = Fields::from(vec![
        Field::new("key", keys.data_type().clone(), false),
        Field::new("value", values.data_type().clone(), value.nullable),
    ]);
    let entries = StructArray::try_new(fields.clone(), vec![keys, values], None).map_err(|e| e.to_string())?;
    let field = Arc::new(Field::new_struct("entries", fields, false));
    Ok(Arc::new(MapArray::try_new(field, offsets, entries, nulls, false).map_err(|e| e.to_string())?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_and_wide_rows_match_their_sinks_and_hold_some_nulls() {
        for ddl in [include_str!("../../../../schemas/nested.sql"), include_str!("../../../../schemas/wide.sql")] {
            let spec = SinkSpec::from_ddl(ddl).unwrap();
            let batch = spec_batch(&spec, &mut SplitMix64::new(3), 1000).unwrap().batch;
            assert_eq!(batch.num_columns(), spec.columns.len());
            let nulls: usize = batch.columns().iter().map(|c| c.null_count()).sum();
            assert!(nulls > 0, "{}", spec.table_name);
        }
    }
}
