//! Typed column accessors, for generated rows and the dynamic encoder's column programs alike:
//! each is made once per batch from a [`BoundColumn`], then reads and writes one value per call
//! without matching on the column's type.
//!
//! Every typed accessor has `is_null(row)`, `write(out, row, cx)` into any [`ByteSink`] (only
//! called for a non-null value), and `bound(row)`: the most bytes `write` puts into a
//! [`crate::spelling::sink::Reserved`] sink for that row; [`Times`]'s returns a [`WriteResult`],
//! as a TIME outside one day fails. Each converts its Arrow units in one place. [`Timestamps`]
//! also has `write_local` and `write_ltz`, which generated code calls with its side's
//! `timestamp-format.standard` as a type.
use arrow_array::{Array, BooleanArray};
use arrow_buffer::NullBuffer;

use crate::encode::bind::{BoundColumn, ByteValues, Prim, TimestampValues};
use crate::encode::context::{ValueError, WriteContext, WriteResult};
use crate::error::{KjsonError, Result};
use crate::float;
use crate::options::TimestampFormat;
use crate::spelling::sink::ByteSink;
use crate::spelling::temporal::{Spelling, TimestampStandard};
use crate::spelling::{self, base64, decimal, temporal};

#[cold]
pub(super) fn wrong_column(expected: &str, found: &BoundColumn<'_>) -> KjsonError {
    let found = match found {
        BoundColumn::Boolean(_) => "Boolean",
        BoundColumn::I8(_) | BoundColumn::I16(_) | BoundColumn::I32(_) | BoundColumn::I64(_) => "integer",
        BoundColumn::F32(_) | BoundColumn::F64(_) => "float",
        BoundColumn::Decimal(..) => "decimal",
        BoundColumn::Str(..) => "string",
        BoundColumn::Bytes(..) => "binary",
        BoundColumn::Date32(_) | BoundColumn::Date64(_) => "date",
        BoundColumn::Time32 { .. } | BoundColumn::Time64 { .. } => "time",
        BoundColumn::Timestamp { .. } => "timestamp",
        BoundColumn::DayTime(_) | BoundColumn::Duration { .. } => "interval",
        BoundColumn::List { .. } | BoundColumn::Map { .. } | BoundColumn::Row { .. } => "nested",
    };
    KjsonError::internal(format!("generated code expects a {expected} column, the plan bound a {found} one"))
}

/// Makes an accessor from a bound column, checking it is the kind the accessor reads.
pub trait BindColumn<'a>: Sized {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self>;
}

#[inline(always)]
pub(super) fn null_at(nulls: Option<&NullBuffer>, row: usize) -> bool {
    nulls.is_some_and(|n| n.is_null(row))
}

pub struct Bools<'a> {
    array: &'a BooleanArray,
}

impl<'a> BindColumn<'a> for Bools<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Boolean(array) => Ok(Bools { array }),
            other => Err(wrong_column("BOOLEAN", other)),
        }
    }
}

impl Bools<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        self.array.is_null(row)
    }

    #[inline(always)]
    pub fn bound(&self, _: usize) -> usize {
        5
    }

    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, _: &WriteContext) {
        spelling::write_bool(out, self.array.value(row));
    }
}

/// Integer types the accessors read; sealed to the four Arrow widths.
pub trait IntValue: Into<i64> + Copy + 'static {
    fn values<'a>(column: &'a BoundColumn<'a>) -> Option<Prim<'a, Self>>;
}

macro_rules! int_value {
    ($t:ty, $variant:ident) => {
        impl IntValue for $t {
            #[inline]
            fn values<'a>(column: &'a BoundColumn<'a>) -> Option<Prim<'a, $t>> {
                match column {
                    BoundColumn::$variant(p) => Some(*p),
                    _ => None,
                }
            }
        }
    };
}
int_value!(i8, I8);
int_value!(i16, I16);
int_value!(i32, I32);
int_value!(i64, I64);

/// TINYINT, SMALLINT, INT, BIGINT and INTERVAL YEAR TO MONTH.
pub struct Ints<'a, T> {
    values: Prim<'a, T>,
}

impl<'a, T: IntValue> BindColumn<'a> for Ints<'a, T> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        T::values(column).map(|values| Ints { values }).ok_or_else(|| wrong_column(std::any::type_name::<T>(), column))
    }
}

impl<T: IntValue> Ints<'_, T> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        null_at(self.values.nulls, row)
    }

    #[inline(always)]
    pub fn bound(&self, _: usize) -> usize {
        spelling::INT_BOUND
    }

    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, _: &WriteContext) {
        spelling::write_int(out, self.values.values[row]);
    }
}

/// FLOAT and DOUBLE, written straight into the sink in one fixed-size store.
pub struct Floats<'a, T> {
    values: Prim<'a, T>,
}

pub type Floats32<'a> = Floats<'a, f32>;
pub type Floats64<'a> = Floats<'a, f64>;

impl<'a> BindColumn<'a> for Floats<'a, f32> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::F32(values) => Ok(Floats { values: *values }),
            other => Err(wrong_column("FLOAT", other)),
        }
    }
}

impl<'a> BindColumn<'a> for Floats<'a, f64> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::F64(values) => Ok(Floats { values: *values }),
            other => Err(wrong_column("DOUBLE", other)),
        }
    }
}

impl<T: Copy> Floats<'_, T> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        null_at(self.values.nulls, row)
    }

    #[inline(always)]
    pub fn bound(&self, _: usize) -> usize {
        float::FLOAT_BOUND
    }
}

impl Floats<'_, f32> {
    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) {
        float::write_f32_json(out, self.values.values[row], cx.compatibility.float_spelling);
    }
}

impl Floats<'_, f64> {
    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) {
        float::write_f64_json(out, self.values.values[row], cx.compatibility.float_spelling);
    }
}

/// DECIMAL, written straight into the sink.
pub struct Decimals<'a> {
    values: Prim<'a, i128>,
    scale: u8,
}

impl<'a> BindColumn<'a> for Decimals<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Decimal(values, scale) => Ok(Decimals { values: *values, scale: *scale }),
            other => Err(wrong_column("DECIMAL", other)),
        }
    }
}

impl Decimals<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        null_at(self.values.nulls, row)
    }

    #[inline(always)]
    pub fn bound(&self, _: usize) -> usize {
        decimal::decimal_bound(self.scale)
    }

    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) {
        let plain = cx.options.encode_decimal_as_plain_number;
        let version = cx.compatibility.flink_version;
        decimal::write_decimal(out, self.values.values[row], self.scale, plain, version);
    }
}

/// BINARY and VARBINARY, as Base64.
pub struct Binaries<'a> {
    values: &'a ByteValues<'a>,
    nulls: Option<&'a NullBuffer>,
}

impl<'a> BindColumn<'a> for Binaries<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Bytes(values, nulls) => Ok(Binaries { values, nulls: *nulls }),
            other => Err(wrong_column("binary", other)),
        }
    }
}

impl Binaries<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        null_at(self.nulls, row)
    }

    #[inline(always)]
    pub fn bound(&self, row: usize) -> usize {
        base64::base64_bound(self.values.bytes(row).len())
    }

    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, _: &WriteContext) {
        base64::write_base64_json(out, self.values.bytes(row));
    }
}

/// DATE from Date32 (days) or Date64 (milliseconds), with the last day's text cached.
pub struct Dates<'a> {
    days: Option<Prim<'a, i32>>,
    millis: Option<Prim<'a, i64>>,
    cache: temporal::DayCache,
}

impl<'a> BindColumn<'a> for Dates<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        let cache = temporal::DayCache::new();
        match column {
            BoundColumn::Date32(p) => Ok(Dates { days: Some(*p), millis: None, cache }),
            BoundColumn::Date64(p) => Ok(Dates { days: None, millis: Some(*p), cache }),
            other => Err(wrong_column("DATE", other)),
        }
    }
}

impl Dates<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        match (&self.days, &self.millis) {
            (Some(p), _) => null_at(p.nulls, row),
            (_, Some(p)) => null_at(p.nulls, row),
            _ => false,
        }
    }

    #[inline(always)]
    pub fn bound(&self, _: usize) -> usize {
        temporal::DATE_BOUND
    }

    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, _: &WriteContext) {
        let day = match (&self.days, &self.millis) {
            (Some(p), _) => i64::from(p.values[row]),
            (_, Some(p)) => p.values[row].div_euclid(86_400_000),
            _ => return,
        };
        temporal::write_date_json(out, &mut self.cache, day);
    }
}

/// TIMESTAMP and TIMESTAMP_LTZ of any Arrow unit. The last value's text is cached under its raw
/// Arrow value, so a repeated value is one comparison and a copy, with no unit conversion; the
/// unit, fixed at bind, is read only to format a new value.
pub struct Timestamps<'a> {
    values: TimestampValues<'a>,
    nulls: Option<&'a NullBuffer>,
    ltz: bool,
    cache: temporal::SecondCache,
}

impl<'a> BindColumn<'a> for Timestamps<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Timestamp { values, nulls, ltz } => {
                Ok(Timestamps { values: *values, nulls: *nulls, ltz: *ltz, cache: temporal::SecondCache::new() })
            }
            other => Err(wrong_column("TIMESTAMP", other)),
        }
    }
}

impl Timestamps<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        null_at(self.nulls, row)
    }

    #[inline(always)]
    pub fn bound(&self, _: usize) -> usize {
        temporal::TIMESTAMP_BOUND
    }

    /// A TIMESTAMP value in the side's standard `F` (generated code, which knows both).
    #[inline(always)]
    pub fn write_local<F: TimestampStandard>(&mut self, out: &mut impl ByteSink, row: usize, _: &WriteContext) {
        debug_assert!(!self.ltz, "the generated code and the plan disagree on TIMESTAMP_LTZ");
        self.write_spelled(out, row, Spelling::of::<F>(false));
    }

    /// A TIMESTAMP_LTZ value in the side's standard `F` (generated code, which knows both).
    #[inline(always)]
    pub fn write_ltz<F: TimestampStandard>(&mut self, out: &mut impl ByteSink, row: usize, _: &WriteContext) {
        debug_assert!(self.ltz, "the generated code and the plan disagree on TIMESTAMP_LTZ");
        self.write_spelled(out, row, Spelling::of::<F>(true));
    }

    /// With the side's standard read from `cx`.
    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) {
        self.write_spelled(out, row, Spelling::new(cx.options.timestamp_format, self.ltz));
    }

    /// This column's values in the standard `format`.
    pub(crate) fn spelling(&self, format: TimestampFormat) -> Spelling {
        Spelling::new(format, self.ltz)
    }

    #[inline(always)]
    pub(crate) fn write_spelled(&mut self, out: &mut impl ByteSink, row: usize, spelling: Spelling) {
        // The cache key: the raw value of a unit, or the parts themselves (nanos below 2^24).
        let values = self.values;
        let key = match values {
            TimestampValues::Unit(raw, _) => (raw[row], 0),
            TimestampValues::Parts { millis, nanos } => (millis[row], nanos[row] as u32),
        };
        temporal::write_timestamp_keyed(out, &mut self.cache, key, spelling, || values.parts(row));
    }
}

/// TIME from Time32 or Time64 of any unit, as milliseconds of the day.
pub struct Times<'a> {
    values: TimeValues<'a>,
    /// Scale to milliseconds: `value * mul / div`.
    mul: i64,
    div: i64,
}

enum TimeValues<'a> {
    Time32(Prim<'a, i32>),
    Time64(Prim<'a, i64>),
}

impl<'a> BindColumn<'a> for Times<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::Time32 { values, mul, div } => {
                Ok(Times { values: TimeValues::Time32(*values), mul: *mul, div: *div })
            }
            BoundColumn::Time64 { values, mul, div } => {
                Ok(Times { values: TimeValues::Time64(*values), mul: *mul, div: *div })
            }
            other => Err(wrong_column("TIME", other)),
        }
    }
}

impl Times<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        match &self.values {
            TimeValues::Time32(p) => null_at(p.nulls, row),
            TimeValues::Time64(p) => null_at(p.nulls, row),
        }
    }

    #[inline(always)]
    pub fn bound(&self, _: usize) -> usize {
        temporal::TIME_BOUND
    }

    /// Fails for a value outside one day (Flink's `LocalTime` cannot hold it).
    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) -> WriteResult {
        let millis = match &self.values {
            TimeValues::Time32(p) => i64::from(p.values[row]) * self.mul / self.div,
            TimeValues::Time64(p) => p.values[row].wrapping_mul(self.mul) / self.div,
        };
        if !(0..86_400_000).contains(&millis) {
            return Err(time_out_of_range(millis));
        }
        temporal::write_time_json(out, millis as i32, cx.compatibility.flink_version);
        Ok(())
    }
}

#[cold]
fn time_out_of_range(millis: i64) -> ValueError {
    ValueError::OutOfRange { what: format!("TIME value of {millis} ms is outside one day"), path: vec![] }
}

/// INTERVAL DAY TO SECOND from Int64 milliseconds, Interval(DayTime) or Duration, as
/// milliseconds.
pub enum Intervals<'a> {
    Millis(Prim<'a, i64>),
    DayTime(Prim<'a, arrow_buffer::IntervalDayTime>),
    /// Scaled to milliseconds: `value * mul / div`.
    Duration {
        values: Prim<'a, i64>,
        mul: i64,
        div: i64,
    },
}

impl<'a> BindColumn<'a> for Intervals<'a> {
    fn bind(column: &'a BoundColumn<'a>) -> Result<Self> {
        match column {
            BoundColumn::I64(values) => Ok(Intervals::Millis(*values)),
            BoundColumn::DayTime(values) => Ok(Intervals::DayTime(*values)),
            BoundColumn::Duration { values, mul, div } => {
                Ok(Intervals::Duration { values: *values, mul: *mul, div: *div })
            }
            other => Err(wrong_column("INTERVAL DAY TO SECOND", other)),
        }
    }
}

impl Intervals<'_> {
    #[inline(always)]
    pub fn is_null(&self, row: usize) -> bool {
        match self {
            Intervals::Millis(p) => null_at(p.nulls, row),
            Intervals::DayTime(p) => null_at(p.nulls, row),
            Intervals::Duration { values, .. } => null_at(values.nulls, row),
        }
    }

    #[inline(always)]
    pub fn bound(&self, _: usize) -> usize {
        spelling::INT_BOUND
    }

    #[inline(always)]
    pub fn write<S: ByteSink>(&mut self, out: &mut S, row: usize, _: &WriteContext) {
        match self {
            Intervals::Millis(p) => spelling::write_int(out, p.values[row]),
            Intervals::DayTime(p) => {
                let v = p.values[row];
                spelling::write_int(out, i64::from(v.days) * 86_400_000 + i64::from(v.milliseconds))
            }
            Intervals::Duration { values, mul, div } => {
                spelling::write_int(out, values.values[row].wrapping_mul(*mul) / *div)
            }
        }
    }
}
