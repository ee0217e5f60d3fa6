//! Binding a planned column to one batch's arrays: downcasts done once per batch, so the row
//! loop only indexes typed slices.
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date64Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    IntervalDayTimeType, IntervalYearMonthType,
};
use arrow_array::{
    make_array, Array, ArrayRef, BinaryViewArray, BooleanArray, FixedSizeBinaryArray, GenericBinaryArray,
    GenericStringArray, StringViewArray,
};
use arrow_buffer::NullBuffer;
use arrow_schema::{ArrowError, DataType as ArrowType, Field, IntervalUnit, TimeUnit};
use arrow_select::take::take;

use super::plan::{unit_to_millis, PlanNode, RowFieldPlan};
use crate::error::{KjsonError, Result};
use crate::spelling::escape::{self, TextBytes};
use crate::spelling::sink::ByteSink;

/// Values plus validity of a primitive column.
#[derive(Clone, Copy)]
pub struct Prim<'a, T> {
    pub values: &'a [T],
    pub nulls: Option<&'a NullBuffer>,
}

/// Variable-length byte values (strings or binaries) of any Arrow layout.
pub enum ByteValues<'a> {
    Utf8(&'a GenericStringArray<i32>),
    LargeUtf8(&'a GenericStringArray<i64>),
    Utf8View(&'a StringViewArray),
    Binary(&'a GenericBinaryArray<i32>),
    LargeBinary(&'a GenericBinaryArray<i64>),
    BinaryView(&'a BinaryViewArray),
    Fixed(&'a FixedSizeBinaryArray),
    /// Strings as WTF-8 in one of the binary layouts ([`PlanNode::Wtf8String`]).
    Wtf8(Box<ByteValues<'a>>),
}

impl ByteValues<'_> {
    #[inline]
    pub fn bytes(&self, i: usize) -> &[u8] {
        match self {
            ByteValues::Utf8(a) => a.value(i).as_bytes(),
            ByteValues::LargeUtf8(a) => a.value(i).as_bytes(),
            ByteValues::Utf8View(a) => a.value(i).as_bytes(),
            ByteValues::Binary(a) => a.value(i),
            ByteValues::LargeBinary(a) => a.value(i),
            ByteValues::BinaryView(a) => a.value(i),
            ByteValues::Fixed(a) => a.value(i),
            ByteValues::Wtf8(inner) => inner.bytes(i),
        }
    }

    /// How bytes that are not UTF-8 are read (the string layouts hold none).
    #[inline]
    pub fn text_bytes(&self) -> TextBytes {
        match self {
            ByteValues::Wtf8(_) => TextBytes::Wtf8,
            _ => TextBytes::JavaLossy,
        }
    }

    /// Writes value `i` as a JSON string: Arrow guarantees UTF-8 for the string layouts,
    /// binaries are decoded lossily as Java's UTF-8 decoder does, WTF-8 with its surrogates.
    #[inline]
    pub fn write_string<S: ByteSink>(&self, out: &mut S, i: usize) {
        match self {
            ByteValues::Utf8(a) => escape::write_json_str(out, a.value(i)),
            ByteValues::LargeUtf8(a) => escape::write_json_str(out, a.value(i)),
            ByteValues::Utf8View(a) => escape::write_json_str(out, a.value(i)),
            other => escape::write_json_text(out, other.bytes(i), other.text_bytes()),
        }
    }
}

/// A string column's escape scan for one batch: the positions of the bytes that need escaping,
/// made by the first accessor bound to the column and read by every other (the key's and the
/// value's accessors share it). `None` inside: the column is escaped value by value.
#[derive(Default)]
pub struct ScanOnce(std::cell::OnceCell<Option<Vec<usize>>>);

impl ScanOnce {
    /// The scan, made by `scan` on first use.
    pub fn get_or_scan(&self, scan: impl FnOnce() -> Option<Vec<usize>>) -> Option<&[usize]> {
        self.0.get_or_init(scan).as_deref()
    }
}

/// TIMESTAMP values: raw Arrow values of one unit, or Flink's `TimestampData` parts.
#[derive(Clone, Copy)]
pub enum TimestampValues<'a> {
    Unit(&'a [i64], TimeUnit),
    /// Epoch milliseconds and nanoseconds of the millisecond, checked to be below 1_000_000.
    Parts {
        millis: &'a [i64],
        nanos: &'a [i32],
    },
}

impl TimestampValues<'_> {
    /// Value `i` as epoch milliseconds and nanoseconds of the millisecond.
    #[inline(always)]
    pub fn parts(&self, i: usize) -> (i64, u32) {
        match *self {
            TimestampValues::Unit(values, unit) => timestamp_parts(values[i], unit),
            TimestampValues::Parts { millis, nanos } => (millis[i], nanos[i] as u32),
        }
    }
}

/// Flink's `TimestampData`: epoch milliseconds and nanoseconds within the millisecond. Second
/// values are within Flink's range here ([`check_timestamp_seconds`] at bind).
#[inline]
pub fn timestamp_parts(v: i64, unit: TimeUnit) -> (i64, u32) {
    match unit {
        TimeUnit::Second => (v * 1000, 0),
        TimeUnit::Millisecond => (v, 0),
        TimeUnit::Microsecond => (v.div_euclid(1000), (v.rem_euclid(1000) * 1000) as u32),
        TimeUnit::Nanosecond => (v.div_euclid(1_000_000), v.rem_euclid(1_000_000) as u32),
    }
}

/// A column bound to one batch. Offsets of nested layouts are absolute into the child arrays.
pub enum BoundColumn<'a> {
    Boolean(&'a BooleanArray),
    I8(Prim<'a, i8>),
    I16(Prim<'a, i16>),
    I32(Prim<'a, i32>),
    I64(Prim<'a, i64>),
    F32(Prim<'a, f32>),
    F64(Prim<'a, f64>),
    Decimal(Prim<'a, i128>, u8),
    Str(ByteValues<'a>, Option<&'a NullBuffer>, ScanOnce),
    Bytes(ByteValues<'a>, Option<&'a NullBuffer>),
    /// Days since the epoch (Date32) or milliseconds (Date64).
    Date32(Prim<'a, i32>),
    Date64(Prim<'a, i64>),
    /// Time of day scaled to milliseconds by `mul / div`.
    Time32 {
        values: Prim<'a, i32>,
        mul: i64,
        div: i64,
    },
    Time64 {
        values: Prim<'a, i64>,
        mul: i64,
        div: i64,
    },
    Timestamp {
        values: TimestampValues<'a>,
        nulls: Option<&'a NullBuffer>,
        ltz: bool,
    },
    /// INTERVAL DAY TO SECOND from Arrow Interval(DayTime): (days, millis).
    DayTime(Prim<'a, arrow_buffer::IntervalDayTime>),
    /// INTERVAL DAY TO SECOND from Arrow Duration, scaled to milliseconds.
    Duration {
        values: Prim<'a, i64>,
        mul: i64,
        div: i64,
    },
    List {
        offsets: Offsets<'a>,
        nulls: Option<&'a NullBuffer>,
        child: Box<BoundColumn<'a>>,
    },
    Map {
        offsets: &'a [i32],
        nulls: Option<&'a NullBuffer>,
        keys: Box<BoundColumn<'a>>,
        values: Box<BoundColumn<'a>>,
    },
    Row {
        nulls: Option<&'a NullBuffer>,
        names: &'a [RowFieldPlan],
        fields: Vec<BoundColumn<'a>>,
    },
}

/// List offsets: 32-bit, 64-bit, or a fixed size.
pub enum Offsets<'a> {
    Small(&'a [i32]),
    Large(&'a [i64]),
    Fixed { size: usize },
}

impl Offsets<'_> {
    #[inline]
    pub fn range(&self, i: usize) -> (usize, usize) {
        match self {
            Offsets::Small(o) => (o[i] as usize, o[i + 1] as usize),
            Offsets::Large(o) => (o[i] as usize, o[i + 1] as usize),
            Offsets::Fixed { size } => (i * size, (i + 1) * size),
        }
    }
}

impl BoundColumn<'_> {
    #[inline]
    pub fn is_null(&self, i: usize) -> bool {
        self.nulls().is_some_and(|n| n.is_null(i))
    }

    /// The validity of the column's own values (not of its children).
    #[inline]
    pub fn nulls(&self) -> Option<&NullBuffer> {
        match self {
            BoundColumn::Boolean(a) => a.nulls(),
            BoundColumn::I8(p) => p.nulls,
            BoundColumn::I16(p) => p.nulls,
            BoundColumn::I32(p) | BoundColumn::Date32(p) | BoundColumn::Time32 { values: p, .. } => p.nulls,
            BoundColumn::I64(p)
            | BoundColumn::Date64(p)
            | BoundColumn::Time64 { values: p, .. }
            | BoundColumn::Duration { values: p, .. } => p.nulls,
            BoundColumn::Timestamp { nulls, .. } => *nulls,
            BoundColumn::F32(p) => p.nulls,
            BoundColumn::F64(p) => p.nulls,
            BoundColumn::Decimal(p, _) => p.nulls,
            BoundColumn::DayTime(p) => p.nulls,
            BoundColumn::Str(_, n, _) | BoundColumn::Bytes(_, n) => *n,
            BoundColumn::List { nulls, .. } | BoundColumn::Map { nulls, .. } | BoundColumn::Row { nulls, .. } => *nulls,
        }
    }
}

/// Replaces dictionary-encoded strings (at any depth) by plain ones, once per batch.
pub fn undictionary(array: &ArrayRef) -> Result<ArrayRef> {
    unpack(array).map_err(|e| KjsonError::schema(format!("cannot unpack dictionary: {e}")))
}

/// Each dictionary becomes its values taken through its keys (a null key gives a null); the
/// arrays above it are rebuilt around the unpacked children, offsets and validity unchanged.
fn unpack(array: &ArrayRef) -> std::result::Result<ArrayRef, ArrowError> {
    let Some(target) = plain_type(array.data_type()) else {
        return Ok(array.clone());
    };
    if let Some(dictionary) = array.as_any_dictionary_opt() {
        return unpack(&take(dictionary.values().as_ref(), dictionary.keys(), None)?);
    }
    let data = array.to_data();
    let children = data
        .child_data()
        .iter()
        .map(|child| unpack(&make_array(child.clone())).map(|a| a.to_data()))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(make_array(data.into_builder().data_type(target).child_data(children).build()?))
}

/// The type with dictionaries replaced by their value type, `None` if there are none.
fn plain_type(ty: &ArrowType) -> Option<ArrowType> {
    let field = |f: &Field| plain_type(f.data_type()).map(|t| f.clone().with_data_type(t));
    match ty {
        ArrowType::Dictionary(_, value) => Some(plain_type(value).unwrap_or_else(|| value.as_ref().clone())),
        ArrowType::List(f) => field(f).map(|f| ArrowType::List(f.into())),
        ArrowType::LargeList(f) => field(f).map(|f| ArrowType::LargeList(f.into())),
        ArrowType::FixedSizeList(f, n) => field(f).map(|f| ArrowType::FixedSizeList(f.into(), *n)),
        ArrowType::Map(f, sorted) => field(f).map(|f| ArrowType::Map(f.into(), *sorted)),
        ArrowType::Struct(fields) => {
            let changed: Vec<Option<Field>> = fields.iter().map(|f| field(f)).collect();
            if changed.iter().all(Option::is_none) {
                return None;
            }
            let merged: Vec<Field> =
                changed.into_iter().zip(fields.iter()).map(|(c, f)| c.unwrap_or_else(|| f.as_ref().clone())).collect();
            Some(ArrowType::Struct(merged.into()))
        }
        _ => None,
    }
}

fn prim<T: arrow_array::ArrowPrimitiveType>(array: &dyn Array) -> Prim<'_, T::Native> {
    let a = array.as_primitive::<T>();
    Prim { values: a.values(), nulls: a.nulls() }
}

/// Binds a planned node to an array whose type the plan has already checked.
pub fn bind<'a>(node: &'a PlanNode, array: &'a dyn Array) -> Result<BoundColumn<'a>> {
    let ty = array.data_type();
    let col = match (node, ty) {
        (PlanNode::Boolean, _) => BoundColumn::Boolean(array.as_boolean()),
        (PlanNode::Integer, ArrowType::Int8) => BoundColumn::I8(prim::<Int8Type>(array)),
        (PlanNode::Integer, ArrowType::Int16) => BoundColumn::I16(prim::<Int16Type>(array)),
        (PlanNode::Integer, ArrowType::Int32) => BoundColumn::I32(prim::<Int32Type>(array)),
        (PlanNode::Integer, ArrowType::Int64) => BoundColumn::I64(prim::<Int64Type>(array)),
        (PlanNode::Float32, _) => BoundColumn::F32(prim::<Float32Type>(array)),
        (PlanNode::Float64, _) => BoundColumn::F64(prim::<Float64Type>(array)),
        (PlanNode::Decimal { scale }, _) => BoundColumn::Decimal(prim::<Decimal128Type>(array), *scale),
        (PlanNode::String, _) => BoundColumn::Str(byte_values(array)?, array.nulls(), ScanOnce::default()),
        (PlanNode::Wtf8String, _) => {
            BoundColumn::Str(ByteValues::Wtf8(Box::new(byte_values(array)?)), array.nulls(), ScanOnce::default())
        }
        (PlanNode::Bytes, _) => BoundColumn::Bytes(byte_values(array)?, array.nulls()),
        (PlanNode::Date, ArrowType::Date32) => BoundColumn::Date32(prim::<arrow_array::types::Date32Type>(array)),
        (PlanNode::Date, ArrowType::Date64) => BoundColumn::Date64(prim::<Date64Type>(array)),
        (PlanNode::Time, _) => bind_time(array)?,
        (PlanNode::Timestamp { ltz }, ArrowType::Timestamp(unit, _)) => {
            let values = timestamp_values(array);
            if *unit == TimeUnit::Second {
                check_timestamp_seconds(values, array.nulls())?;
            }
            BoundColumn::Timestamp { values: TimestampValues::Unit(values, *unit), nulls: array.nulls(), ltz: *ltz }
        }
        (PlanNode::Timestamp { ltz }, ArrowType::Struct(_)) => bind_timestamp_parts(array, *ltz)?,
        (PlanNode::Interval, ArrowType::Interval(IntervalUnit::DayTime)) => {
            BoundColumn::DayTime(prim::<IntervalDayTimeType>(array))
        }
        (PlanNode::Interval, ArrowType::Interval(IntervalUnit::YearMonth)) => {
            BoundColumn::I32(prim::<IntervalYearMonthType>(array))
        }
        (PlanNode::Interval, ArrowType::Duration(unit)) => {
            let (mul, div) = unit_to_millis(*unit);
            let values = duration_values(array);
            check_scaled_millis(values, array.nulls(), mul, "an INTERVAL DAY TO SECOND from Duration(Second)")?;
            BoundColumn::Duration { values: Prim { values, nulls: array.nulls() }, mul, div }
        }
        (PlanNode::Array(child), _) => bind_list(child, array)?,
        (PlanNode::Map { key, value }, ArrowType::Map(..)) => {
            let map = array.as_map();
            let keys = bind(key, map.keys().as_ref())?;
            let values = bind(value, map.values().as_ref())?;
            BoundColumn::Map {
                offsets: map.value_offsets(),
                nulls: map.nulls(),
                keys: Box::new(keys),
                values: Box::new(values),
            }
        }
        (PlanNode::Map { key, value }, _) => {
            let list = array.as_list::<i32>();
            let entries = list.values().as_struct();
            let keys = bind(key, entries.column(0).as_ref())?;
            let values = bind(value, entries.column(1).as_ref())?;
            BoundColumn::Map {
                offsets: list.value_offsets(),
                nulls: list.nulls(),
                keys: Box::new(keys),
                values: Box::new(values),
            }
        }
        (PlanNode::Row(fields), _) => {
            let s = array.as_struct();
            let bound =
                fields.iter().zip(s.columns()).map(|(f, c)| bind(&f.node, c.as_ref())).collect::<Result<_>>()?;
            BoundColumn::Row { nulls: s.nulls(), names: fields, fields: bound }
        }
        _ => return Err(KjsonError::internal(format!("plan {node:?} does not fit Arrow type {ty}"))),
    };
    Ok(col)
}

fn timestamp_values(array: &dyn Array) -> &[i64] {
    use arrow_array::types::{
        TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType, TimestampSecondType,
    };
    match array.data_type() {
        ArrowType::Timestamp(TimeUnit::Second, _) => array.as_primitive::<TimestampSecondType>().values(),
        ArrowType::Timestamp(TimeUnit::Millisecond, _) => array.as_primitive::<TimestampMillisecondType>().values(),
        ArrowType::Timestamp(TimeUnit::Microsecond, _) => array.as_primitive::<TimestampMicrosecondType>().values(),
        _ => array.as_primitive::<TimestampNanosecondType>().values(),
    }
}

/// The struct form of TIMESTAMP ([`super::plan::is_timestamp_parts`]); every non-null value's
/// nanoseconds must be a nanosecond of a millisecond, as in Flink's `TimestampData`.
fn bind_timestamp_parts(array: &dyn Array, ltz: bool) -> Result<BoundColumn<'_>> {
    let parts = array.as_struct();
    let millis = parts.column(0).as_primitive::<Int64Type>().values();
    let nanos = parts.column(1).as_primitive::<Int32Type>().values();
    let nulls = parts.nulls();
    if let Some(i) =
        (0..nanos.len()).find(|&i| !(0..1_000_000).contains(&nanos[i]) && !nulls.is_some_and(|n| n.is_null(i)))
    {
        return Err(KjsonError::value(format!(
            "a TIMESTAMP's nano of millisecond is {} (at index {i} of its struct array); it must be within 0..=999999",
            nanos[i]
        )));
    }
    Ok(BoundColumn::Timestamp { values: TimestampValues::Parts { millis, nanos }, nulls, ltz })
}

/// Timestamp(Second) values whose milliseconds a `long` cannot hold are past Flink's range.
fn check_timestamp_seconds(values: &[i64], nulls: Option<&NullBuffer>) -> Result<()> {
    check_scaled_millis(values, nulls, 1000, "a Timestamp(Second)")
}

/// Refuses a non-null value whose milliseconds (`value * mul`) overflow an `i64`, which Flink's
/// `long` milliseconds cannot hold either (rather than write a wrapped value).
fn check_scaled_millis(values: &[i64], nulls: Option<&NullBuffer>, mul: i64, what: &str) -> Result<()> {
    if mul == 1 {
        return Ok(());
    }
    let (low, high) = (i64::MIN / mul, i64::MAX / mul);
    match (0..values.len()).find(|&i| !(low..=high).contains(&values[i]) && !nulls.is_some_and(|n| n.is_null(i))) {
        Some(i) => Err(KjsonError::value(format!(
            "{what} value {} (at index {i} of its array) is past the range of Flink's epoch milliseconds",
            values[i]
        ))),
        None => Ok(()),
    }
}

fn duration_values(array: &dyn Array) -> &[i64] {
    use arrow_array::types::{
        DurationMicrosecondType, DurationMillisecondType, DurationNanosecondType, DurationSecondType,
    };
    match array.data_type() {
        ArrowType::Duration(TimeUnit::Second) => array.as_primitive::<DurationSecondType>().values(),
        ArrowType::Duration(TimeUnit::Millisecond) => array.as_primitive::<DurationMillisecondType>().values(),
        ArrowType::Duration(TimeUnit::Microsecond) => array.as_primitive::<DurationMicrosecondType>().values(),
        _ => array.as_primitive::<DurationNanosecondType>().values(),
    }
}

fn bind_time(array: &dyn Array) -> Result<BoundColumn<'_>> {
    use arrow_array::types::{Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType};
    let nulls = array.nulls();
    Ok(match array.data_type() {
        ArrowType::Time32(TimeUnit::Second) => {
            let values = array.as_primitive::<Time32SecondType>().values();
            BoundColumn::Time32 { values: Prim { values, nulls }, mul: 1000, div: 1 }
        }
        ArrowType::Time32(_) => {
            let values = array.as_primitive::<Time32MillisecondType>().values();
            BoundColumn::Time32 { values: Prim { values, nulls }, mul: 1, div: 1 }
        }
        ArrowType::Time64(TimeUnit::Microsecond) => {
            let values = array.as_primitive::<Time64MicrosecondType>().values();
            BoundColumn::Time64 { values: Prim { values, nulls }, mul: 1, div: 1000 }
        }
        ArrowType::Time64(_) => {
            let values = array.as_primitive::<Time64NanosecondType>().values();
            BoundColumn::Time64 { values: Prim { values, nulls }, mul: 1, div: 1_000_000 }
        }
        other => return Err(KjsonError::internal(format!("{other} is not a time type"))),
    })
}

fn bind_list<'a>(child: &'a PlanNode, array: &'a dyn Array) -> Result<BoundColumn<'a>> {
    let nulls = array.nulls();
    let (offsets, values) = match array.data_type() {
        ArrowType::List(_) => {
            let l = array.as_list::<i32>();
            (Offsets::Small(l.value_offsets()), l.values())
        }
        ArrowType::LargeList(_) => {
            let l = array.as_list::<i64>();
            (Offsets::Large(l.value_offsets()), l.values())
        }
        _ => {
            let l = array.as_fixed_size_list();
            let size = l.value_length() as usize;
            (Offsets::Fixed { size }, l.values())
        }
    };
    let child = bind(child, values.as_ref())?;
    Ok(BoundColumn::List { offsets, nulls, child: Box::new(child) })
}

fn byte_values(array: &dyn Array) -> Result<ByteValues<'_>> {
    Ok(match array.data_type() {
        ArrowType::Utf8 => ByteValues::Utf8(array.as_string::<i32>()),
        ArrowType::LargeUtf8 => ByteValues::LargeUtf8(array.as_string::<i64>()),
        ArrowType::Utf8View => ByteValues::Utf8View(array.as_string_view()),
        ArrowType::Binary => ByteValues::Binary(array.as_binary::<i32>()),
        ArrowType::LargeBinary => ByteValues::LargeBinary(array.as_binary::<i64>()),
        ArrowType::BinaryView => ByteValues::BinaryView(array.as_binary_view()),
        ArrowType::FixedSizeBinary(_) => ByteValues::Fixed(array.as_fixed_size_binary()),
        other => return Err(KjsonError::internal(format!("{other} is not a byte type"))),
    })
}
