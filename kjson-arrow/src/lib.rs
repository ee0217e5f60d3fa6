//! Apache Arrow's array, buffer, schema and selection crates under the module paths of the
//! `arrow` umbrella crate (`arrow::array`, `arrow::datatypes`, ...). The types are Arrow's own, so
//! batches built with the umbrella crate pass through unchanged.

pub mod array {
    pub use arrow_array::builder::*;
    pub use arrow_array::cast::*;
    pub use arrow_array::*;
    pub use arrow_data::ArrayData;
}

pub mod buffer {
    pub use arrow_buffer::*;
}

pub mod datatypes {
    pub use arrow_array::types::*;
    pub use arrow_array::ArrowPrimitiveType;
    pub use arrow_buffer::{i256, ArrowNativeType, IntervalDayTime, IntervalMonthDayNano};
    pub use arrow_schema::*;
}

pub mod error {
    pub use arrow_schema::ArrowError;
}

pub mod record_batch {
    pub use arrow_array::{RecordBatch, RecordBatchOptions, RecordBatchReader};
}

pub mod compute {
    pub use arrow_select::take::take;
}

#[cfg(feature = "ffi")]
pub mod ffi {
    pub use arrow_array::ffi::*;
}

#[cfg(feature = "ipc")]
pub mod ipc {
    pub use arrow_ipc::*;
}
