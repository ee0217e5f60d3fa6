//! Batches moved in through the Arrow C Data Interface, checked before the encoder reads them:
//! the one import the JNI library and the C ABI share (feature `ffi`). An engine on another Arrow
//! version can hand its batches over the same way.
use std::fmt;
use std::sync::Arc;

use arrow_array::ffi::{from_ffi_and_data_type, FFI_ArrowArray};
use arrow_array::{RecordBatch, RecordBatchOptions, StructArray};
use arrow_data::ArrayData;
use arrow_schema::{DataType as ArrowType, Schema};

mod null_views;

/// Why an imported array is not a batch the encoder can read; the message says what the
/// producer must fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError(pub String);

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ImportError {}

/// The record batch of a struct array (format `"+s"`: one child per column, as Java's
/// `VectorSchemaRoot` exports) described by `data_type`.
///
/// The array is taken by value and released exactly once, when the last buffer that refers to
/// it drops: before this returns on every error, or with the batch. The import trusts the
/// producer, so the batch is validated in full (offsets, UTF-8) before the encoder's safe code
/// reads it; the views under null Utf8View / BinaryView slots, which producers such as Java's
/// Arrow leave unwritten, are zeroed first.
///
/// # Safety
/// `array` comes from a C Data Interface producer that keeps its buffers alive until its
/// `release` callback runs, and `data_type` describes it.
pub unsafe fn import_batch(array: FFI_ArrowArray, data_type: ArrowType) -> Result<RecordBatch, ImportError> {
    // SAFETY: per this function's contract; `from_ffi_and_data_type` takes the array by value.
    let data = unsafe { from_ffi_and_data_type(array, data_type) }
        .map_err(|e| ImportError(format!("cannot import the Arrow array: {e}")))?;
    let data = null_views::zero_null_views(data).map_err(|e| ImportError(format!("invalid Arrow batch: {e}")))?;
    data.validate_full().map_err(|e| ImportError(format!("invalid Arrow batch: {e}")))?;
    batch_from_struct(data)
}

fn batch_from_struct(data: ArrayData) -> Result<RecordBatch, ImportError> {
    if !matches!(data.data_type(), ArrowType::Struct(_)) {
        return Err(ImportError(format!(
            "the array must be a struct of the batch's columns (format \"+s\", as VectorSchemaRoot exports), found {}",
            data.data_type()
        )));
    }
    let rows = data.len();
    let (fields, columns, nulls) = StructArray::from(data).into_parts();
    if nulls.is_some_and(|n| n.null_count() > 0) {
        return Err(ImportError("the struct array has null rows; a batch has none".into()));
    }
    let options = RecordBatchOptions::new().with_row_count(Some(rows));
    RecordBatch::try_new_with_options(Arc::new(Schema::new(fields)), columns, &options)
        .map_err(|e| ImportError(format!("invalid Arrow batch: {e}")))
}
