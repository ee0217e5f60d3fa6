//! The one error type of the runtime. Messages name what the user must fix: the option, the
//! column path, or the DDL position.
use std::fmt;

pub type Result<T> = std::result::Result<T, KjsonError>;

/// A 1-based line and column in a DDL text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KjsonError {
    /// The DDL or a type string could not be parsed.
    Parse { message: String, position: Option<Position> },
    /// A connector or format option is invalid (Flink's ValidationException).
    Option { message: String, position: Option<Position> },
    /// A column or type is not usable by the JSON format (unsupported type, non-string map key).
    Type { message: String, position: Option<Position> },
    /// The Arrow input does not match the sink's logical types.
    Schema { message: String },
    /// A map held a null key under `map-null-key.mode = FAIL`.
    MapNullKey { message: String },
    /// Output would not fit the i32 offsets of one slab.
    Limit { message: String },
    /// A value Flink cannot hold (a timestamp past Flink's range, nanoseconds of a millisecond
    /// outside 0..=999_999): refused rather than written as another value.
    Value { message: String },
    /// A Kafka record the format cannot read (Flink's deserializer throws): `record` is its
    /// index in the batch handed to the decoder.
    Record { record: usize, message: String },
    /// A bug in kjson: a state its own code should never reach (not the caller's input).
    Internal { message: String },
}

impl KjsonError {
    pub fn parse(message: impl Into<String>, position: Option<Position>) -> Self {
        KjsonError::Parse { message: message.into(), position }
    }
    pub fn option(message: impl Into<String>) -> Self {
        KjsonError::Option { message: message.into(), position: None }
    }
    pub fn type_error(message: impl Into<String>) -> Self {
        KjsonError::Type { message: message.into(), position: None }
    }
    pub fn schema(message: impl Into<String>) -> Self {
        KjsonError::Schema { message: message.into() }
    }
    pub fn value(message: impl Into<String>) -> Self {
        KjsonError::Value { message: message.into() }
    }
    pub fn internal(message: impl Into<String>) -> Self {
        KjsonError::Internal { message: message.into() }
    }

    /// A value error of a top-level column, with the column's name put in front.
    pub fn in_column(self, name: &str) -> Self {
        match self {
            KjsonError::Value { message } => KjsonError::Value { message: format!("column `{name}`: {message}") },
            other => other,
        }
    }

    /// The same error, pinned to a DDL position if it has none yet.
    pub fn at(self, pos: Position) -> Self {
        match self {
            KjsonError::Parse { message, position: None } => KjsonError::Parse { message, position: Some(pos) },
            KjsonError::Option { message, position: None } => KjsonError::Option { message, position: Some(pos) },
            KjsonError::Type { message, position: None } => KjsonError::Type { message, position: Some(pos) },
            other => other,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            KjsonError::Parse { message, .. }
            | KjsonError::Option { message, .. }
            | KjsonError::Type { message, .. }
            | KjsonError::Schema { message }
            | KjsonError::MapNullKey { message }
            | KjsonError::Limit { message }
            | KjsonError::Value { message }
            | KjsonError::Record { message, .. }
            | KjsonError::Internal { message } => message,
        }
    }

    pub fn position(&self) -> Option<Position> {
        match self {
            KjsonError::Parse { position, .. }
            | KjsonError::Option { position, .. }
            | KjsonError::Type { position, .. } => *position,
            _ => None,
        }
    }
}

impl fmt::Display for KjsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self {
            KjsonError::Parse { .. } => "parse error",
            KjsonError::Option { .. } => "invalid option",
            KjsonError::Type { .. } => "unsupported type",
            KjsonError::Schema { .. } => "schema mismatch",
            KjsonError::MapNullKey { .. } => "null map key",
            KjsonError::Limit { .. } => "limit exceeded",
            KjsonError::Value { .. } => "invalid value",
            KjsonError::Internal { .. } => "internal error (a kjson bug, please report it)",
            KjsonError::Record { record, .. } => return write!(f, "record {record}: {}", self.message()),
        };
        match self.position() {
            Some(p) => write!(f, "{kind} at {p}: {}", self.message()),
            None => write!(f, "{kind}: {}", self.message()),
        }
    }
}

impl std::error::Error for KjsonError {}
