//! A decoded batch as one Arrow C Data struct array: the table's physical columns, then
//! `__row_kind` (Int8, Flink's RowKind byte) and `__record` (Int32, the index of the record the
//! row came from), as `kjson decode` writes its file and the JNI decoder exports.
use std::sync::Arc;

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{Array, ArrayRef, Int32Array, Int8Array, StructArray};
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};
use kjson_arrow::runtime::KjsonError;
use kjson_arrow::DecodedBatch;

use crate::status::{CallError, KjsonStatus};

pub const ROW_KIND_COLUMN: &str = "__row_kind";
pub const RECORD_COLUMN: &str = "__record";

/// The exported struct's fields: the decoder's physical columns, then the two extra columns.
pub fn output_fields(physical: &Schema) -> Fields {
    let mut fields: Vec<Arc<Field>> = physical.fields().iter().cloned().collect();
    fields.push(Arc::new(Field::new(ROW_KIND_COLUMN, ArrowType::Int8, false)));
    fields.push(Arc::new(Field::new(RECORD_COLUMN, ArrowType::Int32, false)));
    fields.into()
}

fn internal(message: String) -> CallError {
    CallError { status: KjsonStatus::Internal, message }
}

/// The batch as C Data structs, owned by Rust until written to the caller's (released when
/// dropped before that).
pub fn export(decoded: &DecodedBatch) -> Result<(FFI_ArrowArray, FFI_ArrowSchema), CallError> {
    let batch = &decoded.batch;
    let records =
        decoded.records.iter().map(|&r| i32::try_from(r)).collect::<Result<Vec<i32>, _>>().map_err(|_| {
            CallError::from(KjsonError::Limit { message: "a record index does not fit an int32".into() })
        })?;
    let mut columns: Vec<ArrayRef> = batch.columns().to_vec();
    columns.push(Arc::new(Int8Array::from(decoded.row_kinds.clone())));
    columns.push(Arc::new(Int32Array::from(records)));
    let fields = output_fields(&batch.schema());
    let array = StructArray::try_new_with_length(fields.clone(), columns, None, batch.num_rows())
        .map_err(|e| internal(format!("internal error (a kjson bug): decoded columns do not form a struct: {e}")))?;
    let schema = FFI_ArrowSchema::try_from(ArrowType::Struct(fields))
        .map_err(|e| internal(format!("internal error (a kjson bug): cannot export the decoded schema: {e}")))?;
    Ok((FFI_ArrowArray::new(&array.to_data()), schema))
}
