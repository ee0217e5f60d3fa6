//! The C ABI of kjson: `libkjson_c` and its header `include/kjson.h`, for engines without a JVM.
//!
//! Open an encoder from a `CREATE TABLE` DDL ([`kjson_open_ddl`]) or from parts
//! ([`kjson_open_parts`]), encode Arrow batches through the Arrow C Data Interface
//! ([`kjson_encode`]) into key and value records that stay valid until the next call on the
//! handle, read a failed call's text with [`kjson_error`], and [`kjson_close`] the handle.
//!
//! The read side: open a decoder of the same table ([`kjson_decoder_open_ddl`],
//! [`kjson_decoder_open_parts`]), decode Kafka records ([`kjson_decode`]) into an Arrow batch
//! exported through the C Data Interface (the caller's to release), and
//! [`kjson_decoder_close`] it.
//!
//! Rules of the ABI:
//! - No panic crosses it: every export catches panics and returns [`KjsonStatus::Internal`].
//! - NULL or misaligned pointers, unknown or closed handles and non-UTF-8 text give
//!   [`KjsonStatus::InvalidArgument`], never a crash.
//! - The `ArrowArray` passed to [`kjson_encode`] is moved: kjson releases it exactly once before
//!   the call returns, whatever the outcome, and leaves the caller's struct marked released
//!   (`release == NULL`). The `ArrowSchema` is only read; the caller releases it.
//! - The `ArrowArray` / `ArrowSchema` that [`kjson_decode`] exports are the caller's: it releases
//!   each exactly once; on failure they are left released (`release == NULL`).
//! - A handle is used by one thread at a time; different handles are independent.
#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_char;

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use kjson_arrow::runtime::{Compatibility, SinkSpec};
use kjson_arrow::Encoder;

mod decode;
mod decoder_state;
mod export;
mod handles;
mod import;
mod output;
mod parts;
mod status;

pub use decode::{
    kjson_decode, kjson_decoder_close, kjson_decoder_open_ddl, kjson_decoder_open_parts, kjson_decoder_set_on_error,
};
pub use decoder_state::KjsonDecodeErrors;
pub use handles::KjsonHandle;
pub use output::{KjsonRecords, KjsonSlab};
pub use parts::{KjsonColumn, KjsonOption, KjsonSinkParts};
pub use status::KjsonStatus;

use status::{catch_panic, thread_status, CallError};

/// Opens an encoder for the sink a `CREATE TABLE ... WITH (...)` statement declares, and writes
/// its handle to `*handle` (0 on failure). `flink_version` ("1.20", "2.2", "2.3") and
/// `float_spelling` ("jdk17", "jdk19") may be NULL for the defaults. On failure,
/// `kjson_error(0)` gives the text, with the line and column of the offending DDL token.
///
/// # Safety
/// `ddl`, `flink_version` and `float_spelling` are NULL or NUL-terminated strings; `handle` is
/// NULL or points to writable memory for one handle.
#[no_mangle]
pub unsafe extern "C" fn kjson_open_ddl(
    ddl: *const c_char,
    flink_version: *const c_char,
    float_spelling: *const c_char,
    handle: *mut KjsonHandle,
) -> KjsonStatus {
    // SAFETY: the pointers follow this function's contract.
    thread_status(catch_panic(|| unsafe {
        open(handle, || ddl_spec(ddl, flink_version, float_spelling, false), encoder)
    }))
}

fn encoder(spec: SinkSpec, compatibility: Compatibility) -> Result<handles::Engine, CallError> {
    Ok(handles::Engine::Encoder(Box::new(Encoder::open(spec, compatibility)?)))
}

/// The table and the compatibility of an open from a DDL (the encoder's, and with `read` the
/// decoder's: the scan side's option rules).
///
/// # Safety
/// As for [`kjson_open_ddl`].
unsafe fn ddl_spec(
    ddl: *const c_char,
    flink_version: *const c_char,
    float_spelling: *const c_char,
    read: bool,
) -> Result<(SinkSpec, Compatibility), CallError> {
    // SAFETY: the pointers follow this function's contract.
    let compatibility = unsafe { parts::compatibility(flink_version, float_spelling) }?;
    // SAFETY: as above.
    let ddl = unsafe { parts::text(ddl, "ddl") }?;
    let spec = if read { SinkSpec::from_source_ddl(&ddl)? } else { SinkSpec::from_ddl(&ddl)? };
    Ok((spec, compatibility))
}

/// The table and the compatibility of an open from parts (`read` as for [`ddl_spec`]).
///
/// # Safety
/// As for [`kjson_open_parts`].
unsafe fn parts_spec(
    parts: *const KjsonSinkParts,
    flink_version: *const c_char,
    float_spelling: *const c_char,
    read: bool,
) -> Result<(SinkSpec, Compatibility), CallError> {
    if parts.is_null() || !parts.is_aligned() {
        return Err(CallError::argument("parts is NULL or not aligned"));
    }
    // SAFETY: the pointers follow this function's contract; `parts` is checked above.
    let compatibility = unsafe { parts::compatibility(flink_version, float_spelling) }?;
    // SAFETY: as above.
    let parts = unsafe { parts::sink_parts(&*parts) }?;
    let spec = if read { SinkSpec::from_source_parts(&parts)? } else { SinkSpec::from_parts(&parts)? };
    Ok((spec, compatibility))
}

/// Opens an encoder for a sink given in parts (see [`KjsonSinkParts`]); otherwise as
/// [`kjson_open_ddl`].
///
/// # Safety
/// `parts` is NULL or points to a [`KjsonSinkParts`] whose pointers follow its field docs; the
/// other arguments as for [`kjson_open_ddl`].
#[no_mangle]
pub unsafe extern "C" fn kjson_open_parts(
    parts: *const KjsonSinkParts,
    flink_version: *const c_char,
    float_spelling: *const c_char,
    handle: *mut KjsonHandle,
) -> KjsonStatus {
    // SAFETY: the pointers follow this function's contract.
    thread_status(catch_panic(|| unsafe {
        open(handle, || parts_spec(parts, flink_version, float_spelling, false), encoder)
    }))
}

/// # Safety
/// `handle` is NULL or points to writable memory for one handle.
unsafe fn open(
    handle: *mut KjsonHandle,
    spec: impl FnOnce() -> Result<(SinkSpec, Compatibility), CallError>,
    engine: impl FnOnce(SinkSpec, Compatibility) -> Result<handles::Engine, CallError>,
) -> Result<(), CallError> {
    if handle.is_null() || !handle.is_aligned() {
        return Err(CallError::argument("handle is NULL or not aligned"));
    }
    // SAFETY: non-null and aligned (checked), writable by the caller's contract.
    unsafe { handle.write(0) };
    let (spec, compatibility) = spec()?;
    let engine = engine(spec, compatibility)?;
    // SAFETY: as above.
    unsafe { handle.write(handles::insert(engine)) };
    Ok(())
}

/// Encodes one batch: `array` is a struct array whose children are the sink's physical columns
/// in order (as an Arrow `RecordBatch` exports), `schema` its type. `row_kinds` holds one Flink
/// RowKind per row (0 +I, 1 -U, 2 +U, 3 -D), or is NULL for all +I. On success `*records` points
/// at the keys and values, valid until the next call on this handle or its close; on failure it
/// is emptied and `kjson_error(handle)` names the column or option at fault.
///
/// The array is released exactly once before this returns, on every path (see the crate docs);
/// the schema is not released.
///
/// # Safety
/// `array` is NULL or points to an initialized `ArrowArray`; `schema` is NULL or points to an
/// initialized `ArrowSchema` describing it; `row_kinds` is NULL or points to `row_kinds_len`
/// bytes; `records` is NULL or points to writable memory for a [`KjsonRecords`].
#[no_mangle]
pub unsafe extern "C" fn kjson_encode(
    handle: KjsonHandle,
    array: *mut FFI_ArrowArray,
    schema: *const FFI_ArrowSchema,
    row_kinds: *const i8,
    row_kinds_len: usize,
    records: *mut KjsonRecords,
) -> KjsonStatus {
    // SAFETY: per this function's contract. Taken before anything can fail, so it is released.
    let taken = catch_panic(|| unsafe { import::take_array(array) });
    handles::with_handle(handle, |state| {
        if records.is_null() || !records.is_aligned() {
            return Err(CallError::argument("records is NULL or not aligned"));
        }
        // SAFETY: non-null and aligned (checked), writable by the caller's contract.
        unsafe { records.write(KjsonRecords::empty()) };
        // SAFETY: `schema` and `row_kinds` per this function's contract.
        let batch = unsafe { import::batch(taken?, schema) }?;
        // SAFETY: `row_kinds` holds `row_kinds_len` bytes or is NULL, per this function's contract.
        let kinds = unsafe { import::row_kinds(row_kinds, row_kinds_len) }?;
        let slabs = state.encoder()?.encode(&batch, kinds.as_ref())?;
        // SAFETY: as above; the slabs live in the handle's state until its next call.
        unsafe { records.write(KjsonRecords::of(slabs)) };
        Ok(())
    })
}

/// The text of the last failed call on `handle` (empty when its last call succeeded); for
/// handle 0 or an unknown handle, the text of the calling thread's last failed call that had no
/// open handle (a failed open, an unknown handle). Valid until the next call on that handle (for
/// 0: the next such failure on this thread). Never NULL.
#[no_mangle]
pub extern "C" fn kjson_error(handle: KjsonHandle) -> *const c_char {
    match catch_panic(|| Ok(handles::error_text(handle))) {
        Ok(Some(text)) => text,
        _ => status::thread_error(),
    }
}

/// Closes the handle (an encoder's, or a decoder's) and frees its encoder and records; closing
/// it again is an error.
#[no_mangle]
pub extern "C" fn kjson_close(handle: KjsonHandle) -> KjsonStatus {
    thread_status(catch_panic(|| handles::remove(handle)))
}
