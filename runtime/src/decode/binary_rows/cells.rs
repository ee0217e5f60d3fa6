//! One decoded column written into the rows of a `BinaryRowData` slab, one pass per column.
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampSecondType,
};
use arrow_array::Array;
use arrow_buffer::{BooleanBuffer, NullBuffer};
use arrow_schema::{DataType as ArrowType, Fields, TimeUnit};

use super::slots::{Slot, Target};
use crate::decode::arrow_out::timestamp_parts;

/// Up to this many bytes of a string or byte string stay in the field's slot.
const INLINE_BYTES: usize = 7;

/// The struct of a TIMESTAMP above precision 3 (its parts are not nullable, a ROW's fields are).
pub(super) fn is_timestamp(fields: &Fields) -> bool {
    *fields == timestamp_parts()
}

/// Whether a decoded column of this Arrow type is written by this path.
pub(super) fn is_scalar(ty: &ArrowType) -> bool {
    match ty {
        ArrowType::Struct(fields) => is_timestamp(fields),
        ArrowType::Boolean
        | ArrowType::Int8
        | ArrowType::Int16
        | ArrowType::Int32
        | ArrowType::Int64
        | ArrowType::Float32
        | ArrowType::Float64
        | ArrowType::Decimal128(..)
        | ArrowType::Utf8
        | ArrowType::Binary
        | ArrowType::Date32
        | ArrowType::Time32(_)
        | ArrowType::Time64(_) => true,
        ArrowType::Timestamp(TimeUnit::Second | TimeUnit::Millisecond | TimeUnit::Microsecond, None) => true,
        _ => false,
    }
}

/// A column's values, read the way its Flink type stores them.
enum Values<'a> {
    Boolean(&'a BooleanBuffer),
    Byte(&'a [i8]),
    Short(&'a [i16]),
    Int(&'a [i32]),
    Long(&'a [i64]),
    Float(&'a [f32]),
    Double(&'a [f64]),
    /// TIME in seconds (TIME(0)): Flink keeps milliseconds in an int.
    SecondsAsMillis(&'a [i32]),
    /// TIME(4..9) in micro- or nanoseconds: milliseconds in an int.
    TimeDividedToMillis {
        values: &'a [i64],
        per_milli: i64,
    },
    /// TIMESTAMP(0) by precision: compact milliseconds.
    EpochSecondsAsMillis(&'a [i64]),
    /// A TIMESTAMP above precision 3: epoch milliseconds in the variable part, nanoseconds of
    /// the millisecond in the slot.
    Wide {
        millis: &'a [i64],
        nanos: &'a [i32],
    },
    /// TIMESTAMP(4..6) by precision, as microseconds.
    WideMicros(&'a [i64]),
    /// DECIMAL of precision up to 18: the unscaled value as a long.
    CompactDecimal(&'a [i128]),
    /// DECIMAL above precision 18: the unscaled value's bytes in 16 bytes of the variable part.
    WideDecimal(&'a [i128]),
    Bytes {
        offsets: &'a [i32],
        data: &'a [u8],
    },
}

/// One column bound for writing.
pub(super) struct Cell<'a> {
    nulls: Option<&'a NullBuffer>,
    values: Values<'a>,
}

impl<'a> Cell<'a> {
    /// The column's values, or `None` for a layout [`is_scalar`] refuses.
    pub(super) fn bind(array: &'a dyn Array) -> Option<Cell<'a>> {
        Some(Cell { nulls: array.nulls(), values: values(array)? })
    }

    pub(super) fn has_variable_part(&self) -> bool {
        matches!(
            self.values,
            Values::Bytes { .. } | Values::Wide { .. } | Values::WideMicros(_) | Values::WideDecimal(_)
        )
    }

    /// The bytes row `row` of this column takes in the variable part.
    pub(super) fn variable_size(&self, row: usize) -> usize {
        if self.nulls.is_some_and(|n| n.is_null(row)) {
            return 0;
        }
        match &self.values {
            Values::Bytes { offsets, .. } => match (offsets[row + 1] - offsets[row]) as usize {
                len if len <= INLINE_BYTES => 0,
                len => len.next_multiple_of(8),
            },
            Values::Wide { .. } | Values::WideMicros(_) => 8,
            Values::WideDecimal(_) => 16,
            _ => 0,
        }
    }

    /// Writes this column's field of every row.
    pub(super) fn fill(&self, out: &mut Target<'_>) {
        // One loop per variant, the variant rebuilt inside it: `put`'s match then folds away
        // and the variant is matched once per column, not once per cell.
        macro_rules! each {
            ($values:expr) => {
                self.each(out, |out, row| put(&$values, row, &mut out.slot_of(row)))
            };
        }
        match self.values {
            Values::Boolean(v) => each!(Values::Boolean(v)),
            Values::Byte(v) => each!(Values::Byte(v)),
            Values::Short(v) => each!(Values::Short(v)),
            Values::Int(v) => each!(Values::Int(v)),
            Values::Long(v) => each!(Values::Long(v)),
            Values::Float(v) => each!(Values::Float(v)),
            Values::Double(v) => each!(Values::Double(v)),
            Values::SecondsAsMillis(v) => each!(Values::SecondsAsMillis(v)),
            Values::TimeDividedToMillis { values, per_milli } => {
                each!(Values::TimeDividedToMillis { values, per_milli })
            }
            Values::EpochSecondsAsMillis(v) => each!(Values::EpochSecondsAsMillis(v)),
            Values::Wide { millis, nanos } => each!(Values::Wide { millis, nanos }),
            Values::WideMicros(v) => each!(Values::WideMicros(v)),
            Values::CompactDecimal(v) => each!(Values::CompactDecimal(v)),
            Values::WideDecimal(v) => each!(Values::WideDecimal(v)),
            Values::Bytes { offsets, data } => each!(Values::Bytes { offsets, data }),
        }
    }

    pub(super) fn is_null(&self, index: usize) -> bool {
        self.nulls.is_some_and(|n| n.is_null(index))
    }

    /// The bytes of a string or byte string value.
    pub(super) fn bytes(&self, index: usize) -> Option<&'a [u8]> {
        match self.values {
            Values::Bytes { offsets, data } => Some(&data[offsets[index] as usize..offsets[index + 1] as usize]),
            _ => None,
        }
    }

    /// The bytes one value takes as an element of a `BinaryArrayData` (a row's slot is always 8).
    pub(super) fn element_size(&self) -> usize {
        match self.values {
            Values::Boolean(_) | Values::Byte(_) => 1,
            Values::Short(_) => 2,
            Values::Int(_) | Values::Float(_) | Values::SecondsAsMillis(_) | Values::TimeDividedToMillis { .. } => 4,
            _ => 8,
        }
    }

    /// Writes the (non-null) value at `index` into `out`.
    pub(super) fn put(&self, index: usize, out: &mut Slot<'_>) {
        put(&self.values, index, out)
    }

    /// Runs `write` on every non-null row and marks the null ones.
    #[inline(always)]
    fn each(&self, out: &mut Target<'_>, mut write: impl FnMut(&mut Target<'_>, usize)) {
        match self.nulls {
            None => (0..out.rows()).for_each(|row| write(out, row)),
            Some(nulls) => {
                for row in 0..out.rows() {
                    if nulls.is_null(row) {
                        out.null(row);
                    } else {
                        write(out, row);
                    }
                }
            }
        }
    }
}

/// Writes the (non-null) value at `i` into `out`.
#[inline(always)]
fn put(values: &Values<'_>, i: usize, out: &mut Slot<'_>) {
    match values {
        Values::Boolean(v) => out.fixed(&[v.value(i) as u8]),
        Values::Byte(v) => out.fixed(&v[i].to_le_bytes()),
        Values::Short(v) => out.fixed(&v[i].to_le_bytes()),
        Values::Int(v) => out.fixed(&v[i].to_le_bytes()),
        Values::Long(v) => out.fixed(&v[i].to_le_bytes()),
        Values::Float(v) => out.fixed(&v[i].to_bits().to_le_bytes()),
        Values::Double(v) => out.fixed(&v[i].to_bits().to_le_bytes()),
        Values::SecondsAsMillis(v) => out.fixed(&v[i].wrapping_mul(1000).to_le_bytes()),
        Values::TimeDividedToMillis { values, per_milli } => out.fixed(&((values[i] / per_milli) as i32).to_le_bytes()),
        Values::EpochSecondsAsMillis(v) => out.fixed(&v[i].wrapping_mul(1000).to_le_bytes()),
        Values::Wide { millis, nanos } => out.variable(&millis[i].to_le_bytes(), 8, nanos[i] as u32),
        Values::WideMicros(v) => {
            let (millis, micros) = (v[i].div_euclid(1000), v[i].rem_euclid(1000));
            out.variable(&millis.to_le_bytes(), 8, (micros * 1000) as u32)
        }
        Values::CompactDecimal(v) => out.fixed(&(v[i] as i64).to_le_bytes()),
        Values::WideDecimal(v) => {
            let bytes = v[i].to_be_bytes();
            let value = &bytes[16 - java_byte_length(v[i])..];
            out.variable(value, 16, value.len() as u32)
        }
        Values::Bytes { offsets, data } => {
            let value = &data[offsets[i] as usize..offsets[i + 1] as usize];
            match value.len() {
                len if len <= INLINE_BYTES => out.inline(value),
                len => out.variable(value, len.next_multiple_of(8), len as u32),
            }
        }
    }
}

fn values(array: &dyn Array) -> Option<Values<'_>> {
    Some(match array.data_type() {
        ArrowType::Boolean => Values::Boolean(array.as_boolean().values()),
        ArrowType::Int8 => Values::Byte(array.as_primitive::<Int8Type>().values()),
        ArrowType::Int16 => Values::Short(array.as_primitive::<Int16Type>().values()),
        ArrowType::Int32 => Values::Int(array.as_primitive::<Int32Type>().values()),
        ArrowType::Date32 => Values::Int(array.as_primitive::<Date32Type>().values()),
        ArrowType::Int64 => Values::Long(array.as_primitive::<Int64Type>().values()),
        ArrowType::Float32 => Values::Float(array.as_primitive::<Float32Type>().values()),
        ArrowType::Float64 => Values::Double(array.as_primitive::<Float64Type>().values()),
        ArrowType::Time32(TimeUnit::Second) => {
            Values::SecondsAsMillis(array.as_primitive::<Time32SecondType>().values())
        }
        ArrowType::Time32(_) => Values::Int(array.as_primitive::<Time32MillisecondType>().values()),
        ArrowType::Time64(TimeUnit::Microsecond) => Values::TimeDividedToMillis {
            values: array.as_primitive::<Time64MicrosecondType>().values(),
            per_milli: 1000,
        },
        ArrowType::Time64(_) => Values::TimeDividedToMillis {
            values: array.as_primitive::<Time64NanosecondType>().values(),
            per_milli: 1_000_000,
        },
        ArrowType::Timestamp(unit, None) => timestamp(array, unit),
        ArrowType::Struct(_) => {
            let parts = array.as_struct();
            Values::Wide {
                millis: parts.column(0).as_primitive::<Int64Type>().values(),
                nanos: parts.column(1).as_primitive::<Int32Type>().values(),
            }
        }
        ArrowType::Decimal128(precision, _) => {
            let values = array.as_primitive::<Decimal128Type>().values();
            if *precision <= 18 {
                Values::CompactDecimal(values)
            } else {
                Values::WideDecimal(values)
            }
        }
        ArrowType::Utf8 => {
            let strings = array.as_string::<i32>();
            Values::Bytes { offsets: strings.value_offsets(), data: strings.value_data() }
        }
        ArrowType::Binary => {
            let bytes = array.as_binary::<i32>();
            Values::Bytes { offsets: bytes.value_offsets(), data: bytes.value_data() }
        }
        _ => return None,
    })
}

fn timestamp<'a>(array: &'a dyn Array, unit: &TimeUnit) -> Values<'a> {
    match unit {
        TimeUnit::Second => Values::EpochSecondsAsMillis(array.as_primitive::<TimestampSecondType>().values()),
        TimeUnit::Millisecond => Values::Long(array.as_primitive::<TimestampMillisecondType>().values()),
        _ => Values::WideMicros(array.as_primitive::<TimestampMicrosecondType>().values()),
    }
}

/// The length of Java's `BigInteger.toByteArray()` of `value`: its two's complement without
/// the leading bytes that only repeat the sign, at least one byte.
pub(super) fn java_byte_length(value: i128) -> usize {
    let sign_bits = if value < 0 { value.leading_ones() } else { value.leading_zeros() };
    (128 - sign_bits as usize) / 8 + 1
}
