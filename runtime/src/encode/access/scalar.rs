//! [`Scalar`]: what every scalar accessor offers, so that one layout primitive (a nullable
//! value, an ARRAY of scalars, a ROW field) serves them all, in the dynamic encoder's column
//! programs and in generated code alike. Generated code, which knows its side's
//! `timestamp-format.standard`, passes its timestamps through [`local`] or [`ltz`] so the
//! spelling is a type, not a run-time choice.
use std::marker::PhantomData;

use super::columns::{
    Binaries, BindColumn, Bools, Dates, Decimals, Floats32, Floats64, Intervals, Ints, Times, Timestamps,
};
use super::strings::Strings;
use crate::encode::bind::BoundColumn;
use crate::encode::context::{WriteContext, WriteResult};
use crate::error::Result;
use crate::options::TimestampFormat;
use crate::spelling::sink::ByteSink;
use crate::spelling::temporal::{Spelling, TimestampStandard};

/// A typed accessor of scalar values.
pub trait Scalar {
    fn null(&self, row: usize) -> bool;
    /// The most bytes [`Scalar::put`] writes for `row`.
    fn bound(&self, row: usize) -> usize;
    /// Writes the non-null value at `row`.
    fn put<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) -> WriteResult;
}

macro_rules! infallible_scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            #[inline(always)]
            fn null(&self, row: usize) -> bool {
                self.is_null(row)
            }

            #[inline(always)]
            fn bound(&self, row: usize) -> usize {
                <$t>::bound(self, row)
            }

            #[inline(always)]
            fn put<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) -> WriteResult {
                self.write(out, row, cx);
                Ok(())
            }
        }
    )*};
}
infallible_scalar!(
    Bools<'_>,
    Ints<'_, i8>,
    Ints<'_, i16>,
    Ints<'_, i32>,
    Ints<'_, i64>,
    Floats32<'_>,
    Floats64<'_>,
    Decimals<'_>,
    Strings<'_>,
    Binaries<'_>,
    Dates<'_>,
    Timestamps<'_>,
    Intervals<'_>
);

impl Scalar for Times<'_> {
    #[inline(always)]
    fn null(&self, row: usize) -> bool {
        self.is_null(row)
    }

    #[inline(always)]
    fn bound(&self, row: usize) -> usize {
        Times::bound(self, row)
    }

    #[inline(always)]
    fn put<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) -> WriteResult {
        self.write(out, row, cx)
    }
}

/// TIMESTAMP values spelled in the standard `F`, fixed by generated code.
pub struct Local<'r, 'a, F>(&'r mut Timestamps<'a>, PhantomData<F>);

/// TIMESTAMP_LTZ values spelled in the standard `F`, fixed by generated code.
pub struct Ltz<'r, 'a, F>(&'r mut Timestamps<'a>, PhantomData<F>);

/// `timestamps` as TIMESTAMP values in the standard `F`.
#[inline(always)]
pub fn local<'r, 'a, F: TimestampStandard>(timestamps: &'r mut Timestamps<'a>) -> Local<'r, 'a, F> {
    Local(timestamps, PhantomData)
}

/// `timestamps` as TIMESTAMP_LTZ values in the standard `F`.
#[inline(always)]
pub fn ltz<'r, 'a, F: TimestampStandard>(timestamps: &'r mut Timestamps<'a>) -> Ltz<'r, 'a, F> {
    Ltz(timestamps, PhantomData)
}

/// TIMESTAMP or TIMESTAMP_LTZ values in a spelling fixed at bind from the side's
/// `timestamp-format.standard` (the dynamic encoder's programs), where [`Timestamps::write`]
/// reads the standard from the context for every value.
pub struct Spelled<'a> {
    timestamps: Timestamps<'a>,
    spelling: Spelling,
}

impl<'a> Spelled<'a> {
    pub(crate) fn bind(column: &'a BoundColumn<'a>, format: TimestampFormat) -> Result<Self> {
        let timestamps = Timestamps::bind(column)?;
        Ok(Spelled { spelling: timestamps.spelling(format), timestamps })
    }
}

impl Scalar for Spelled<'_> {
    #[inline(always)]
    fn null(&self, row: usize) -> bool {
        self.timestamps.is_null(row)
    }

    #[inline(always)]
    fn bound(&self, row: usize) -> usize {
        self.timestamps.bound(row)
    }

    #[inline(always)]
    fn put<S: ByteSink>(&mut self, out: &mut S, row: usize, _: &WriteContext) -> WriteResult {
        self.timestamps.write_spelled(out, row, self.spelling);
        Ok(())
    }
}

macro_rules! spelled_timestamps {
    ($t:ident, $write:ident) => {
        impl<F: TimestampStandard> Scalar for $t<'_, '_, F> {
            #[inline(always)]
            fn null(&self, row: usize) -> bool {
                self.0.is_null(row)
            }

            #[inline(always)]
            fn bound(&self, row: usize) -> usize {
                self.0.bound(row)
            }

            #[inline(always)]
            fn put<S: ByteSink>(&mut self, out: &mut S, row: usize, cx: &WriteContext) -> WriteResult {
                self.0.$write::<F>(out, row, cx);
                Ok(())
            }
        }
    };
}
spelled_timestamps!(Local, write_local);
spelled_timestamps!(Ltz, write_ltz);
