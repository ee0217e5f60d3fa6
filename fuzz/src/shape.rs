//! Random column shapes: a Flink type together with one of the Arrow layouts the encoder accepts
//! for it, nested at random (ROW, ARRAY, MAP, MULTISET).
use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use arrow_schema::{DataType as ArrowType, Field, Fields, IntervalUnit, TimeUnit};

/// How a CHAR/VARCHAR column is carried.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StrLayout {
    Utf8,
    LargeUtf8,
    Utf8View,
    /// Dictionary<Int32, Utf8>.
    Dictionary,
    /// Binary declared STRING: decoded lossily (invalid UTF-8 becomes U+FFFD).
    Binary,
    LargeBinary,
    BinaryView,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BytesLayout {
    Binary,
    LargeBinary,
    BinaryView,
    Fixed(i32),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ListLayout {
    List,
    Large,
    Fixed(i32),
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DayTimeLayout {
    Millis,
    Interval,
    Duration(TimeUnit),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Bool,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
    Decimal {
        precision: u8,
        scale: u8,
    },
    Str {
        layout: StrLayout,
        flink: &'static str,
    },
    Bytes(BytesLayout),
    Date32,
    Date64,
    Time(TimeUnit),
    Timestamp {
        unit: TimeUnit,
        ltz: bool,
    },
    YearMonth {
        interval: bool,
    },
    DayTime(DayTimeLayout),
    List {
        layout: ListLayout,
        element: Box<Shape>,
    },
    /// MAP<STRING, value>; `as_list`: a List of key/value structs (nullable keys), else an Arrow
    /// Map (keys never null). `multiset`: MULTISET<STRING> (the value is the INT count).
    Map {
        as_list: bool,
        key: StrLayout,
        value: Box<Shape>,
        multiset: bool,
    },
    Row(Vec<(String, Shape)>),
}

const MAX_DEPTH: usize = 4;

fn time_unit(u: &mut Unstructured<'_>) -> Result<TimeUnit> {
    Ok(*u.choose(&[TimeUnit::Second, TimeUnit::Millisecond, TimeUnit::Microsecond, TimeUnit::Nanosecond])?)
}

fn str_layout(u: &mut Unstructured<'_>) -> Result<StrLayout> {
    use StrLayout::*;
    Ok(*u.choose(&[Utf8, LargeUtf8, Utf8View, Dictionary, Binary, LargeBinary, BinaryView])?)
}

/// Field names exercise escaping too: quotes, backslashes, controls, non-BMP.
fn field_name(u: &mut Unstructured<'_>, index: usize) -> Result<String> {
    const ODD: [&str; 6] = ["q\"uote", "back\\slash", "new\nline", "caf\u{e9}", "smile\u{1F600}", "tab\t"];
    Ok(match u.int_in_range(0..=7u8)? {
        0 => format!("{}{index}", u.choose(&ODD)?),
        _ => format!("f{index}"),
    })
}

impl Shape {
    pub fn arbitrary(u: &mut Unstructured<'_>, depth: usize) -> Result<Shape> {
        let leaves_only = depth >= MAX_DEPTH;
        let pick = if leaves_only { u.int_in_range(0..=17u8)? } else { u.int_in_range(0..=22u8)? };
        Ok(match pick {
            0 => Shape::Bool,
            1 => Shape::I8,
            2 => Shape::I16,
            3 => Shape::I32,
            4 => Shape::I64,
            5 => Shape::F32,
            6 => Shape::F64,
            7 => {
                let precision = u.int_in_range(1..=38u8)?;
                Shape::Decimal { precision, scale: u.int_in_range(0..=precision)? }
            }
            8..=10 => {
                let flink = *u.choose(&["STRING", "VARCHAR(5)", "CHAR(3)"])?;
                Shape::Str { layout: str_layout(u)?, flink }
            }
            11 => Shape::Bytes(match u.int_in_range(0..=3u8)? {
                0 => BytesLayout::Binary,
                1 => BytesLayout::LargeBinary,
                2 => BytesLayout::BinaryView,
                _ => BytesLayout::Fixed(u.int_in_range(0..=5)?),
            }),
            12 => u.choose(&[Shape::Date32, Shape::Date64])?.clone(),
            13 => Shape::Time(time_unit(u)?),
            14 => Shape::Timestamp { unit: time_unit(u)?, ltz: u.arbitrary()? },
            15 => Shape::YearMonth { interval: u.arbitrary()? },
            16 => Shape::DayTime(match u.int_in_range(0..=2u8)? {
                0 => DayTimeLayout::Millis,
                1 => DayTimeLayout::Interval,
                _ => DayTimeLayout::Duration(time_unit(u)?),
            }),
            17 => Shape::Str { layout: StrLayout::Binary, flink: "STRING" },
            18 | 19 => {
                let layout = match u.int_in_range(0..=2u8)? {
                    0 => ListLayout::List,
                    1 => ListLayout::Large,
                    _ => ListLayout::Fixed(u.int_in_range(0..=3)?),
                };
                Shape::List { layout, element: Box::new(Shape::arbitrary(u, depth + 1)?) }
            }
            20 => {
                let multiset = u.ratio(1, 4)?;
                let value = if multiset { Shape::I32 } else { Shape::arbitrary(u, depth + 1)? };
                Shape::Map { as_list: u.arbitrary()?, key: str_layout(u)?, value: Box::new(value), multiset }
            }
            _ => {
                let count = u.int_in_range(0..=4usize)?;
                let fields = (0..count)
                    .map(|i| Ok((field_name(u, i)?, Shape::arbitrary(u, depth + 1)?)))
                    .collect::<Result<Vec<_>>>()?;
                Shape::Row(fields)
            }
        })
    }

    /// The Flink type string (`LogicalType#asSerializableString()` spelling).
    pub fn flink_type(&self) -> String {
        match self {
            Shape::Bool => "BOOLEAN".into(),
            Shape::I8 => "TINYINT".into(),
            Shape::I16 => "SMALLINT".into(),
            Shape::I32 => "INT".into(),
            Shape::I64 => "BIGINT".into(),
            Shape::F32 => "FLOAT".into(),
            Shape::F64 => "DOUBLE".into(),
            Shape::Decimal { precision, scale } => format!("DECIMAL({precision}, {scale})"),
            Shape::Str { flink, .. } => (*flink).into(),
            Shape::Bytes(BytesLayout::Fixed(n)) if *n > 0 => format!("BINARY({n})"),
            Shape::Bytes(_) => "BYTES".into(),
            Shape::Date32 | Shape::Date64 => "DATE".into(),
            Shape::Time(_) => "TIME(3)".into(),
            Shape::Timestamp { ltz: false, .. } => "TIMESTAMP(6)".into(),
            Shape::Timestamp { ltz: true, .. } => "TIMESTAMP_LTZ(9)".into(),
            Shape::YearMonth { .. } => "INTERVAL YEAR(2) TO MONTH".into(),
            Shape::DayTime(_) => "INTERVAL DAY(2) TO SECOND(3)".into(),
            Shape::List { element, .. } => format!("ARRAY<{}>", element.flink_type()),
            Shape::Map { multiset: true, .. } => "MULTISET<STRING>".into(),
            Shape::Map { value, .. } => format!("MAP<STRING, {}>", value.flink_type()),
            Shape::Row(fields) => {
                let inner: Vec<String> = fields
                    .iter()
                    .map(|(name, shape)| format!("`{}` {}", name.replace('`', "``"), shape.flink_type()))
                    .collect();
                format!("ROW<{}>", inner.join(", "))
            }
        }
    }

    pub fn arrow_type(&self) -> ArrowType {
        match self {
            Shape::Bool => ArrowType::Boolean,
            Shape::I8 => ArrowType::Int8,
            Shape::I16 => ArrowType::Int16,
            Shape::I32 => ArrowType::Int32,
            Shape::I64 => ArrowType::Int64,
            Shape::F32 => ArrowType::Float32,
            Shape::F64 => ArrowType::Float64,
            Shape::Decimal { precision, scale } => ArrowType::Decimal128(*precision, *scale as i8),
            Shape::Str { layout, .. } => str_arrow_type(*layout),
            Shape::Bytes(BytesLayout::Binary) => ArrowType::Binary,
            Shape::Bytes(BytesLayout::LargeBinary) => ArrowType::LargeBinary,
            Shape::Bytes(BytesLayout::BinaryView) => ArrowType::BinaryView,
            Shape::Bytes(BytesLayout::Fixed(n)) => ArrowType::FixedSizeBinary(*n),
            Shape::Date32 => ArrowType::Date32,
            Shape::Date64 => ArrowType::Date64,
            Shape::Time(unit @ (TimeUnit::Second | TimeUnit::Millisecond)) => ArrowType::Time32(*unit),
            Shape::Time(unit) => ArrowType::Time64(*unit),
            Shape::Timestamp { unit, ltz } => ArrowType::Timestamp(*unit, ltz.then(|| "+02:00".into())),
            Shape::YearMonth { interval: false } => ArrowType::Int32,
            Shape::YearMonth { interval: true } => ArrowType::Interval(IntervalUnit::YearMonth),
            Shape::DayTime(DayTimeLayout::Millis) => ArrowType::Int64,
            Shape::DayTime(DayTimeLayout::Interval) => ArrowType::Interval(IntervalUnit::DayTime),
            Shape::DayTime(DayTimeLayout::Duration(unit)) => ArrowType::Duration(*unit),
            Shape::List { layout, element } => {
                let item = Arc::new(Field::new("item", element.arrow_type(), true));
                match layout {
                    ListLayout::List => ArrowType::List(item),
                    ListLayout::Large => ArrowType::LargeList(item),
                    ListLayout::Fixed(n) => ArrowType::FixedSizeList(item, *n),
                }
            }
            Shape::Map { as_list, key, value, .. } => {
                let entries = map_entries_field(*as_list, *key, value);
                match as_list {
                    true => ArrowType::List(entries),
                    false => ArrowType::Map(entries, false),
                }
            }
            Shape::Row(fields) => ArrowType::Struct(row_fields(fields)),
        }
    }
}

pub fn str_arrow_type(layout: StrLayout) -> ArrowType {
    match layout {
        StrLayout::Utf8 => ArrowType::Utf8,
        StrLayout::LargeUtf8 => ArrowType::LargeUtf8,
        StrLayout::Utf8View => ArrowType::Utf8View,
        StrLayout::Dictionary => ArrowType::Dictionary(Box::new(ArrowType::Int32), Box::new(ArrowType::Utf8)),
        StrLayout::Binary => ArrowType::Binary,
        StrLayout::LargeBinary => ArrowType::LargeBinary,
        StrLayout::BinaryView => ArrowType::BinaryView,
    }
}

/// The entries field of a map: a non-null struct of `key` (nullable only in the List layout)
/// and `value`.
pub fn map_entries_field(as_list: bool, key: StrLayout, value: &Shape) -> Arc<Field> {
    let kv = Fields::from(vec![
        Field::new("key", str_arrow_type(key), as_list),
        Field::new("value", value.arrow_type(), true),
    ]);
    Arc::new(Field::new("entries", ArrowType::Struct(kv), false))
}

pub fn row_fields(fields: &[(String, Shape)]) -> Fields {
    fields.iter().map(|(name, shape)| Field::new(name, shape.arrow_type(), true)).collect()
}

/// A random Arrow layout for a Flink type (what a producer of that sink may send).
pub fn shape_for(u: &mut Unstructured<'_>, ty: &kjson_runtime::DataType) -> Result<Shape> {
    use kjson_runtime::LogicalType as L;
    Ok(match &ty.logical {
        L::Boolean => Shape::Bool,
        L::TinyInt => Shape::I8,
        L::SmallInt => Shape::I16,
        L::Int => Shape::I32,
        L::BigInt => Shape::I64,
        L::Float => Shape::F32,
        L::Double => Shape::F64,
        L::Decimal { precision, scale } => Shape::Decimal { precision: *precision, scale: *scale },
        L::Char { .. } | L::VarChar { .. } => Shape::Str { layout: str_layout(u)?, flink: "STRING" },
        L::Binary { length } => Shape::Bytes(BytesLayout::Fixed(*length as i32)),
        L::VarBinary { .. } => {
            Shape::Bytes(*u.choose(&[BytesLayout::Binary, BytesLayout::LargeBinary, BytesLayout::BinaryView])?)
        }
        L::Date => u.choose(&[Shape::Date32, Shape::Date64])?.clone(),
        L::Time { .. } => Shape::Time(time_unit(u)?),
        L::Timestamp { .. } => Shape::Timestamp { unit: time_unit(u)?, ltz: false },
        L::TimestampLtz { .. } => Shape::Timestamp { unit: time_unit(u)?, ltz: true },
        L::Interval { kind: kjson_runtime::IntervalKind::YearMonth, .. } => {
            Shape::YearMonth { interval: u.arbitrary()? }
        }
        L::Interval { .. } => Shape::DayTime(DayTimeLayout::Millis),
        L::Array(element) => Shape::List { layout: ListLayout::List, element: Box::new(shape_for(u, element)?) },
        L::Map { value, .. } => Shape::Map {
            as_list: u.arbitrary()?,
            key: str_layout(u)?,
            value: Box::new(shape_for(u, value)?),
            multiset: false,
        },
        L::Multiset(_) => {
            Shape::Map { as_list: u.arbitrary()?, key: str_layout(u)?, value: Box::new(Shape::I32), multiset: true }
        }
        L::Row(fields) => Shape::Row(
            fields.iter().map(|f| Ok((f.name.clone(), shape_for(u, &f.data_type)?))).collect::<Result<Vec<_>>>()?,
        ),
        L::Unsupported { .. } => Shape::Bool,
    })
}
