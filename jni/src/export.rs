//! Hands a decoded batch to Java through the Arrow C Data Interface.
//!
//! Ownership rule: the Java caller allocates empty (released) `ArrowArray` / `ArrowSchema`
//! structs (`ArrowArray.allocateNew`) and passes their addresses; [`Exported::write_array`] and
//! [`write_schema`] move a Rust export into them, so the Java side owns it from then on and
//! releases it exactly once (arrow-java's import does, when the imported vectors close). A
//! struct that still holds an unreleased export is refused rather than overwritten (that would
//! leak it). Nothing is written before everything that can fail has succeeded: an error leaves
//! the caller's structs as they were, and drops (releases) the Rust export.
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{Array, RecordBatch, StructArray};
use arrow_schema::{DataType as ArrowType, Fields, Schema};
use kjson_arrow::DecodedBatch;
use kjson_runtime::KjsonError;

use super::BridgeError;

/// The exported struct's fields: the decoder's physical columns, then the two extra columns.
pub fn output_fields(physical: &Schema) -> Result<Fields, BridgeError> {
    Ok(kjson_runtime::decode::with_extra_fields(physical)?.fields().clone())
}

/// A decoded batch as one C Data struct array, not yet handed to Java.
pub struct Exported {
    array: FFI_ArrowArray,
    rows: i32,
}

impl Exported {
    /// The batch's columns, `__row_kind` and `__record` as one struct array.
    pub fn of(decoded: &DecodedBatch) -> Result<Exported, BridgeError> {
        let batch: &RecordBatch = &decoded.batch;
        let rows = batch.num_rows();
        let rows_i32 = i32::try_from(rows).map_err(|_| {
            BridgeError::Kjson(kjson_runtime::KjsonError::Limit {
                message: format!("a decoded batch of {rows} rows is too large for one JNI handoff; split the fetch"),
            })
        })?;
        let batch = decoded.with_extra_columns(0)?;
        let array = StructArray::from(batch);
        Ok(Exported { array: FFI_ArrowArray::new(&array.to_data()), rows: rows_i32 })
    }

    pub fn rows(&self) -> i32 {
        self.rows
    }

    /// Moves the export into the caller's struct at `address` (checked first with [`check_out`]).
    pub fn write_array(self, address: OutAddress<FFI_ArrowArray>) {
        // SAFETY: `address` was checked by `check_out`: non-null, aligned, a live ArrowArray
        // struct of the caller's that holds no unreleased export, so overwriting it (without
        // dropping the old value) leaks nothing; the caller owns the moved export from here on.
        unsafe { address.0.write(self.array) };
    }
}

/// A checked out-struct address (see [`check_out`]).
pub struct OutAddress<T>(*mut T);

/// Something with a C Data release callback.
pub trait Releasable {
    fn is_live(&self) -> bool;
}

impl Releasable for FFI_ArrowArray {
    fn is_live(&self) -> bool {
        self.release().is_some()
    }
}

impl Releasable for FFI_ArrowSchema {
    fn is_live(&self) -> bool {
        self.release().is_some()
    }
}

/// Checks the address of an out struct: non-zero, aligned, and released (empty).
pub fn check_out<T: Releasable>(address: i64, what: &str) -> Result<OutAddress<T>, BridgeError> {
    if address == 0 {
        return Err(BridgeError::Argument(format!("{what} is 0")));
    }
    if !(address as usize).is_multiple_of(std::mem::align_of::<T>()) {
        return Err(BridgeError::Argument(format!("{what} {address:#x} is not aligned")));
    }
    let pointer = address as *mut T;
    // SAFETY: the Java caller passes the address of an initialized C Data struct (the contract
    // of the native method; `ArrowArray.allocateNew` / `ArrowSchema.allocateNew` make one, empty);
    // non-null and aligned (checked). Only its release member is read.
    let live = unsafe { &*pointer }.is_live();
    if live {
        return Err(BridgeError::Argument(format!(
            "{what} still holds an unreleased export; import or release it before reusing the struct"
        )));
    }
    Ok(OutAddress(pointer))
}

/// Exports the struct type of `fields` into the caller's (checked) schema struct.
pub fn write_schema(fields: Fields, address: OutAddress<FFI_ArrowSchema>) -> Result<(), BridgeError> {
    let schema = FFI_ArrowSchema::try_from(ArrowType::Struct(fields))
        .map_err(|e| KjsonError::internal(format!("cannot export the decoded schema: {e}")))?;
    // SAFETY: as in `Exported::write_array`, for the ArrowSchema struct.
    unsafe { address.0.write(schema) };
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::*;
    use arrow_array::ffi::from_ffi;
    use arrow_array::{ArrayRef, Int32Array, Int8Array, StringArray};
    use arrow_schema::Field;
    use kjson_runtime::decode::{RECORD_COLUMN, ROW_KIND_COLUMN};

    fn decoded() -> DecodedBatch {
        let schema = Arc::new(Schema::new(vec![Field::new("s", ArrowType::Utf8, true)]));
        let column: ArrayRef = Arc::new(StringArray::from(vec![Some("a"), None, Some("c")]));
        let batch = RecordBatch::try_new(schema, vec![column]).unwrap();
        DecodedBatch { batch, row_kinds: vec![0, 3, 0], records: vec![0, 2, 2], errors: vec![] }
    }

    fn addr<T>(b: &mut Box<T>) -> i64 {
        b.as_mut() as *mut T as i64
    }

    static RELEASES: AtomicUsize = AtomicUsize::new(0);
    static mut ORIGINAL: Option<unsafe extern "C" fn(*mut FFI_ArrowArray)> = None;

    unsafe extern "C" fn counting_release(array: *mut FFI_ArrowArray) {
        RELEASES.fetch_add(1, Ordering::SeqCst);
        // SAFETY: set once before the import below; the test is the only user.
        if let Some(release) = unsafe { ORIGINAL } {
            // SAFETY: forwards to the exporter's own release with its own struct.
            unsafe { release(array) };
        }
    }

    #[test]
    fn a_decoded_batch_is_exported_with_its_extra_columns_and_released_once() {
        let mut array = Box::new(FFI_ArrowArray::empty());
        let mut schema = Box::new(FFI_ArrowSchema::empty());
        let exported = Exported::of(&decoded()).unwrap();
        assert_eq!(exported.rows(), 3);
        exported.write_array(check_out(addr(&mut array), "array").unwrap());
        write_schema(
            output_fields(&decoded().batch.schema()).unwrap(),
            check_out(addr(&mut schema), "schema").unwrap(),
        )
        .unwrap();
        // A live struct is refused rather than overwritten.
        let again = check_out::<FFI_ArrowArray>(addr(&mut array), "array");
        assert!(matches!(again, Err(BridgeError::Argument(m)) if m.contains("unreleased")));

        // Count the release: wrap the exporter's callback (the struct is #[repr(C)]).
        let raw = addr(&mut array) as *mut u8;
        // SAFETY: `release` is the C struct's 9th member, after five i64 and three pointers.
        unsafe {
            let slot = raw.add(8 * 5 + 8 * 3) as *mut Option<unsafe extern "C" fn(*mut FFI_ArrowArray)>;
            ORIGINAL = *slot;
            *slot = Some(counting_release);
        }
        // SAFETY: the structs were just written by the export above.
        let data = unsafe { from_ffi(FFI_ArrowArray::from_raw(array.as_mut()), &schema) }.unwrap();
        let st = StructArray::from(data);
        assert_eq!(st.column_names(), vec!["s", ROW_KIND_COLUMN, RECORD_COLUMN]);
        let kinds = st.column(1).as_any().downcast_ref::<Int8Array>().unwrap();
        assert_eq!(kinds.values().to_vec(), vec![0, 3, 0]);
        let records = st.column(2).as_any().downcast_ref::<Int32Array>().unwrap();
        assert_eq!(records.values().to_vec(), vec![0, 2, 2]);
        assert_eq!(RELEASES.load(Ordering::SeqCst), 0, "not released while imported");
        drop(st);
        assert_eq!(RELEASES.load(Ordering::SeqCst), 1, "released exactly once");
    }

    #[test]
    fn zero_and_misaligned_out_addresses_are_refused() {
        assert!(matches!(check_out::<FFI_ArrowArray>(0, "a"), Err(BridgeError::Argument(m)) if m.contains("is 0")));
        let mut array = Box::new(FFI_ArrowArray::empty());
        let bad = check_out::<FFI_ArrowArray>(addr(&mut array) + 1, "a");
        assert!(matches!(bad, Err(BridgeError::Argument(m)) if m.contains("not aligned")));
    }
}
