//! Arrow arrays for a [`Layout`]: random nulls at every level (none, all, some, or a validity
//! buffer with no null in it), arrays sliced at every level (non-zero offsets), the values of
//! [`crate::values`].
use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_buffer::{Buffer, IntervalDayTime, NullBuffer, OffsetBuffer};
use arrow_schema::{DataType as ArrowType, Field, Fields, TimeUnit};

use crate::choices::Choices;
use crate::layout::{BytesLayout, DayTimeLayout, Layout, ListLayout, RowField, StrLayout};
use crate::shape::Shape;
use crate::values::{self, day, float32, float64, int};

/// At most this many entries in one list or map, so that nesting stays small.
const MAX_ENTRIES: usize = 4;

/// An array of `len` values in `layout`, sometimes a slice of a longer one; nulls only if
/// `nullable`.
pub fn array(c: &mut dyn Choices, layout: &Layout, len: usize, nullable: bool, shape: &Shape) -> ArrayRef {
    if c.chance(200) {
        let (front, back) = (c.up_to(3), c.up_to(2));
        return plain_array(c, layout, front + len + back, nullable, shape).slice(front, len);
    }
    plain_array(c, layout, len, nullable, shape)
}

fn validity(c: &mut dyn Choices, len: usize, nullable: bool, shape: &Shape) -> Option<NullBuffer> {
    if !nullable {
        return None;
    }
    match (shape.null_per_mille, c.below(10)) {
        (_, 0) => Some(NullBuffer::new_valid(len)),
        (0, _) => None,
        (_, 1) => Some(NullBuffer::new_null(len)),
        (per_mille, _) => Some(NullBuffer::from_iter((0..len).map(|_| !c.chance(per_mille)))),
    }
}

fn is_valid(nulls: &Option<NullBuffer>, i: usize) -> bool {
    nulls.as_ref().is_none_or(|n| n.is_valid(i))
}

fn plain_array(c: &mut dyn Choices, layout: &Layout, len: usize, nullable: bool, shape: &Shape) -> ArrayRef {
    let nulls = validity(c, len, nullable || shape.nulls_in_not_null, shape);
    let refused = shape.refused_values;
    match layout {
        Layout::Bool => Arc::new(BooleanArray::new((0..len).map(|_| c.chance(500)).collect(), nulls)),
        Layout::I8 => Arc::new(Int8Array::new((0..len).map(|_| int(c) as i8).collect(), nulls)),
        Layout::I16 => Arc::new(Int16Array::new((0..len).map(|_| int(c) as i16).collect(), nulls)),
        Layout::I32 | Layout::YearMonth { interval: false } => {
            Arc::new(Int32Array::new((0..len).map(|_| int(c) as i32).collect(), nulls))
        }
        Layout::YearMonth { interval: true } => {
            Arc::new(IntervalYearMonthArray::new((0..len).map(|_| int(c) as i32).collect(), nulls))
        }
        Layout::I64 | Layout::DayTime(DayTimeLayout::Millis) => {
            Arc::new(Int64Array::new((0..len).map(|_| int(c)).collect(), nulls))
        }
        Layout::F32 => Arc::new(Float32Array::new((0..len).map(|_| float32(c)).collect(), nulls)),
        Layout::F64 => Arc::new(Float64Array::new((0..len).map(|_| float64(c)).collect(), nulls)),
        Layout::Decimal { precision, scale } => {
            let values: Vec<i128> = (0..len).map(|_| values::decimal(c, *precision, *scale)).collect();
            let array = Decimal128Array::new(values.into(), nulls).with_precision_and_scale(*precision, *scale as i8);
            Arc::new(array.expect("valid decimal"))
        }
        Layout::Str { layout, .. } => {
            let clean_column = c.chance(300);
            let texts: Vec<Option<String>> = (0..len)
                .map(|i| {
                    let text = values::text(c, shape.long_text_per_mille);
                    is_valid(&nulls, i).then(|| if clean_column { values::clean(text) } else { text })
                })
                .collect();
            strings(c, *layout, texts)
        }
        Layout::Bytes(layout) => binaries(c, *layout, len, nulls, shape.long_text_per_mille),
        Layout::Date32 => Arc::new(Date32Array::new((0..len).map(|_| day(c) as i32).collect(), nulls)),
        Layout::Date64 => Arc::new(Date64Array::new((0..len).map(|_| date64(c)).collect(), nulls)),
        Layout::Time(unit) => times(c, *unit, len, nulls, refused),
        Layout::Timestamp { unit, zone, .. } => timestamps(c, *unit, *zone, len, nulls, refused),
        Layout::TimestampParts { .. } => timestamp_parts(c, len, nulls),
        Layout::DayTime(DayTimeLayout::Interval) => {
            let values: Vec<IntervalDayTime> = (0..len).map(|_| day_time(c)).collect();
            Arc::new(IntervalDayTimeArray::new(values.into(), nulls))
        }
        Layout::DayTime(DayTimeLayout::Duration(unit)) => durations(c, *unit, len, nulls, refused),
        Layout::List { layout, element, nullable } => list(c, *layout, element, *nullable, len, nulls, shape),
        Layout::Map { as_list, key, value, nullable, .. } => {
            map(c, (*as_list, *key), value, *nullable, len, nulls, shape)
        }
        Layout::Row(fields) => row(c, fields, len, nulls, shape),
    }
}

fn date64(c: &mut dyn Choices) -> i64 {
    match c.below(20) {
        0 => c.word() as i64,
        _ => day(c) * 86_400_000 + c.below(86_400_000) as i64,
    }
}

fn day_time(c: &mut dyn Choices) -> IntervalDayTime {
    match c.below(8) {
        0 => IntervalDayTime::new(c.word() as i32, c.word() as i32),
        _ => IntervalDayTime::new(int(c) as i32 / 4, c.below(86_400_000) as i32),
    }
}

/// Strings (null where `None`) in `layout`.
fn strings(c: &mut dyn Choices, layout: StrLayout, texts: Vec<Option<String>>) -> ArrayRef {
    let refs = || texts.iter().map(|t| t.as_deref());
    match layout {
        StrLayout::Utf8 => Arc::new(refs().collect::<StringArray>()),
        StrLayout::LargeUtf8 => Arc::new(refs().collect::<LargeStringArray>()),
        StrLayout::Utf8View => Arc::new(refs().collect::<StringViewArray>()),
        StrLayout::Dictionary if c.chance(500) => Arc::new(refs().collect::<DictionaryArray<Int32Type>>()),
        StrLayout::Dictionary => {
            // One key per value, in order, and a dictionary entry no key points at.
            let mut dictionary: Vec<&str> = refs().flatten().collect();
            dictionary.push("unused");
            let mut next = 0;
            let keys: Int32Array = refs()
                .map(|t| {
                    t.map(|_| {
                        next += 1;
                        next - 1
                    })
                })
                .collect();
            let dictionary: ArrayRef = Arc::new(StringArray::from(dictionary));
            Arc::new(DictionaryArray::<Int32Type>::try_new(keys, dictionary).expect("keys in range"))
        }
        StrLayout::Binary | StrLayout::LargeBinary | StrLayout::BinaryView => {
            let bytes: Vec<Option<Vec<u8>>> = texts.into_iter().map(|t| t.map(|t| values::text_bytes(c, t))).collect();
            binary_array(layout, bytes)
        }
    }
}

fn binary_array(layout: StrLayout, bytes: Vec<Option<Vec<u8>>>) -> ArrayRef {
    match layout {
        StrLayout::LargeBinary => Arc::new(LargeBinaryArray::from_iter(bytes)),
        StrLayout::BinaryView => Arc::new(BinaryViewArray::from_iter(bytes)),
        _ => Arc::new(BinaryArray::from_iter(bytes)),
    }
}

/// BYTES values; `long`: the chance of a long one, in 1/1000.
fn binaries(c: &mut dyn Choices, layout: BytesLayout, len: usize, nulls: Option<NullBuffer>, long: u32) -> ArrayRef {
    let BytesLayout::Fixed(size) = layout else {
        let values: Vec<Option<Vec<u8>>> =
            (0..len).map(|i| is_valid(&nulls, i).then(|| values::bytes(c, 11, long))).collect();
        return match layout {
            BytesLayout::LargeBinary => Arc::new(LargeBinaryArray::from_iter(values)),
            BytesLayout::BinaryView => Arc::new(BinaryViewArray::from_iter(values)),
            _ => Arc::new(BinaryArray::from_iter(values)),
        };
    };
    let width = size as usize;
    let buffer: Vec<u8> = (0..len * width).map(|_| c.below(256) as u8).collect();
    let array = FixedSizeBinaryArray::try_new_with_len(size, Buffer::from(buffer), nulls, len);
    Arc::new(array.expect("valid fixed-size binary"))
}

fn times(c: &mut dyn Choices, unit: TimeUnit, len: usize, nulls: Option<NullBuffer>, refused: bool) -> ArrayRef {
    let millis: Vec<i64> = (0..len).map(|_| values::time_millis(c, refused)).collect();
    match unit {
        TimeUnit::Second => Arc::new(Time32SecondArray::new(millis.iter().map(|m| (m / 1000) as i32).collect(), nulls)),
        TimeUnit::Millisecond => {
            Arc::new(Time32MillisecondArray::new(millis.iter().map(|&m| m as i32).collect(), nulls))
        }
        TimeUnit::Microsecond => Arc::new(Time64MicrosecondArray::new(
            millis.iter().map(|m| m.wrapping_mul(1000) + c.below(1000) as i64).collect(),
            nulls,
        )),
        TimeUnit::Nanosecond => Arc::new(Time64NanosecondArray::new(
            millis.iter().map(|m| m.wrapping_mul(1_000_000) + c.below(1_000_000) as i64).collect(),
            nulls,
        )),
    }
}

/// Epoch milliseconds: runs inside one second and one day (the writers' caches), the edges of
/// Flink's range, anything.
fn epoch_millis(c: &mut dyn Choices, len: usize) -> Vec<i64> {
    let base = 1_704_164_645_000i64 + c.below(1 << 30) as i64 * c.pick(&[1, -1, 1000]);
    (0..len)
        .map(|_| match c.below(10) {
            0 => c.pick(&[i64::MIN, i64::MAX, 0, -1, 1, 253_402_300_799_999, -62_167_219_200_001]),
            1 => c.word() as i64,
            2..=5 => base,
            _ => base + c.below(5_000) as i64 * c.pick(&[1, 1, 1000]),
        })
        .collect()
}

/// Seconds from milliseconds; with `refused`, sometimes seconds whose milliseconds overflow an
/// `i64` (the encoder refuses the batch when it binds it).
fn seconds(c: &mut dyn Choices, millis: i64, refused: bool) -> i64 {
    match refused && c.chance(30) {
        true => c.pick(&[i64::MAX, i64::MIN, i64::MAX / 999]),
        false => millis / 1000,
    }
}

fn timestamps(
    c: &mut dyn Choices,
    unit: TimeUnit,
    zone: Option<&'static str>,
    len: usize,
    nulls: Option<NullBuffer>,
    refused: bool,
) -> ArrayRef {
    let raw = epoch_millis(c, len);
    match unit {
        TimeUnit::Second => {
            let values: Vec<i64> = raw.iter().map(|&v| seconds(c, v, refused)).collect();
            Arc::new(TimestampSecondArray::new(values.into(), nulls).with_timezone_opt(zone))
        }
        TimeUnit::Millisecond => Arc::new(TimestampMillisecondArray::new(raw.into(), nulls).with_timezone_opt(zone)),
        TimeUnit::Microsecond => {
            let values: Vec<i64> = raw.iter().map(|v| v.wrapping_mul(1000) + c.below(1000) as i64).collect();
            Arc::new(TimestampMicrosecondArray::new(values.into(), nulls).with_timezone_opt(zone))
        }
        TimeUnit::Nanosecond => {
            let values: Vec<i64> = raw.iter().map(|v| v.wrapping_mul(1_000_000) + c.below(3) as i64).collect();
            Arc::new(TimestampNanosecondArray::new(values.into(), nulls).with_timezone_opt(zone))
        }
    }
}

/// Flink's `TimestampData` as a struct of epoch milliseconds and nanoseconds of the millisecond.
fn timestamp_parts(c: &mut dyn Choices, len: usize, nulls: Option<NullBuffer>) -> ArrayRef {
    let millis = epoch_millis(c, len);
    let nanos: Vec<i32> = (0..len)
        .map(|_| {
            let any = c.below(1_000_000) as i32;
            c.pick(&[0, 1, 999_999, any])
        })
        .collect();
    let fields = Fields::from(vec![
        Field::new("epoch_millis", ArrowType::Int64, false),
        Field::new("nano_of_milli", ArrowType::Int32, false),
    ]);
    let columns: Vec<ArrayRef> = vec![Arc::new(Int64Array::from(millis)), Arc::new(Int32Array::from(nanos))];
    Arc::new(StructArray::try_new(fields, columns, nulls).expect("timestamp parts"))
}

fn durations(c: &mut dyn Choices, unit: TimeUnit, len: usize, nulls: Option<NullBuffer>, refused: bool) -> ArrayRef {
    let values: Vec<i64> = (0..len).map(|_| int(c)).collect();
    match unit {
        TimeUnit::Second => {
            let values: Vec<i64> = values.iter().map(|&v| seconds(c, v, refused)).collect();
            Arc::new(DurationSecondArray::new(values.into(), nulls))
        }
        TimeUnit::Millisecond => Arc::new(DurationMillisecondArray::new(values.into(), nulls)),
        TimeUnit::Microsecond => Arc::new(DurationMicrosecondArray::new(values.into(), nulls)),
        TimeUnit::Nanosecond => Arc::new(DurationNanosecondArray::new(values.into(), nulls)),
    }
}

fn lengths(c: &mut dyn Choices, len: usize) -> Vec<usize> {
    (0..len).map(|_| c.up_to(MAX_ENTRIES)).collect()
}

fn list(
    c: &mut dyn Choices,
    layout: ListLayout,
    element: &Layout,
    element_nullable: bool,
    len: usize,
    nulls: Option<NullBuffer>,
    shape: &Shape,
) -> ArrayRef {
    if let ListLayout::Fixed(size) = layout {
        let items = array(c, element, len * size as usize, element_nullable, shape);
        let field = Arc::new(Field::new("item", items.data_type().clone(), true));
        let list = FixedSizeListArray::try_new_with_length(field, size, items, nulls, len);
        return Arc::new(list.expect("valid fixed-size list"));
    }
    let sizes = lengths(c, len);
    let items = array(c, element, sizes.iter().sum(), element_nullable, shape);
    let field = Arc::new(Field::new("item", items.data_type().clone(), true));
    match layout {
        ListLayout::Large => {
            let offsets = OffsetBuffer::<i64>::from_lengths(sizes);
            Arc::new(LargeListArray::try_new(field, offsets, items, nulls).expect("valid large list"))
        }
        _ => Arc::new(ListArray::try_new(field, OffsetBuffer::from_lengths(sizes), items, nulls).expect("valid list")),
    }
}

/// A MAP or MULTISET: an Arrow Map (keys never null) or, `as_list`, a List of key/value structs
/// (null keys where the shape allows values the encoder may refuse).
fn map(
    c: &mut dyn Choices,
    (as_list, key_layout): (bool, StrLayout),
    value: &Layout,
    value_nullable: bool,
    len: usize,
    nulls: Option<NullBuffer>,
    shape: &Shape,
) -> ArrayRef {
    let sizes = lengths(c, len);
    let total = sizes.iter().sum();
    let null_keys = as_list && shape.refused_values;
    let keys: Vec<Option<String>> =
        (0..total).map(|_| (!(null_keys && c.chance(100))).then(|| values::map_key(c))).collect();
    let keys = strings(c, key_layout, keys);
    let values = array(c, value, total, value_nullable, shape);
    let entry_fields = Fields::from(vec![
        Field::new("key", keys.data_type().clone(), as_list),
        Field::new("value", values.data_type().clone(), true),
    ]);
    let entries = StructArray::try_new(entry_fields.clone(), vec![keys, values], None).expect("valid entries");
    let entries_field = Arc::new(Field::new("entries", ArrowType::Struct(entry_fields), false));
    let offsets = OffsetBuffer::from_lengths(sizes);
    match as_list {
        true => Arc::new(ListArray::try_new(entries_field, offsets, Arc::new(entries), nulls).expect("valid list map")),
        false => Arc::new(MapArray::try_new(entries_field, offsets, entries, nulls, false).expect("valid map")),
    }
}

fn row(c: &mut dyn Choices, fields: &[RowField], len: usize, nulls: Option<NullBuffer>, shape: &Shape) -> ArrayRef {
    let columns: Vec<ArrayRef> = fields.iter().map(|f| array(c, &f.layout, len, f.nullable, shape)).collect();
    let arrow_fields: Fields = fields
        .iter()
        .zip(&columns)
        .map(|(f, a)| Field::new(&f.name, a.data_type().clone(), f.nullable || shape.nulls_in_not_null))
        .collect();
    Arc::new(StructArray::try_new_with_length(arrow_fields, columns, nulls, len).expect("valid struct"))
}
