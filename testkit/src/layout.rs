//! A column's layout: a Flink type together with one of the Arrow layouts the encoder's plan
//! accepts for it, at every depth. Drawn for a spec's type ([`Layout::for_type`]) or at random
//! with its type ([`Layout::arbitrary`], for random schemas).
use arrow_schema::TimeUnit;
use kjson_runtime::{DataType, IntervalKind, LogicalType};

use crate::choices::Choices;

/// How a CHAR/VARCHAR value is carried.
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

/// A ROW field: its name, layout and whether it may be null.
#[derive(Debug, Clone, PartialEq)]
pub struct RowField {
    pub name: String,
    pub layout: Layout,
    pub nullable: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Layout {
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
    /// `zone`: the Arrow time zone (only LTZ columns carry one, and not always).
    Timestamp {
        unit: TimeUnit,
        ltz: bool,
        zone: Option<&'static str>,
    },
    /// Flink's `TimestampData`: a struct of `epoch_millis` and `nano_of_milli`.
    TimestampParts {
        ltz: bool,
    },
    YearMonth {
        interval: bool,
    },
    DayTime(DayTimeLayout),
    List {
        layout: ListLayout,
        element: Box<Layout>,
        nullable: bool,
    },
    /// `MAP<STRING, value>`; `as_list`: a List of key/value structs (nullable keys), else an Arrow
    /// Map (keys never null). `multiset`: `MULTISET<STRING>` (the value is the INT count).
    Map {
        as_list: bool,
        key: StrLayout,
        value: Box<Layout>,
        nullable: bool,
        multiset: bool,
    },
    Row(Vec<RowField>),
}

const TIME_UNITS: [TimeUnit; 4] =
    [TimeUnit::Second, TimeUnit::Millisecond, TimeUnit::Microsecond, TimeUnit::Nanosecond];
const STR_LAYOUTS: [StrLayout; 7] = [
    StrLayout::Utf8,
    StrLayout::LargeUtf8,
    StrLayout::Utf8View,
    StrLayout::Dictionary,
    StrLayout::Binary,
    StrLayout::LargeBinary,
    StrLayout::BinaryView,
];
const MAX_DEPTH: usize = 4;

fn str_layout(c: &mut dyn Choices) -> StrLayout {
    // Utf8 twice as often: the layout most producers send.
    match c.below(8) {
        7 => StrLayout::Utf8,
        i => STR_LAYOUTS[i as usize],
    }
}

fn bytes_layout(c: &mut dyn Choices, length: Option<u32>) -> BytesLayout {
    match c.below(5) {
        0 => BytesLayout::Binary,
        1 => BytesLayout::LargeBinary,
        2 => BytesLayout::BinaryView,
        // BINARY(n) as its own width, or any width (the plan takes any fixed size).
        3 => BytesLayout::Fixed(length.map_or(c.below(6) as i32, |n| n as i32)),
        _ => BytesLayout::Fixed(c.below(6) as i32),
    }
}

fn list_layout(c: &mut dyn Choices) -> ListLayout {
    match c.below(8) {
        0 => ListLayout::Fixed(c.below(4) as i32),
        1 | 2 => ListLayout::Large,
        _ => ListLayout::List,
    }
}

fn day_time_layout(c: &mut dyn Choices) -> DayTimeLayout {
    match c.below(3) {
        0 => DayTimeLayout::Millis,
        1 => DayTimeLayout::Interval,
        _ => DayTimeLayout::Duration(c.pick(&TIME_UNITS)),
    }
}

fn timestamp(c: &mut dyn Choices, ltz: bool) -> Layout {
    if c.chance(150) {
        return Layout::TimestampParts { ltz };
    }
    let zone = if ltz { c.pick(&[None, Some("UTC"), Some("+02:00")]) } else { None };
    Layout::Timestamp { unit: c.pick(&TIME_UNITS), ltz, zone }
}

/// Field names exercise escaping too: quotes, backslashes, controls, non-BMP.
fn field_name(c: &mut dyn Choices, index: usize) -> String {
    const ODD: [&str; 6] = ["q\"uote", "back\\slash", "new\nline", "caf\u{e9}", "smile\u{1F600}", "tab\t"];
    match c.below(8) {
        0 => format!("{}{index}", c.pick(&ODD)),
        _ => format!("f{index}"),
    }
}

impl Layout {
    /// A layout for a column of Flink type `ty`: what a producer of that sink may send.
    pub fn for_type(c: &mut dyn Choices, ty: &DataType) -> Layout {
        use LogicalType as L;
        match &ty.logical {
            L::Boolean => Layout::Bool,
            L::TinyInt => Layout::I8,
            L::SmallInt => Layout::I16,
            L::Int => Layout::I32,
            L::BigInt => Layout::I64,
            L::Float => Layout::F32,
            L::Double => Layout::F64,
            L::Decimal { precision, scale } => Layout::Decimal { precision: *precision, scale: *scale },
            L::Char { .. } | L::VarChar { .. } => Layout::Str { layout: str_layout(c), flink: "STRING" },
            L::Binary { length } => Layout::Bytes(bytes_layout(c, Some(*length))),
            L::VarBinary { .. } => Layout::Bytes(bytes_layout(c, None)),
            L::Date => {
                if c.chance(300) {
                    Layout::Date64
                } else {
                    Layout::Date32
                }
            }
            L::Time { .. } => Layout::Time(c.pick(&TIME_UNITS)),
            L::Timestamp { .. } => timestamp(c, false),
            L::TimestampLtz { .. } => timestamp(c, true),
            L::Interval { kind: IntervalKind::YearMonth, .. } => Layout::YearMonth { interval: c.chance(500) },
            L::Interval { kind: IntervalKind::DayTime, .. } => Layout::DayTime(day_time_layout(c)),
            L::Array(element) => Layout::List {
                layout: list_layout(c),
                element: Box::new(Layout::for_type(c, element)),
                nullable: element.nullable,
            },
            L::Map { value, .. } => Layout::Map {
                as_list: c.chance(400),
                key: str_layout(c),
                value: Box::new(Layout::for_type(c, value)),
                nullable: value.nullable,
                multiset: false,
            },
            L::Multiset(_) => Layout::Map {
                as_list: c.chance(400),
                key: str_layout(c),
                value: Box::new(Layout::I32),
                nullable: false,
                multiset: true,
            },
            L::Row(fields) => Layout::Row(
                fields
                    .iter()
                    .map(|f| RowField {
                        name: f.name.clone(),
                        layout: Layout::for_type(c, &f.data_type),
                        nullable: f.data_type.nullable,
                    })
                    .collect(),
            ),
            L::Unsupported { text } => panic!("no Arrow layout for {text}"),
        }
    }

    /// A random type in a random layout, nested up to four deep (ROW, ARRAY, MAP, MULTISET);
    /// every type is nullable.
    pub fn arbitrary(c: &mut dyn Choices, depth: usize) -> Layout {
        let kinds = if depth >= MAX_DEPTH { 18 } else { 23 };
        match c.below(kinds) {
            0 => Layout::Bool,
            1 => Layout::I8,
            2 => Layout::I16,
            3 => Layout::I32,
            4 => Layout::I64,
            5 => Layout::F32,
            6 => Layout::F64,
            7 => {
                let precision = 1 + c.below(38) as u8;
                Layout::Decimal { precision, scale: c.below(u64::from(precision) + 1) as u8 }
            }
            8..=10 => Layout::Str { layout: str_layout(c), flink: c.pick(&["STRING", "VARCHAR(5)", "CHAR(3)"]) },
            11 => Layout::Bytes(bytes_layout(c, None)),
            12 => {
                if c.chance(500) {
                    Layout::Date64
                } else {
                    Layout::Date32
                }
            }
            13 => Layout::Time(c.pick(&TIME_UNITS)),
            14 => {
                let ltz = c.chance(500);
                timestamp(c, ltz)
            }
            15 => Layout::YearMonth { interval: c.chance(500) },
            16 => Layout::DayTime(day_time_layout(c)),
            17 => Layout::Str { layout: StrLayout::Binary, flink: "STRING" },
            18 | 19 => Layout::List {
                layout: list_layout(c),
                element: Box::new(Layout::arbitrary(c, depth + 1)),
                nullable: true,
            },
            20 => {
                let multiset = c.chance(250);
                let value = if multiset { Layout::I32 } else { Layout::arbitrary(c, depth + 1) };
                let (as_list, key) = (c.chance(500), str_layout(c));
                Layout::Map { as_list, key, value: Box::new(value), nullable: true, multiset }
            }
            _ => {
                let count = c.up_to(4);
                Layout::Row(
                    (0..count)
                        .map(|i| RowField {
                            name: field_name(c, i),
                            layout: Layout::arbitrary(c, depth + 1),
                            nullable: true,
                        })
                        .collect(),
                )
            }
        }
    }

    /// The Flink type string (`LogicalType#asSerializableString()` spelling).
    pub fn flink_type(&self) -> String {
        match self {
            Layout::Bool => "BOOLEAN".into(),
            Layout::I8 => "TINYINT".into(),
            Layout::I16 => "SMALLINT".into(),
            Layout::I32 => "INT".into(),
            Layout::I64 => "BIGINT".into(),
            Layout::F32 => "FLOAT".into(),
            Layout::F64 => "DOUBLE".into(),
            Layout::Decimal { precision, scale } => format!("DECIMAL({precision}, {scale})"),
            Layout::Str { flink, .. } => (*flink).into(),
            Layout::Bytes(BytesLayout::Fixed(n)) if *n > 0 => format!("BINARY({n})"),
            Layout::Bytes(_) => "BYTES".into(),
            Layout::Date32 | Layout::Date64 => "DATE".into(),
            Layout::Time(_) => "TIME(3)".into(),
            Layout::Timestamp { ltz: false, .. } | Layout::TimestampParts { ltz: false } => "TIMESTAMP(6)".into(),
            Layout::Timestamp { ltz: true, .. } | Layout::TimestampParts { ltz: true } => "TIMESTAMP_LTZ(9)".into(),
            Layout::YearMonth { .. } => "INTERVAL YEAR(2) TO MONTH".into(),
            Layout::DayTime(_) => "INTERVAL DAY(2) TO SECOND(3)".into(),
            Layout::List { element, nullable, .. } => format!("ARRAY<{}>", nullability(element, *nullable)),
            Layout::Map { multiset: true, .. } => "MULTISET<STRING>".into(),
            Layout::Map { value, nullable, .. } => format!("MAP<STRING, {}>", nullability(value, *nullable)),
            Layout::Row(fields) => {
                let inner: Vec<String> = fields
                    .iter()
                    .map(|f| format!("`{}` {}", f.name.replace('`', "``"), nullability(&f.layout, f.nullable)))
                    .collect();
                format!("ROW<{}>", inner.join(", "))
            }
        }
    }
}

fn nullability(layout: &Layout, nullable: bool) -> String {
    match nullable {
        true => layout.flink_type(),
        false => format!("{} NOT NULL", layout.flink_type()),
    }
}
