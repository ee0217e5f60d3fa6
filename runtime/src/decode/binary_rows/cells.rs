//! One decoded column written into the rows of a `BinaryRowData` slab, one pass per column.
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Decimal128Type, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType, TimestampMicrosecondType,
    TimestampMillisecondType, TimestampSecondType,
};
use arrow_array::Array;
use arrow_buffer::{BooleanBuffer, NullBuffer};
use arrow_schema::{DataType as ArrowType, TimeUnit};

use crate::decode::arrow_out::{EPOCH_MILLIS, NANO_OF_MILLI};

/// Up to this many bytes of a string or byte string stay in the field's slot.
const INLINE_BYTES: usize = 7;

/// Bytes of the null bits (with the header byte), in whole 8-byte words.
fn null_bytes(arity: usize) -> usize {
    (arity + 8).div_ceil(64) * 8
}

/// A row's fixed part: the null bits, then one 8-byte slot per field.
pub(super) fn fixed_size(arity: usize) -> usize {
    null_bytes(arity) + 8 * arity
}

/// Whether a decoded column of this Arrow type is written by this path.
pub(super) fn is_scalar(ty: &ArrowType) -> bool {
    match ty {
        ArrowType::Struct(fields) => {
            fields.len() == 2 && fields[0].name() == EPOCH_MILLIS && fields[1].name() == NANO_OF_MILLI
        }
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
        match &self.values {
            Values::Boolean(v) => self.each(out, |out, row| out.slot(row, &[v.value(row) as u8])),
            Values::Byte(v) => self.each(out, |out, row| out.slot(row, &v[row].to_le_bytes())),
            Values::Short(v) => self.each(out, |out, row| out.slot(row, &v[row].to_le_bytes())),
            Values::Int(v) => self.each(out, |out, row| out.slot(row, &v[row].to_le_bytes())),
            Values::Long(v) => self.each(out, |out, row| out.slot(row, &v[row].to_le_bytes())),
            Values::Float(v) => self.each(out, |out, row| out.slot(row, &v[row].to_bits().to_le_bytes())),
            Values::Double(v) => self.each(out, |out, row| out.slot(row, &v[row].to_bits().to_le_bytes())),
            Values::SecondsAsMillis(v) => {
                self.each(out, |out, row| out.slot(row, &v[row].wrapping_mul(1000).to_le_bytes()))
            }
            Values::TimeDividedToMillis { values, per_milli } => {
                self.each(out, |out, row| out.slot(row, &((values[row] / per_milli) as i32).to_le_bytes()))
            }
            Values::EpochSecondsAsMillis(v) => {
                self.each(out, |out, row| out.slot(row, &v[row].wrapping_mul(1000).to_le_bytes()))
            }
            Values::Wide { millis, nanos } => {
                self.each(out, |out, row| out.variable(row, &millis[row].to_le_bytes(), 8, nanos[row] as u32))
            }
            Values::WideMicros(v) => self.each(out, |out, row| {
                let (millis, micros) = (v[row].div_euclid(1000), v[row].rem_euclid(1000));
                out.variable(row, &millis.to_le_bytes(), 8, (micros * 1000) as u32)
            }),
            Values::CompactDecimal(v) => self.each(out, |out, row| out.slot(row, &(v[row] as i64).to_le_bytes())),
            Values::WideDecimal(v) => self.each(out, |out, row| {
                let bytes = v[row].to_be_bytes();
                let value = &bytes[16 - java_byte_length(v[row])..];
                out.variable(row, value, 16, value.len() as u32)
            }),
            Values::Bytes { offsets, data } => self.each(out, |out, row| {
                let value = &data[offsets[row] as usize..offsets[row + 1] as usize];
                match value.len() {
                    len if len <= INLINE_BYTES => out.inline(row, value),
                    len => out.variable(row, value, len.next_multiple_of(8), len as u32),
                }
            }),
        }
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

/// The slab being written, seen from one column: where each row starts, each row's variable
/// part so far, and this field's null bit and slot.
pub(super) struct Target<'a> {
    data: &'a mut [u8],
    offsets: &'a [usize],
    cursors: &'a mut [usize],
    null_byte: usize,
    null_mask: u8,
    slot: usize,
}

impl<'a> Target<'a> {
    pub(super) fn new(
        data: &'a mut [u8],
        offsets: &'a [usize],
        cursors: &'a mut [usize],
        field: usize,
        arity: usize,
    ) -> Target<'a> {
        let bit = field + 8; // after the header byte
        Target {
            data,
            offsets,
            cursors,
            null_byte: bit / 8,
            null_mask: 1 << (bit % 8),
            slot: null_bytes(arity) + 8 * field,
        }
    }

    fn rows(&self) -> usize {
        self.cursors.len()
    }

    #[inline(always)]
    fn null(&mut self, row: usize) {
        self.data[self.offsets[row] + self.null_byte] |= self.null_mask;
    }

    /// A fixed-size value at the start of the field's (zeroed) slot.
    #[inline(always)]
    fn slot(&mut self, row: usize, value: &[u8]) {
        let at = self.offsets[row] + self.slot;
        self.data[at..at + value.len()].copy_from_slice(value);
    }

    /// Up to 7 bytes in the slot, the slot's last byte `0x80 | length`.
    #[inline(always)]
    fn inline(&mut self, row: usize, value: &[u8]) {
        self.slot(row, value);
        self.data[self.offsets[row] + self.slot + 7] = 0x80 | value.len() as u8;
    }

    /// `value` at the row's variable cursor, which moves on by `reserved`; the slot holds the
    /// value's offset in the row and `size`.
    #[inline(always)]
    fn variable(&mut self, row: usize, value: &[u8], reserved: usize, size: u32) {
        let cursor = self.cursors[row];
        let at = self.offsets[row] + cursor;
        self.data[at..at + value.len()].copy_from_slice(value);
        self.slot(row, &(((cursor as u64) << 32) | u64::from(size)).to_le_bytes());
        self.cursors[row] = cursor + reserved;
    }
}
