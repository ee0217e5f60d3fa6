//! The layer the native edges share (feature `ffi`): batches moved in through the Arrow C Data
//! Interface, checked before the encoder reads them (an engine on another Arrow version can hand
//! its batches over the same way), the handle table, and the panic guard with its error map.
use std::fmt;
use std::sync::Arc;

use arrow_array::ffi::{from_ffi_and_data_type, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{RecordBatch, RecordBatchOptions, StructArray};
use arrow_data::ArrayData;
use arrow_schema::{DataType as ArrowType, Schema};

// For kjson's own edges (JNI, C ABI): public so that they can share them, not promised.
#[doc(hidden)]
pub mod guard;
#[doc(hidden)]
pub mod handles;
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

/// [`import_batch`] from raw C Data pointers, for an engine whose Arrow is not kjson's: `array`
/// and `schema` point to an `ArrowArray` and an `ArrowSchema` (a struct `"+s"` of the batch's
/// columns) that any Arrow implementation exported. The array is moved out (the caller's struct
/// is left released); the schema is only read, and the caller still releases it.
///
/// # Safety
/// Both pointers are valid, aligned and point to initialized C Data structs; the array is not
/// released yet and its producer keeps its buffers alive until its `release` callback runs.
pub unsafe fn import_c_data(
    array: *mut std::ffi::c_void,
    schema: *const std::ffi::c_void,
) -> Result<RecordBatch, ImportError> {
    if array.is_null() || schema.is_null() {
        return Err(ImportError("a C Data pointer is null".into()));
    }
    // SAFETY: the caller guarantees an initialized `ArrowSchema`; it is only borrowed here.
    let schema = unsafe { &*(schema as *const FFI_ArrowSchema) };
    let data_type =
        ArrowType::try_from(schema).map_err(|e| ImportError(format!("cannot read the Arrow schema: {e}")))?;
    // SAFETY: the caller guarantees an unreleased `ArrowArray`; `from_raw` moves it out and
    // marks the caller's struct released, so it is released exactly once, by kjson.
    let array = unsafe { FFI_ArrowArray::from_raw(array as *mut FFI_ArrowArray) };
    // SAFETY: the array and its type come from the caller's export, per this function's contract.
    unsafe { import_batch(array, data_type) }
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
