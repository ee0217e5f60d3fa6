//! The batch of one encode call, through the Arrow C Data Interface.
//!
//! The array is moved (the C Data Interface's "move"): the struct is copied out and the caller's
//! copy marked released, and Rust calls its release callback exactly once, when the imported
//! buffers drop before `kjson_encode` returns, on success and on every error. The schema is only
//! read: the caller keeps it, may pass it with every batch, and releases it.
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{Int8Array, RecordBatch};
use arrow_schema::DataType as ArrowType;
use kjson_arrow::ffi::import_batch;

use crate::parts::slice;
use crate::status::CallError;

/// Moves the array out of `*array`. Called first in every encode, so that whatever happens next
/// releases it.
///
/// # Safety
/// `array` is NULL or points to an initialized `ArrowArray` struct.
pub unsafe fn take_array(array: *mut FFI_ArrowArray) -> Result<FFI_ArrowArray, CallError> {
    if array.is_null() {
        return Err(CallError::argument("array is NULL"));
    }
    if !array.is_aligned() {
        return Err(CallError::argument("array is not aligned"));
    }
    // SAFETY: non-null, aligned, initialized by the caller's contract; `from_raw` moves the
    // struct out and leaves a released (empty) struct behind.
    let taken = unsafe { FFI_ArrowArray::from_raw(array) };
    match taken.release() {
        Some(_) => Ok(taken),
        None => Err(CallError::argument("the ArrowArray was already released or moved (each export is encoded once)")),
    }
}

/// The record batch: `array` must be a struct array of the batch's columns, as `schema` says.
///
/// # Safety
/// `schema` is NULL or points to an initialized `ArrowSchema` that describes `array`.
pub unsafe fn batch(array: FFI_ArrowArray, schema: *const FFI_ArrowSchema) -> Result<RecordBatch, CallError> {
    if schema.is_null() {
        return Err(CallError::argument("schema is NULL"));
    }
    if !schema.is_aligned() {
        return Err(CallError::argument("schema is not aligned"));
    }
    // SAFETY: non-null, aligned, initialized by the caller's contract; only read.
    let schema = unsafe { &*schema };
    if schema.release().is_none() {
        return Err(CallError::argument("the ArrowSchema was released already"));
    }
    let data_type =
        ArrowType::try_from(schema).map_err(|e| CallError::argument(format!("cannot read the ArrowSchema: {e}")))?;
    // SAFETY: the producer keeps the buffers alive until `release`, and `data_type` is read from
    // the schema the caller says describes them. The array is taken by value, so it is released
    // when the last buffer drops, also when the import fails.
    unsafe { import_batch(array, data_type) }.map_err(|e| CallError::argument(e.to_string()))
}

/// Flink RowKind bytes (0 +I, 1 -U, 2 +U, 3 -D), one per row; NULL means every row is +I.
///
/// # Safety
/// `kinds` is NULL or points to `len` bytes.
pub unsafe fn row_kinds(kinds: *const i8, len: usize) -> Result<Option<Int8Array>, CallError> {
    if kinds.is_null() {
        return Ok(None);
    }
    // SAFETY: per this function's contract.
    let kinds = unsafe { slice(kinds, len, "row_kinds") }?;
    Ok(Some(Int8Array::from(kinds.to_vec())))
}
