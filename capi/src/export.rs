//! A decoded batch as one Arrow C Data struct array: the table's physical columns, then
//! `__row_kind` (Int8, Flink's RowKind byte) and `__record` (Int32, the index of the record the
//! row came from), as `kjson decode` writes its file and the JNI decoder exports.
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{Array, StructArray};
use arrow_schema::DataType as ArrowType;
use kjson_arrow::DecodedBatch;

use crate::status::{CallError, KjsonStatus};

fn internal(message: String) -> CallError {
    CallError { status: KjsonStatus::Internal, message }
}

/// The batch as C Data structs, owned by Rust until written to the caller's (released when
/// dropped before that).
pub fn export(decoded: &DecodedBatch) -> Result<(FFI_ArrowArray, FFI_ArrowSchema), CallError> {
    let batch = decoded.with_extra_columns(0)?;
    let fields = batch.schema().fields().clone();
    let array = StructArray::from(batch);
    let schema = FFI_ArrowSchema::try_from(ArrowType::Struct(fields))
        .map_err(|e| internal(format!("internal error (a kjson bug): cannot export the decoded schema: {e}")))?;
    Ok((FFI_ArrowArray::new(&array.to_data()), schema))
}
