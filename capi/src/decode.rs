//! The read side of the C ABI: Kafka records of a table decoded into an Arrow batch exported
//! through the C Data Interface, row for row as Flink's Kafka source reads them.
//!
//! The exported batch is a struct array of the table's physical columns followed by
//! `__row_kind` (Int8: 0 +I, 1 -U, 2 +U, 3 -D) and `__record` (Int32: the index of the record
//! the row came from; a record gives no row, one, or several). The caller owns it and releases it
//! once (its `release` callback), as the C Data Interface prescribes.
use std::ffi::c_char;

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use kjson_arrow::runtime::{Compatibility, KjsonError, SinkSpec};
use kjson_arrow::{open_decoder, DecodedBatch, OnError, RecordSide};

use crate::decoder_state::{DecoderState, KjsonDecodeErrors};
use crate::handles::{self, Engine, KjsonHandle};
use crate::output::KjsonSlab;
use crate::parts::{slice, KjsonSinkParts};
use crate::status::{catch_panic, thread_status, CallError, KjsonStatus};
use crate::{export, open};

fn decoder(spec: SinkSpec, compatibility: Compatibility) -> Result<Engine, CallError> {
    Ok(Engine::Decoder(Box::new(DecoderState::new(open_decoder(spec, compatibility)?))))
}

/// Opens a decoder for the table a `CREATE TABLE ... WITH (...)` statement declares (the same
/// DDL as for encoding, read as a source: the scan side's option rules), and writes its handle to
/// `*handle` (0 on failure); otherwise as `kjson_open_ddl`. A new
/// decoder fails a batch on the first record Flink's deserializer would fail on; see
/// [`kjson_decoder_set_on_error`].
///
/// # Safety
/// As for `kjson_open_ddl`.
#[no_mangle]
pub unsafe extern "C" fn kjson_decoder_open_ddl(
    ddl: *const c_char,
    flink_version: *const c_char,
    float_spelling: *const c_char,
    handle: *mut KjsonHandle,
) -> KjsonStatus {
    // SAFETY: the pointers follow this function's contract.
    thread_status(catch_panic(|| unsafe {
        open(handle, || crate::ddl_spec(ddl, flink_version, float_spelling, true), decoder)
    }))
}

/// Opens a decoder for a table given in parts (see [`KjsonSinkParts`]); otherwise as
/// [`kjson_decoder_open_ddl`].
///
/// # Safety
/// As for `kjson_open_parts`.
#[no_mangle]
pub unsafe extern "C" fn kjson_decoder_open_parts(
    parts: *const KjsonSinkParts,
    flink_version: *const c_char,
    float_spelling: *const c_char,
    handle: *mut KjsonHandle,
) -> KjsonStatus {
    // SAFETY: the pointers follow this function's contract.
    thread_status(catch_panic(|| unsafe {
        open(handle, || crate::parts_spec(parts, flink_version, float_spelling, true), decoder)
    }))
}

/// `collect = false` (the default): a record that Flink's deserializer would fail on fails the
/// batch (`KJSON_STATUS_RECORD_FAILED`). `collect = true`: it gives no row and is listed in the
/// call's [`KjsonDecodeErrors`].
#[no_mangle]
pub extern "C" fn kjson_decoder_set_on_error(handle: KjsonHandle, collect: bool) -> KjsonStatus {
    handles::with_handle(handle, |state| {
        state.decoder()?.decoder.set_on_error(if collect { OnError::Collect } else { OnError::Fail });
        Ok(())
    })
}

/// The caller's out structs, checked and emptied before anything else can fail.
struct Outs {
    array: *mut FFI_ArrowArray,
    schema: *mut FFI_ArrowSchema,
    errors: *mut KjsonDecodeErrors,
}

/// # Safety
/// As for [`kjson_decode`]'s out pointers.
unsafe fn prepare_outs(
    array: *mut FFI_ArrowArray,
    schema: *mut FFI_ArrowSchema,
    errors: *mut KjsonDecodeErrors,
) -> Result<Outs, CallError> {
    if array.is_null() || !array.is_aligned() {
        return Err(CallError::argument("array is NULL or not aligned"));
    }
    if !schema.is_aligned() || !errors.is_aligned() {
        return Err(CallError::argument("schema or errors is not aligned"));
    }
    // The three outs are emptied first, so that every later failure leaves them so; each is
    // overwritten without being read or dropped.
    // SAFETY: non-null and aligned (checked above), writable by the caller's contract; overwritten unread.
    unsafe { array.write(FFI_ArrowArray::empty()) };
    if !schema.is_null() {
        // SAFETY: as for `array`: non-null here, aligned (checked above).
        unsafe { schema.write(FFI_ArrowSchema::empty()) };
    }
    if !errors.is_null() {
        // SAFETY: as for `array`: non-null here, aligned (checked above).
        unsafe { errors.write(KjsonDecodeErrors::empty()) };
    }
    Ok(Outs { array, schema, errors })
}

/// # Safety
/// `slab` is NULL or points to a [`KjsonSlab`] whose pointers hold `bytes_len` bytes and `count`
/// offsets and lengths.
unsafe fn side<'a>(slab: *const KjsonSlab, what: &str) -> Result<Option<RecordSide<'a>>, CallError> {
    if slab.is_null() {
        return Ok(None);
    }
    if !slab.is_aligned() {
        return Err(CallError::argument(format!("{what} is not aligned")));
    }
    // SAFETY: non-null and aligned (checked), initialized by the caller's contract.
    let slab = unsafe { &*slab };
    // The three slices: pointers and lengths per this function's contract.
    // SAFETY: `bytes` holds `bytes_len` bytes, per this function's contract.
    let data = unsafe { slice(slab.bytes, slab.bytes_len, &format!("{what}.bytes")) }?;
    // SAFETY: `offsets` holds `count` offsets, per this function's contract.
    let offsets = unsafe { slice(slab.offsets, slab.count, &format!("{what}.offsets")) }?;
    // SAFETY: `lengths` holds `count` lengths, per this function's contract.
    let lengths = unsafe { slice(slab.lengths, slab.count, &format!("{what}.lengths")) }?;
    Ok(Some(RecordSide { data, offsets, lengths }))
}

/// Decodes one batch of Kafka records: `values` holds one value per record (a negative length is
/// a null value, a tombstone), `keys` is NULL or holds one key per record (a negative length is
/// a null key) and is read when the table has key fields. The records' memory is only read during
/// the call. An encoder's `KjsonRecords` sides can be passed as they are.
///
/// On success `*array` holds the decoded rows as a struct array that the caller owns and releases
/// once: the table's physical columns in order, then `__row_kind` (int8: 0 +I, 1 -U, 2 +U, 3 -D)
/// and `__record` (int32: the index of the record the row came from; a record gives no row, one
/// or several), `*schema` (unless
/// NULL) its type, also the caller's to release, and `*errors` (unless NULL) the records that
/// failed under collect. On failure `*array` and `*schema` are left released (`release == NULL`:
/// nothing to release) and `kjson_error(handle)` gives the text; a record that failed the batch
/// (under fail) gives `KJSON_STATUS_RECORD_FAILED`, a text starting `record N: `, and `*errors`
/// naming that one record.
///
/// # Safety
/// `keys` and `values` are NULL or point to [`KjsonSlab`]s whose pointers hold `bytes_len` bytes
/// and `count` offsets and lengths; `array` is NULL or points to writable memory for an
/// `ArrowArray`, `schema` and `errors` likewise for an `ArrowSchema` and a [`KjsonDecodeErrors`]
/// (each may be NULL). The out structs are overwritten, never read or released.
#[no_mangle]
pub unsafe extern "C" fn kjson_decode(
    handle: KjsonHandle,
    keys: *const KjsonSlab,
    values: *const KjsonSlab,
    array: *mut FFI_ArrowArray,
    schema: *mut FFI_ArrowSchema,
    errors: *mut KjsonDecodeErrors,
) -> KjsonStatus {
    // SAFETY: per this function's contract. Emptied first, so that every failure leaves them so.
    let outs = catch_panic(|| unsafe { prepare_outs(array, schema, errors) });
    handles::with_handle(handle, |state| {
        let outs = outs?;
        let state = state.decoder()?;
        // SAFETY: per this function's contract.
        let keys = unsafe { side(keys, "keys") }?;
        // SAFETY: `values` per this function's contract.
        let values = unsafe { side(values, "values") }?.ok_or_else(|| CallError::argument("values is NULL"))?;
        let decoded: DecodedBatch = match state.decoder.decode(keys, values) {
            Ok(decoded) => decoded,
            Err(error @ KjsonError::Record { .. }) => {
                let failed = state.keep_errors(std::iter::once(&error));
                if !outs.errors.is_null() {
                    // SAFETY: checked and writable (prepare_outs).
                    unsafe { outs.errors.write(failed) };
                }
                return Err(CallError { status: KjsonStatus::RecordFailed, message: error.to_string() });
            }
            Err(error) => return Err(error.into()),
        };
        let (exported_array, exported_schema) = export::export(&decoded)?;
        let failed = state.keep_errors(decoded.errors.iter());
        // Nothing can fail from here on. SAFETY: the pointers were checked and are writable
        // (prepare_outs); the exports move to the caller, who releases them.
        unsafe { outs.array.write(exported_array) };
        if !outs.schema.is_null() {
            // SAFETY: non-null here, checked aligned and writable (prepare_outs); the export moves to the caller.
            unsafe { outs.schema.write(exported_schema) };
        }
        if !outs.errors.is_null() {
            // SAFETY: non-null here, checked aligned and writable (prepare_outs).
            unsafe { outs.errors.write(failed) };
        }
        Ok(())
    })
}

/// Closes a decoder's handle and frees the decoder and its error list; an encoder's handle or
/// closing it again is an error (`kjson_close` closes either kind).
#[no_mangle]
pub extern "C" fn kjson_decoder_close(handle: KjsonHandle) -> KjsonStatus {
    thread_status(catch_panic(|| handles::remove_decoder(handle)))
}
