//! Random Arrow arrays for a [`Shape`]: random nulls at every level, arrays sliced at every level
//! (non-zero offsets), empty and long strings, invalid UTF-8 in Binary declared STRING, repeated
//! and null map keys.
use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use arrow_array::types::*;
use arrow_array::{
    ArrayRef, BinaryViewArray, BooleanArray, Decimal128Array, DictionaryArray, FixedSizeBinaryArray,
    FixedSizeListArray, GenericByteArray, LargeListArray, ListArray, MapArray, PrimitiveArray, StringArray,
    StringViewArray, StructArray,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType as ArrowType, *};

use crate::shape::{map_entries_field, row_fields, BytesLayout, DayTimeLayout, ListLayout, Shape, StrLayout};

/// Pieces strings are made of: every escape class, and (for binaries) broken UTF-8.
const TEXT_PIECES: [&str; 14] = [
    "a",
    "ab cd",
    "\"",
    "\\",
    "\n",
    "\u{0}",
    "\u{1f}",
    "\u{7f}",
    "/",
    "\u{e9}",
    "\u{2028}",
    "\u{1F600}",
    "\u{10FFFF}",
    "k",
];
const BROKEN_UTF8: [&[u8]; 6] = [b"\xff", b"\xf0\x9f\x98", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80", b"\xf4\x90\x80\x80"];

/// At most this many elements below one list or map, so nesting stays small.
const MAX_ELEMENTS: u32 = 4;

fn nulls(u: &mut Unstructured<'_>, len: usize) -> Result<Option<NullBuffer>> {
    Ok(match u.int_in_range(0..=4u8)? {
        0 | 1 => None,
        2 => Some(NullBuffer::new_valid(len)),
        3 => Some(NullBuffer::new_null(len)),
        _ => Some(NullBuffer::from_iter((0..len).map(|_| u.ratio(2, 3)).collect::<Result<Vec<bool>>>()?)),
    })
}

/// Bytes of one string value; always UTF-8 unless `utf8` is false.
fn text(u: &mut Unstructured<'_>, utf8: bool) -> Result<Vec<u8>> {
    Ok(match u.int_in_range(0..=9u8)? {
        0 => Vec::new(),
        1 => {
            // A long value (up to 70 KB): crosses every block boundary of the scan.
            let piece = u.choose(&TEXT_PIECES)?;
            piece.repeat(u.int_in_range(1..=7000usize)?).into_bytes()
        }
        2..=4 => {
            let count = u.int_in_range(1..=6usize)?;
            let mut out = Vec::new();
            for _ in 0..count {
                match utf8 || u.ratio(2, 3)? {
                    true => out.extend_from_slice(u.choose(&TEXT_PIECES)?.as_bytes()),
                    false => out.extend_from_slice(u.choose(&BROKEN_UTF8)?),
                }
            }
            out
        }
        _ => {
            let n = u.int_in_range(0..=24usize)?.min(u.len());
            let raw = u.bytes(n)?;
            match utf8 {
                true => String::from_utf8_lossy(raw).into_owned().into_bytes(),
                false => raw.to_vec(),
            }
        }
    })
}

fn texts(u: &mut Unstructured<'_>, len: usize, utf8: bool, nullable: bool) -> Result<Vec<Option<Vec<u8>>>> {
    let validity = if nullable { nulls(u, len)? } else { None };
    (0..len)
        .map(|i| match validity.as_ref().is_some_and(|n| n.is_null(i)) {
            true => Ok(None),
            false => text(u, utf8).map(Some),
        })
        .collect()
}

fn as_str(bytes: &Option<Vec<u8>>) -> Option<&str> {
    bytes.as_deref().map(|b| std::str::from_utf8(b).expect("generated UTF-8"))
}

/// A string column in `layout`; map keys of an Arrow Map pass `nullable = false`.
pub fn string_array(u: &mut Unstructured<'_>, layout: StrLayout, len: usize, nullable: bool) -> Result<ArrayRef> {
    let utf8 = !matches!(layout, StrLayout::Binary | StrLayout::LargeBinary | StrLayout::BinaryView);
    let values = texts(u, len, utf8, nullable)?;
    let bytes = || values.iter().map(|v| v.as_deref());
    Ok(match layout {
        StrLayout::Utf8 => Arc::new(values.iter().map(as_str).collect::<StringArray>()),
        StrLayout::LargeUtf8 => Arc::new(values.iter().map(as_str).collect::<arrow_array::LargeStringArray>()),
        StrLayout::Utf8View => Arc::new(values.iter().map(as_str).collect::<StringViewArray>()),
        StrLayout::Dictionary => {
            let mut dictionary: Vec<&str> = values.iter().filter_map(as_str).collect();
            dictionary.push("unused");
            let keys: PrimitiveArray<Int32Type> = values
                .iter()
                .scan(0i32, |next, v| {
                    Some(v.as_ref().map(|_| {
                        *next += 1;
                        *next - 1
                    }))
                })
                .collect();
            let dictionary: ArrayRef = Arc::new(StringArray::from(dictionary));
            Arc::new(DictionaryArray::<Int32Type>::try_new(keys, dictionary).expect("keys in range"))
        }
        StrLayout::Binary => Arc::new(GenericByteArray::<GenericBinaryType<i32>>::from_iter(bytes())),
        StrLayout::LargeBinary => Arc::new(GenericByteArray::<GenericBinaryType<i64>>::from_iter(bytes())),
        StrLayout::BinaryView => Arc::new(BinaryViewArray::from_iter(bytes())),
    })
}

fn primitive<T: ArrowPrimitiveType>(
    u: &mut Unstructured<'_>,
    len: usize,
    mut value: impl FnMut(&mut Unstructured<'_>) -> Result<T::Native>,
) -> Result<PrimitiveArray<T>> {
    let values = (0..len).map(|_| value(u)).collect::<Result<Vec<_>>>()?;
    Ok(PrimitiveArray::<T>::new(ScalarBuffer::from(values), nulls(u, len)?))
}

fn any<T: for<'a> arbitrary::Arbitrary<'a>>(u: &mut Unstructured<'_>) -> Result<T> {
    u.arbitrary()
}

/// A time of day in `per_second` steps per second: mostly inside the day, sometimes anything.
fn time_of_day(u: &mut Unstructured<'_>, per_second: i64) -> Result<i64> {
    match u.ratio(1, 8)? {
        true => u.arbitrary(),
        false => u.int_in_range(0..=86_400 * per_second - 1),
    }
}

fn decimal_value(u: &mut Unstructured<'_>, precision: u8) -> Result<i128> {
    match u.int_in_range(0..=7u8)? {
        0 => u.arbitrary(),
        1 => Ok(10i128.pow(u32::from(precision)) - 1),
        2 => Ok(-(10i128.pow(u32::from(precision)) - 1)),
        _ => Ok(i128::from(u.arbitrary::<i64>()?) % 10i128.pow(u32::from(precision).min(38))),
    }
}

/// An array of `len` values of `shape`; sometimes a slice of a longer one.
pub fn array(u: &mut Unstructured<'_>, shape: &Shape, len: usize) -> Result<ArrayRef> {
    if u.ratio(1, 4)? {
        let front = u.int_in_range(0..=3usize)?;
        let back = u.int_in_range(0..=2usize)?;
        let full = plain_array(u, shape, front + len + back)?;
        return Ok(full.slice(front, len));
    }
    plain_array(u, shape, len)
}

fn plain_array(u: &mut Unstructured<'_>, shape: &Shape, len: usize) -> Result<ArrayRef> {
    Ok(match shape {
        Shape::Bool => {
            let values = (0..len).map(|_| u.arbitrary()).collect::<Result<Vec<bool>>>()?;
            Arc::new(BooleanArray::new(values.into(), nulls(u, len)?))
        }
        Shape::I8 => Arc::new(primitive::<Int8Type>(u, len, any)?),
        Shape::I16 => Arc::new(primitive::<Int16Type>(u, len, any)?),
        Shape::I32 => Arc::new(primitive::<Int32Type>(u, len, any)?),
        Shape::I64 => Arc::new(primitive::<Int64Type>(u, len, any)?),
        Shape::F32 => Arc::new(primitive::<Float32Type>(u, len, any)?),
        Shape::F64 => Arc::new(primitive::<Float64Type>(u, len, any)?),
        Shape::Decimal { precision, scale } => {
            let p = *precision;
            let a: Decimal128Array = primitive::<Decimal128Type>(u, len, |u| decimal_value(u, p))?;
            Arc::new(a.with_precision_and_scale(p, *scale as i8).expect("valid precision"))
        }
        Shape::Str { layout, .. } => string_array(u, *layout, len, true)?,
        Shape::Bytes(layout) => bytes_array(u, *layout, len)?,
        Shape::Date32 => Arc::new(primitive::<Date32Type>(u, len, any)?),
        Shape::Date64 => Arc::new(primitive::<Date64Type>(u, len, any)?),
        Shape::Time(unit) => time_array(u, *unit, len)?,
        Shape::Timestamp { unit, ltz } => timestamp_array(u, *unit, *ltz, len)?,
        Shape::YearMonth { interval: false } => Arc::new(primitive::<Int32Type>(u, len, any)?),
        Shape::YearMonth { interval: true } => Arc::new(primitive::<IntervalYearMonthType>(u, len, any)?),
        Shape::DayTime(DayTimeLayout::Millis) => Arc::new(primitive::<Int64Type>(u, len, any)?),
        Shape::DayTime(DayTimeLayout::Interval) => Arc::new(primitive::<IntervalDayTimeType>(u, len, |u| {
            Ok(IntervalDayTime::new(u.arbitrary()?, u.arbitrary()?))
        })?),
        Shape::DayTime(DayTimeLayout::Duration(unit)) => match unit {
            TimeUnit::Second => Arc::new(primitive::<DurationSecondType>(u, len, any)?),
            TimeUnit::Millisecond => Arc::new(primitive::<DurationMillisecondType>(u, len, any)?),
            TimeUnit::Microsecond => Arc::new(primitive::<DurationMicrosecondType>(u, len, any)?),
            TimeUnit::Nanosecond => Arc::new(primitive::<DurationNanosecondType>(u, len, any)?),
        },
        Shape::List { layout, element } => list_array(u, *layout, element, len)?,
        Shape::Map { as_list, key, value, .. } => map_array(u, *as_list, *key, value, len)?,
        Shape::Row(fields) => {
            let columns = fields.iter().map(|(_, s)| array(u, s, len)).collect::<Result<Vec<_>>>()?;
            let validity = nulls(u, len)?;
            Arc::new(
                StructArray::try_new_with_length(row_fields(fields), columns, validity, len).expect("valid struct"),
            )
        }
    })
}

fn bytes_array(u: &mut Unstructured<'_>, layout: BytesLayout, len: usize) -> Result<ArrayRef> {
    let values = texts(u, len, false, true)?;
    let bytes = || values.iter().map(|v| v.as_deref());
    Ok(match layout {
        BytesLayout::Binary => Arc::new(GenericByteArray::<GenericBinaryType<i32>>::from_iter(bytes())),
        BytesLayout::LargeBinary => Arc::new(GenericByteArray::<GenericBinaryType<i64>>::from_iter(bytes())),
        BytesLayout::BinaryView => Arc::new(BinaryViewArray::from_iter(bytes())),
        BytesLayout::Fixed(size) => {
            let width = size as usize;
            let mut buffer = Vec::with_capacity(len * width);
            for v in &values {
                let v = v.as_deref().unwrap_or_default();
                buffer.extend((0..width).map(|k| v.get(k).copied().unwrap_or(k as u8)));
            }
            let validity = NullBuffer::from_iter(values.iter().map(Option::is_some));
            let array = FixedSizeBinaryArray::try_new_with_len(size, Buffer::from(buffer), Some(validity), len);
            Arc::new(array.expect("valid fixed-size binary"))
        }
    })
}

fn time_array(u: &mut Unstructured<'_>, unit: TimeUnit, len: usize) -> Result<ArrayRef> {
    Ok(match unit {
        TimeUnit::Second => Arc::new(primitive::<Time32SecondType>(u, len, |u| Ok(time_of_day(u, 1)? as i32))?),
        TimeUnit::Millisecond => {
            Arc::new(primitive::<Time32MillisecondType>(u, len, |u| Ok(time_of_day(u, 1000)? as i32))?)
        }
        TimeUnit::Microsecond => Arc::new(primitive::<Time64MicrosecondType>(u, len, |u| time_of_day(u, 1_000_000))?),
        TimeUnit::Nanosecond => Arc::new(primitive::<Time64NanosecondType>(u, len, |u| time_of_day(u, 1_000_000_000))?),
    })
}

fn timestamp_array(u: &mut Unstructured<'_>, unit: TimeUnit, ltz: bool, len: usize) -> Result<ArrayRef> {
    let zone = ltz.then_some("+02:00");
    Ok(match unit {
        TimeUnit::Second => Arc::new(primitive::<TimestampSecondType>(u, len, any)?.with_timezone_opt(zone)),
        TimeUnit::Millisecond => Arc::new(primitive::<TimestampMillisecondType>(u, len, any)?.with_timezone_opt(zone)),
        TimeUnit::Microsecond => Arc::new(primitive::<TimestampMicrosecondType>(u, len, any)?.with_timezone_opt(zone)),
        TimeUnit::Nanosecond => Arc::new(primitive::<TimestampNanosecondType>(u, len, any)?.with_timezone_opt(zone)),
    })
}

fn lengths(u: &mut Unstructured<'_>, len: usize) -> Result<Vec<usize>> {
    (0..len).map(|_| u.int_in_range(0..=MAX_ELEMENTS).map(|n| n as usize)).collect()
}

fn list_array(u: &mut Unstructured<'_>, layout: ListLayout, element: &Shape, len: usize) -> Result<ArrayRef> {
    let item = Arc::new(Field::new("item", element.arrow_type(), true));
    if let ListLayout::Fixed(size) = layout {
        let values = array(u, element, len * size as usize)?;
        let validity = nulls(u, len)?;
        let list = FixedSizeListArray::try_new_with_length(item, size, values, validity, len);
        return Ok(Arc::new(list.expect("valid fixed-size list")));
    }
    let sizes = lengths(u, len)?;
    let values = array(u, element, sizes.iter().sum())?;
    let validity = nulls(u, len)?;
    Ok(match layout {
        ListLayout::Large => {
            let offsets = OffsetBuffer::<i64>::from_lengths(sizes);
            Arc::new(LargeListArray::try_new(item, offsets, values, validity).expect("valid large list"))
        }
        _ => {
            Arc::new(ListArray::try_new(item, OffsetBuffer::from_lengths(sizes), values, validity).expect("valid list"))
        }
    })
}

fn map_array(u: &mut Unstructured<'_>, as_list: bool, key: StrLayout, value: &Shape, len: usize) -> Result<ArrayRef> {
    let sizes = lengths(u, len)?;
    let total = sizes.iter().sum();
    // Few distinct keys, so that repeated keys are common.
    let keys = match key != StrLayout::Dictionary && u.ratio(1, 2)? {
        true => short_keys(u, key, total, as_list)?,
        false => string_array(u, key, total, as_list)?,
    };
    let values = array(u, value, total)?;
    let entries_field = map_entries_field(as_list, key, value);
    let ArrowType::Struct(kv) = entries_field.data_type().clone() else { unreachable!("entries are a struct") };
    let entries = StructArray::try_new(kv, vec![keys, values], None).expect("valid entries");
    let offsets = OffsetBuffer::<i32>::from_lengths(sizes);
    let validity = nulls(u, len)?;
    Ok(match as_list {
        true => {
            Arc::new(ListArray::try_new(entries_field, offsets, Arc::new(entries), validity).expect("valid list map"))
        }
        false => Arc::new(MapArray::try_new(entries_field, offsets, entries, validity, false).expect("valid map")),
    })
}

/// Keys from `{"k", "a", "null"}` (and null, where allowed), in `layout`.
fn short_keys(u: &mut Unstructured<'_>, layout: StrLayout, len: usize, nullable: bool) -> Result<ArrayRef> {
    let picks = (0..len)
        .map(|_| Ok(*u.choose(&[Some("k"), Some("a"), Some("null"), None])?))
        .collect::<Result<Vec<Option<&str>>>>()?;
    let picks = picks.into_iter().map(|p| if nullable { p } else { Some(p.unwrap_or("k")) });
    Ok(match layout {
        StrLayout::Utf8 | StrLayout::Dictionary => Arc::new(picks.collect::<StringArray>()),
        StrLayout::LargeUtf8 => Arc::new(picks.collect::<arrow_array::LargeStringArray>()),
        StrLayout::Utf8View => Arc::new(picks.collect::<StringViewArray>()),
        StrLayout::Binary => Arc::new(picks.map(|p| p.map(str::as_bytes)).collect::<arrow_array::BinaryArray>()),
        StrLayout::LargeBinary => {
            Arc::new(picks.map(|p| p.map(str::as_bytes)).collect::<arrow_array::LargeBinaryArray>())
        }
        StrLayout::BinaryView => Arc::new(picks.map(|p| p.map(str::as_bytes)).collect::<BinaryViewArray>()),
    })
}
