//! Imports a record batch through the Arrow C Data Interface.
//!
//! Ownership rule: every non-zero, unreleased `ArrowArray` / `ArrowSchema` address handed to
//! [`take`] is moved into Rust at once (its release callback is cleared in place, as the C Data
//! Interface's "move" prescribes) and released exactly once when the Rust value drops: after the
//! batch is encoded, or on any error path. The caller frees only the struct memory.
//!
//! A schema address of 0 reuses the Arrow type of the handle's previous batch, which spares the
//! producer exporting, and this side parsing, the same schema for every batch.
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::RecordBatch;
use arrow_schema::DataType as ArrowType;
use kjson_arrow::ffi::import_batch as import_struct_batch;

use super::BridgeError;

/// The C structs of one encode call, owned by Rust from here on.
pub struct Imported {
    array: FFI_ArrowArray,
    schema: Option<FFI_ArrowSchema>,
}

fn already_moved(what: &str) -> BridgeError {
    BridgeError::Argument(format!("the {what} was already released or moved (each export can be encoded once)"))
}

/// Moves the C structs at the given addresses into Rust. Structs that are not aligned or were
/// released (moved) already are refused; whatever was taken is released on the way out.
pub fn take(array_address: i64, schema_address: i64) -> Result<Imported, BridgeError> {
    let array_ptr = checked_pointer::<FFI_ArrowArray>(array_address, "arrowArrayAddress")?;
    // SAFETY: the Java caller passes the address of a live, initialized ArrowArray struct (the
    // C Data Interface contract of this native method); it is non-null and aligned (checked).
    // `from_raw` moves the struct out and leaves a released (empty) struct behind.
    let array = unsafe { FFI_ArrowArray::from_raw(array_ptr) };
    let schema = match schema_address {
        0 => None,
        address => {
            let schema_ptr = checked_pointer::<FFI_ArrowSchema>(address, "arrowSchemaAddress")?;
            // SAFETY: as above, for the ArrowSchema struct.
            Some(unsafe { FFI_ArrowSchema::from_raw(schema_ptr) })
        }
    };
    // A struct that was moved or released before has no release callback; importing it would
    // read freed buffers. Dropping a released struct is a no-op.
    if schema.as_ref().is_some_and(|s| s.release().is_none()) {
        return Err(already_moved("ArrowSchema"));
    }
    match array.release() {
        Some(_) => Ok(Imported { array, schema }),
        None => Err(already_moved("ArrowArray")),
    }
}

fn checked_pointer<T>(address: i64, what: &str) -> Result<*mut T, BridgeError> {
    if address == 0 {
        return Err(BridgeError::Argument(format!("{what} is 0")));
    }
    if !(address as usize).is_multiple_of(std::mem::align_of::<T>()) {
        return Err(BridgeError::Argument(format!("{what} {address:#x} is not aligned")));
    }
    Ok(address as *mut T)
}

impl Imported {
    /// The batch, and the Arrow type it was read with (kept by the caller for the next batch).
    /// `previous` is the type of the handle's previous batch, used when no schema was passed.
    pub fn into_batch(self, previous: Option<&ArrowType>) -> Result<(RecordBatch, ArrowType), BridgeError> {
        let data_type = match (&self.schema, previous) {
            (Some(schema), _) => ArrowType::try_from(schema)
                .map_err(|e| BridgeError::Argument(format!("cannot read the Arrow schema: {e}")))?,
            (None, Some(previous)) => previous.clone(),
            (None, None) => {
                return Err(BridgeError::Argument(
                    "arrowSchemaAddress is 0 but this handle has not imported a schema yet".into(),
                ))
            }
        };
        // SAFETY: the array comes from a C Data Interface producer that keeps its buffers alive
        // until `release`, and `data_type` describes it (its own schema, or the previous batch's
        // by the caller's contract); the import takes the array by value and releases it once.
        let batch = unsafe { import_struct_batch(self.array, data_type.clone()) }
            .map_err(|e| BridgeError::Argument(e.to_string()))?;
        Ok((batch, data_type))
    }
}

/// Imports an exported struct array with its own schema.
#[cfg(test)]
fn import_batch(array_address: i64, schema_address: i64) -> Result<RecordBatch, BridgeError> {
    if schema_address == 0 {
        return Err(BridgeError::Argument("arrowSchemaAddress is 0".into()));
    }
    take(array_address, schema_address)?.into_batch(None).map(|(batch, _)| batch)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use arrow_array::ffi::to_ffi;
    use arrow_array::{Array, Int32Array, StringArray, StructArray};
    use arrow_schema::Field;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn exported(rows: i32) -> (Box<FFI_ArrowArray>, Box<FFI_ArrowSchema>) {
        let a = Int32Array::from((0..rows).collect::<Vec<_>>());
        let b = StringArray::from((0..rows).map(|i| format!("s{i}")).collect::<Vec<_>>());
        let st = StructArray::from(vec![
            (Arc::new(Field::new("a", ArrowType::Int32, false)), Arc::new(a) as _),
            (Arc::new(Field::new("b", ArrowType::Utf8, false)), Arc::new(b) as _),
        ]);
        let (array, schema) = to_ffi(&st.into_data()).expect("export");
        (Box::new(array), Box::new(schema))
    }

    fn addr<T>(b: &mut Box<T>) -> i64 {
        b.as_mut() as *mut T as i64
    }

    #[test]
    fn imports_a_struct_export_and_moves_it() {
        let (mut array, mut schema) = exported(3);
        let batch = import_batch(addr(&mut array), addr(&mut schema)).expect("import");
        assert_eq!(batch.num_rows(), 3);
        assert_eq!(batch.schema().field(1).name(), "b");
        assert!(array.release().is_none(), "the caller's struct is left released");
        let again = import_batch(addr(&mut array), addr(&mut schema));
        assert!(matches!(again, Err(BridgeError::Argument(m)) if m.contains("already released")));
    }

    #[test]
    fn a_zero_schema_reuses_the_previous_type() {
        let (mut array, mut schema) = exported(2);
        let (first, data_type) =
            take(addr(&mut array), addr(&mut schema)).expect("take").into_batch(None).expect("import");
        let (mut array, _schema) = exported(3);
        let (second, _) = take(addr(&mut array), 0).expect("take").into_batch(Some(&data_type)).expect("import");
        assert_eq!(first.schema(), second.schema());
        assert_eq!(second.num_rows(), 3);
        let (mut array, _schema) = exported(1);
        let missing = take(addr(&mut array), 0).expect("take").into_batch(None);
        assert!(matches!(missing, Err(BridgeError::Argument(m)) if m.contains("not imported a schema yet")));
        assert!(array.release().is_none(), "taken, then released on the error path");
    }

    #[test]
    fn zero_and_misaligned_addresses_are_refused() {
        assert!(matches!(take(0, 8), Err(BridgeError::Argument(m)) if m.contains("arrowArrayAddress is 0")));
        let (mut array, mut schema) = exported(1);
        let bad = import_batch(addr(&mut array) + 1, addr(&mut schema));
        assert!(matches!(bad, Err(BridgeError::Argument(m)) if m.contains("not aligned")));
        assert!(array.release().is_some(), "a refused struct is not taken");
    }

    static RELEASES: AtomicUsize = AtomicUsize::new(0);
    static mut ORIGINAL: Option<unsafe extern "C" fn(*mut FFI_ArrowArray)> = None;

    unsafe extern "C" fn counting_release(array: *mut FFI_ArrowArray) {
        RELEASES.fetch_add(1, Ordering::SeqCst);
        // SAFETY: set once before the import below, read after; the test runs single-threaded here.
        let original = unsafe { ORIGINAL };
        if let Some(release) = original {
            // SAFETY: forwards to the exporter's own release with its own struct.
            unsafe { release(array) };
        }
    }

    #[test]
    fn a_non_struct_export_is_released_once_on_error() {
        let (array, schema) = to_ffi(&Int32Array::from(vec![1, 2]).into_data()).expect("export");
        let (mut array, mut schema) = (Box::new(array), Box::new(schema));
        // Wrap the release callback through raw field access: FFI_ArrowArray is #[repr(C)] with
        // `release` at a fixed offset (the C struct's 9th member).
        let raw = addr(&mut array) as *mut u8;
        let offset = 8 * 5 + 8 * 3;
        // SAFETY: `raw + offset` is the `release` member of the repr(C) C Data struct.
        unsafe {
            let slot = raw.add(offset) as *mut Option<unsafe extern "C" fn(*mut FFI_ArrowArray)>;
            ORIGINAL = *slot;
            *slot = Some(counting_release);
        }
        let before = RELEASES.load(Ordering::SeqCst);
        let err = import_batch(addr(&mut array), addr(&mut schema));
        assert!(matches!(err, Err(BridgeError::Argument(m)) if m.contains("must be a struct")));
        assert_eq!(RELEASES.load(Ordering::SeqCst) - before, 1);
    }
}
