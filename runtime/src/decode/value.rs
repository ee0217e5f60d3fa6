//! One decoded SQL value, held until its whole record has decoded (a record that fails leaves
//! nothing behind), then appended to the batch's columns.

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
