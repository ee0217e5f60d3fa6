//! Flink logical types, as far as the JSON formats see them.
use std::fmt;

/// A Flink logical type with its nullability (`NOT NULL` makes `nullable` false).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DataType {
    pub logical: LogicalType,
    pub nullable: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IntervalKind {
    /// Internally an `int` of months.
    YearMonth,
    /// Internally a `long` of milliseconds.
    DayTime,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RowField {
    pub name: String,
    pub data_type: DataType,
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LogicalType {
    Boolean,
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    Float,
    Double,
    Decimal {
        precision: u8,
        scale: u8,
    },
    /// `CHAR(n)`.
    Char {
        length: u32,
    },
    /// `VARCHAR(n)`; `STRING` is `VARCHAR(2147483647)`.
    VarChar {
        length: u32,
    },
    Binary {
        length: u32,
    },
    /// `VARBINARY(n)`; `BYTES` is `VARBINARY(2147483647)`.
    VarBinary {
        length: u32,
    },
    Date,
    Time {
        precision: u8,
    },
    Timestamp {
        precision: u8,
    },
    /// `TIMESTAMP(p) WITH LOCAL TIME ZONE`, also spelled `TIMESTAMP_LTZ(p)`.
    TimestampLtz {
        precision: u8,
    },
    /// `resolution` is the text as written after `INTERVAL` (e.g. `DAY(2) TO SECOND(3)`).
    Interval {
        kind: IntervalKind,
        resolution: String,
    },
    Array(Box<DataType>),
    Map {
        key: Box<DataType>,
        value: Box<DataType>,
    },
    Multiset(Box<DataType>),
    Row(Vec<RowField>),
    /// A type the parser recognised but the JSON format cannot write (RAW, VARIANT, NULL,
    /// TIMESTAMP WITH TIME ZONE, ...): `text` is Flink's spelling, used in the error at open.
    Unsupported {
        text: String,
    },
}

pub const MAX_LENGTH: u32 = i32::MAX as u32;

impl DataType {
    pub fn new(logical: LogicalType) -> Self {
        DataType { logical, nullable: true }
    }
    pub fn not_null(logical: LogicalType) -> Self {
        DataType { logical, nullable: false }
    }
    pub fn is_string(&self) -> bool {
        matches!(self.logical, LogicalType::Char { .. } | LogicalType::VarChar { .. })
    }
}

impl fmt::Display for DataType {
    /// Flink's `LogicalType#asSerializableString()` spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.logical)?;
        if !self.nullable {
            write!(f, " NOT NULL")?;
        }
        Ok(())
    }
}

impl fmt::Display for LogicalType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LogicalType::*;
        match self {
            Boolean => write!(f, "BOOLEAN"),
            TinyInt => write!(f, "TINYINT"),
            SmallInt => write!(f, "SMALLINT"),
            Int => write!(f, "INT"),
            BigInt => write!(f, "BIGINT"),
            Float => write!(f, "FLOAT"),
            Double => write!(f, "DOUBLE"),
            Decimal { precision, scale } => write!(f, "DECIMAL({precision}, {scale})"),
            Char { length } => write!(f, "CHAR({length})"),
            VarChar { length } if *length == MAX_LENGTH => write!(f, "STRING"),
            VarChar { length } => write!(f, "VARCHAR({length})"),
            Binary { length } => write!(f, "BINARY({length})"),
            VarBinary { length } if *length == MAX_LENGTH => write!(f, "BYTES"),
            VarBinary { length } => write!(f, "VARBINARY({length})"),
            Date => write!(f, "DATE"),
            Time { precision } => write!(f, "TIME({precision})"),
            Timestamp { precision } => write!(f, "TIMESTAMP({precision})"),
            TimestampLtz { precision } => write!(f, "TIMESTAMP({precision}) WITH LOCAL TIME ZONE"),
            Interval { resolution, .. } => write!(f, "INTERVAL {resolution}"),
            Array(e) => write!(f, "ARRAY<{e}>"),
            Map { key, value } => write!(f, "MAP<{key}, {value}>"),
            Multiset(e) => write!(f, "MULTISET<{e}>"),
            Row(fields) => {
                write!(f, "ROW<")?;
                for (i, field) in fields.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "`{}` {}", field.name.replace('`', "``"), field.data_type)?;
                    if let Some(d) = &field.description {
                        write!(f, " '{}'", d.replace('\'', "''"))?;
                    }
                }
                write!(f, ">")
            }
            Unsupported { text } => write!(f, "{text}"),
        }
    }
}

/// Flink's RowKind, as carried in an optional `Int8` array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    Insert = 0,
    UpdateBefore = 1,
    UpdateAfter = 2,
    Delete = 3,
}

impl RowKind {
    pub fn from_byte(b: i8) -> Option<RowKind> {
        match b {
            0 => Some(RowKind::Insert),
            1 => Some(RowKind::UpdateBefore),
            2 => Some(RowKind::UpdateAfter),
            3 => Some(RowKind::Delete),
            _ => None,
        }
    }

    /// upsert-kafka turns these into tombstones.
    pub fn is_retraction(self) -> bool {
        matches!(self, RowKind::UpdateBefore | RowKind::Delete)
    }
}
