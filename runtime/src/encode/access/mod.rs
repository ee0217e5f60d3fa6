//! The typed column accessors: made once per batch from a [`BoundColumn`](super::bind::BoundColumn),
//! then each reads and writes one value per call without matching on the column's type. Generated
//! rows (through `codegen_support`) and the dynamic encoder's column programs both write through
//! them, so every value is spelled in one place.
mod columns;
mod nested;
mod scalar;
mod strings;

pub use columns::{
    Binaries, BindColumn, Bools, Dates, Decimals, Floats32, Floats64, Intervals, Ints, Times, Timestamps,
};
pub use nested::{list_items, map_values, row_field, Lists, Maps, Structs};
pub(crate) use nested::{Keys, SMALL_MAP};
pub(crate) use scalar::Spelled;
pub use scalar::{local, ltz, Local, Ltz, Scalar};
pub use strings::Strings;
