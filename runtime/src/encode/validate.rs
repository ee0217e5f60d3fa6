//! Full validation of Arrow input from an untrusted producer.
//!
//! The encoder trusts the Arrow invariants (offsets inside their buffers and non-decreasing,
//! UTF-8 in string arrays, null counts that match the bitmaps): that is what makes its row loop
//! cheap. Arrays built through arrow's safe constructors and batches read by arrow's IPC reader
//! already hold them. Arrays assembled with `unsafe` constructors, or imported through the C
//! Data Interface (`arrow_array::ffi::from_ffi`, which does not validate), may not: call
//! [`validate_batch`] on those before encoding. The JNI bridge does so for every batch.
use arrow_array::{Array, Int8Array, RecordBatch};

use crate::error::{KjsonError, Result};

/// Checks every column of `batch` (and `row_kinds`) with arrow's full, recursive validation
/// (`ArrayData::validate_full`): buffer sizes, offsets, UTF-8, view buffers, dictionary keys,
/// null counts. The error names the column. Costs one pass over the batch's buffers.
pub fn validate_batch(batch: &RecordBatch, row_kinds: Option<&Int8Array>) -> Result<()> {
    let schema = batch.schema();
    for (field, column) in schema.fields().iter().zip(batch.columns()) {
        if column.len() != batch.num_rows() {
            return Err(KjsonError::schema(format!(
                "column `{}` has {} rows, the batch has {}",
                field.name(),
                column.len(),
                batch.num_rows()
            )));
        }
        if column.data_type() != field.data_type() {
            return Err(KjsonError::schema(format!(
                "column `{}` holds Arrow type {}, its schema field says {}",
                field.name(),
                column.data_type(),
                field.data_type()
            )));
        }
        column
            .to_data()
            .validate_full()
            .map_err(|e| KjsonError::schema(format!("column `{}`: invalid Arrow data: {e}", field.name())))?;
    }
    if let Some(kinds) = row_kinds {
        kinds
            .to_data()
            .validate_full()
            .map_err(|e| KjsonError::schema(format!("row kind array: invalid Arrow data: {e}")))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{make_array, ArrayRef, Int32Array, StringArray};
    use arrow_buffer::Buffer;
    use arrow_data::ArrayData;
    use arrow_schema::{DataType, Field, Schema};

    use super::*;

    fn batch_of(column: ArrayRef) -> RecordBatch {
        let schema = Schema::new(vec![Field::new("s", column.data_type().clone(), true)]);
        RecordBatch::try_new(Arc::new(schema), vec![column]).unwrap()
    }

    /// A Utf8 array built without validation from raw offsets and bytes.
    fn unchecked_utf8(offsets: &[i32], bytes: &[u8]) -> ArrayRef {
        let builder = ArrayData::builder(DataType::Utf8)
            .len(offsets.len() - 1)
            .add_buffer(Buffer::from_slice_ref(offsets))
            .add_buffer(Buffer::from_slice_ref(bytes));
        // SAFETY: the array is only validated, never read, in these tests.
        make_array(unsafe { builder.build_unchecked() })
    }

    #[test]
    fn valid_batches_pass() {
        let batch = batch_of(Arc::new(StringArray::from(vec![Some("a"), None, Some("\u{e9}")])));
        validate_batch(&batch, Some(&Int8Array::from(vec![0, 1, 3]))).unwrap();
        validate_batch(&batch_of(Arc::new(Int32Array::from(Vec::<i32>::new()))), None).unwrap();
    }

    #[test]
    fn offsets_past_the_end_name_the_column() {
        let batch = batch_of(unchecked_utf8(&[0, 2, 40], b"abcd"));
        let error = validate_batch(&batch, None).unwrap_err();
        assert!(matches!(error, KjsonError::Schema { .. }), "{error:?}");
        assert!(error.message().starts_with("column `s`: invalid Arrow data:"), "{error}");
    }

    #[test]
    fn decreasing_offsets_and_bad_utf8_are_refused() {
        for (offsets, bytes) in [(&[0, 3, 1][..], &b"abc"[..]), (&[0, 1, 2], b"a\xff")] {
            let error = validate_batch(&batch_of(unchecked_utf8(offsets, bytes)), None).unwrap_err();
            assert!(error.message().contains("invalid Arrow data"), "{offsets:?}: {error}");
        }
    }
}
