//! JNI exports for the Java classes `org.kjson.flink.NativeJsonEncoder` (here) and
//! `org.kjson.flink.NativeJsonDecoder` ([`decode`]).
//!
//! Each export is one call into safe Rust run by [`errors::guarded`], so an error or a panic
//! becomes a Java exception (mapped in [`errors::java_exception`]). Handles are slots of
//! [`registry`]; Arrow crosses through the C Data Interface ([`import`] in, [`export`] out);
//! slabs go back through [`output`]. Unsafe code lives in `import`, `export` and `output` only.
mod args;
mod decode;
mod errors;
mod export;
mod import;
mod output;
mod registry;

use std::cell::Cell;
use std::time::Instant;

use arrow_array::Int8Array;
use jni::objects::{JByteArray, JClass, JLongArray, JObjectArray, JString};
use jni::sys::{jint, jlong, jstring};
use jni::JNIEnv;
use kjson_runtime::{Compatibility, KeyValueSlabs, SinkParts, SinkSpec};

use kjson_arrow::ffi::handles;
use kjson_arrow::Encoder;

pub use errors::{java_exception, BridgeError};

/// The arguments of `open`, as Java passes them: the table as the catalog resolved it.
struct OpenArgs<'a, 'local> {
    table_name: &'a JString<'local>,
    field_names: &'a JObjectArray<'local>,
    type_strings: &'a JObjectArray<'local>,
    primary_key: &'a JObjectArray<'local>,
    options: &'a JObjectArray<'local>,
    flink_version: &'a JString<'local>,
    float_spelling: &'a JString<'local>,
}

fn open(env: &mut JNIEnv<'_>, a: OpenArgs<'_, '_>) -> Result<jlong, BridgeError> {
    let (parts, compatibility) = open_parts(env, a)?;
    let encoder = Encoder::open(SinkSpec::from_parts(&parts)?, compatibility)?;
    Ok(registry::registry().insert(registry::Session { encoder, batch_type: None }))
}

/// The table and the compatibility of an open from parts (the encoder's and the decoder's).
fn open_parts(env: &mut JNIEnv<'_>, a: OpenArgs<'_, '_>) -> Result<(SinkParts, Compatibility), BridgeError> {
    let mut parts = SinkParts::default();
    parts.table_name = args::string(env, a.table_name, "tableName")?;
    parts.field_names = args::strings(env, a.field_names, "fieldNames")?;
    parts.type_strings = args::strings(env, a.type_strings, "typeStrings")?;
    parts.primary_key = args::strings(env, a.primary_key, "primaryKey")?;
    parts.options = args::option_map(env, a.options, "options")?;
    let flink_version = args::string(env, a.flink_version, "flinkVersion")?;
    let float_spelling = args::string(env, a.float_spelling, "floatSpelling")?;
    let compatibility = args::compatibility(&flink_version, &float_spelling)?;
    Ok((parts, compatibility))
}

thread_local! {
    /// Nanoseconds of the calling thread's last successful encode: import, encode, handoff.
    static LAST_TIMINGS: Cell<[i64; 3]> = const { Cell::new([0; 3]) };
}

fn nanos_since(start: Instant) -> i64 {
    i64::try_from(start.elapsed().as_nanos()).unwrap_or(i64::MAX)
}

/// Imports the batch (taking ownership of the C structs first, so they are released on every
/// path below), encodes it with the handle's encoder and hands the slabs to `deliver`. A zero
/// schema address reuses the Arrow type of the handle's previous batch.
fn encode(
    env: &mut JNIEnv<'_>,
    handle: jlong,
    array_address: jlong,
    schema_address: jlong,
    kinds: &JByteArray<'_>,
    deliver: impl FnOnce(&mut JNIEnv<'_>, &KeyValueSlabs) -> Result<jint, BridgeError>,
) -> Result<jint, BridgeError> {
    let start = Instant::now();
    let imported = import::take(array_address, schema_address)?;
    let kinds: Option<Int8Array> = args::row_kinds(env, kinds)?;
    let shared = registry::registry().get(handle)?;
    let mut session = handles::lock_session(&shared).ok_or_else(|| {
        BridgeError::Misuse(format!("encoder handle {handle:#x} failed internally before; close it and open a new one"))
    })?;
    let (batch, batch_type) = imported.into_batch(session.batch_type.as_ref())?;
    session.batch_type = Some(batch_type);
    let import_nanos = nanos_since(start);
    let start = Instant::now();
    let slabs = session.encoder.encode(&batch, kinds.as_ref())?;
    let encode_nanos = nanos_since(start);
    let start = Instant::now();
    let rows = deliver(env, slabs)?;
    LAST_TIMINGS.with(|t| t.set([import_nanos, encode_nanos, nanos_since(start)]));
    Ok(rows)
}

#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonEncoder_open<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    table_name: JString<'local>,
    field_names: JObjectArray<'local>,
    type_strings: JObjectArray<'local>,
    primary_key: JObjectArray<'local>,
    options: JObjectArray<'local>,
    flink_version: JString<'local>,
    float_spelling: JString<'local>,
) -> jlong {
    let args = OpenArgs {
        table_name: &table_name,
        field_names: &field_names,
        type_strings: &type_strings,
        primary_key: &primary_key,
        options: &options,
        flink_version: &flink_version,
        float_spelling: &float_spelling,
    };
    errors::guarded(&mut env, 0, |env| open(env, args))
}

#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonEncoder_encodeToArrays<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    array_address: jlong,
    schema_address: jlong,
    row_kinds: JByteArray<'local>,
    out: JObjectArray<'local>,
) -> jint {
    errors::guarded(&mut env, -1, |env| {
        encode(env, handle, array_address, schema_address, &row_kinds, |env, slabs| output::to_arrays(env, slabs, &out))
    })
}

#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonEncoder_encodeToDirect<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    array_address: jlong,
    schema_address: jlong,
    row_kinds: JByteArray<'local>,
    out: JObjectArray<'local>,
) -> jint {
    errors::guarded(&mut env, -1, |env| {
        encode(env, handle, array_address, schema_address, &row_kinds, |env, slabs| output::to_direct(env, slabs, &out))
    })
}

#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonEncoder_close<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
) {
    errors::guarded(&mut env, (), |_| {
        let encoder = registry::registry().remove(handle)?;
        drop(encoder);
        Ok(())
    })
}

/// How many handles are open in this process (for leak checks in tests and monitoring).
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonEncoder_openHandleCount0<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
) -> jint {
    errors::guarded(&mut env, -1, |_| Ok(registry::registry().open_count() as jint))
}

/// Copies the calling thread's last encode timings (import, encode, handoff; nanoseconds) into
/// `out[0..3]`, for benchmarks that split the time of one call.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonEncoder_lastEncodeNanos<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    out: JLongArray<'local>,
) {
    errors::guarded(&mut env, (), |env| {
        if out.is_null() || env.get_array_length(&out)? < 3 {
            return Err(BridgeError::Argument("out must hold 3 longs".into()));
        }
        let timings = LAST_TIMINGS.with(Cell::get);
        env.set_long_array_region(&out, 0, &timings)?;
        Ok(())
    })
}

/// How the handle's encoder encodes: 1 for a generated (schema-specialized) encoder, 0 for the
/// dynamic one.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonEncoder_kindCode0<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> jint {
    errors::guarded(&mut env, -1, |_| Ok(jint::from(encoder_kind(handle)?.is_generated())))
}

/// The handle's encoder kind in words, with the spec fingerprint (for logs).
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonEncoder_kindDescription0<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> jstring {
    errors::guarded(&mut env, std::ptr::null_mut(), |env| {
        let description = encoder_kind(handle)?.to_string();
        Ok(env.new_string(description)?.into_raw())
    })
}

/// The kind of the encoder behind `handle`.
fn encoder_kind(handle: jlong) -> Result<kjson_arrow::EncoderKind, BridgeError> {
    let shared = registry::registry().get(handle)?;
    let session = handles::lock_session(&shared)
        .ok_or_else(|| BridgeError::Misuse(format!("encoder handle {handle:#x} failed internally before")))?;
    Ok(session.encoder.kind().clone())
}

/// The library's version and the platform it was built for, e.g. `0.1.0 linux-x86_64`.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonEncoder_nativeVersion0<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
) -> jstring {
    errors::guarded(&mut env, std::ptr::null_mut(), |env| {
        let version = format!("{} {}-{}", env!("CARGO_PKG_VERSION"), std::env::consts::OS, std::env::consts::ARCH);
        Ok(env.new_string(version)?.into_raw())
    })
}
