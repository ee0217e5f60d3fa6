//! One decoded SQL value, held until its whole record has decoded (a record that fails leaves
//! nothing behind), then appended to the batch's columns.
use crate::types::{DataType, LogicalType};

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    /// TINYINT, SMALLINT, INT, BIGINT and the intervals.
    Int(i64),
    Float(f32),
    Double(f64),
    /// The unscaled value at the column's scale.
    Decimal(i128),
    /// UTF-8 bytes as Java's `getBytes(UTF_8)` gives them.
    Text(Vec<u8>),
    Bytes(Vec<u8>),
    /// Days since the epoch.
    Date(i32),
    /// Milliseconds of the day.
    Time(i32),
    Timestamp {
        millis: i64,
        nano_of_milli: i32,
    },
    List(Vec<Value>),
    Map(Vec<(Value, Value)>),
    Row(Vec<Value>),
}

/// A MAP's entries as Flink's `HashMap` keeps them, in first-seen order: a repeated key's last
/// value wins. A text key is compared as the Java string it was read as (`identity`), not by its
/// bytes: two lone surrogates are two keys, though both are written `?`.
#[derive(Default)]
pub(crate) struct MapEntries {
    entries: Vec<(Value, Value)>,
    identities: Vec<Option<Vec<u16>>>,
}

impl MapEntries {
    pub(crate) fn put(&mut self, identity: Option<Vec<u16>>, key: Value, value: Value) {
        let at = match &identity {
            Some(units) => self.identities.iter().position(|seen| seen.as_ref() == Some(units)),
            None => self.entries.iter().position(|(seen, _)| *seen == key),
        };
        match at {
            Some(at) => self.entries[at].1 = value,
            None => {
                self.entries.push((key, value));
                self.identities.push(identity);
            }
        }
    }

    pub(crate) fn into_value(self) -> Value {
        Value::Map(self.entries)
    }
}

/// Whether a MAP key of `ty` is a Java string in Flink's `HashMap`.
pub(crate) fn is_text_key(ty: &DataType) -> bool {
    matches!(ty.logical, LogicalType::Char { .. } | LogicalType::VarChar { .. })
}
