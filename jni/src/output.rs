//! Hands the key and value slabs of one batch to Java, with a constant number of JNI
//! allocations per batch (never per record). Two shapes, chosen by the Java caller:
//!
//! * arrays: JVM-owned copies, `out = [keys byte[], values byte[], index int[4n]]` where the index
//!   holds key offsets, key lengths, value offsets, value lengths (n each). The arrays stay valid
//!   for as long as Java keeps them.
//! * direct: `out = [keys, keyOffsets, keyLengths, values, valueOffsets, valueLengths]` as direct
//!   `ByteBuffer`s over the encoder's own memory (native byte order for the i32 buffers). They
//!   are valid only until the next `encode` or `close` of the same handle; Java must copy a
//!   record out before then.
use jni::objects::{JObject, JObjectArray};
use jni::JNIEnv;
use kjson_runtime::{KeyValueSlabs, KjsonError, Slab};

use super::BridgeError;

fn check_out_length(env: &mut JNIEnv<'_>, out: &JObjectArray<'_>, needed: i32) -> Result<(), BridgeError> {
    if out.is_null() {
        return Err(BridgeError::Argument("out is null".into()));
    }
    let len = env.get_array_length(out)?;
    if len < needed {
        return Err(BridgeError::Argument(format!("out has {len} slots, {needed} are needed")));
    }
    Ok(())
}

fn row_count(slabs: &KeyValueSlabs) -> Result<i32, BridgeError> {
    let rows = slabs.num_rows();
    match i32::try_from(rows) {
        Ok(n) if n <= i32::MAX / 4 => Ok(n),
        _ => Err(KjsonError::Limit {
            message: format!("a batch of {rows} rows is too large for one JNI handoff; split the batch"),
        }
        .into()),
    }
}

fn set(env: &mut JNIEnv<'_>, out: &JObjectArray<'_>, slot: i32, value: JObject<'_>) -> Result<(), BridgeError> {
    env.set_object_array_element(out, slot, &value)?;
    env.delete_local_ref(value)?;
    Ok(())
}

/// Copies the slabs into three new Java arrays; returns the row count.
pub fn to_arrays(env: &mut JNIEnv<'_>, slabs: &KeyValueSlabs, out: &JObjectArray<'_>) -> Result<i32, BridgeError> {
    check_out_length(env, out, 3)?;
    let rows = row_count(slabs)?;
    let keys = env.byte_array_from_slice(slabs.keys().bytes())?;
    set(env, out, 0, keys.into())?;
    let values = env.byte_array_from_slice(slabs.values().bytes())?;
    set(env, out, 1, values.into())?;
    let index = env.new_int_array(rows * 4)?;
    let parts =
        [&slabs.keys().offsets(), &slabs.keys().lengths(), &slabs.values().offsets(), &slabs.values().lengths()];
    for (i, part) in parts.into_iter().enumerate() {
        env.set_int_array_region(&index, rows * i as i32, part)?;
    }
    set(env, out, 2, index.into())?;
    Ok(rows)
}

fn direct_buffer<'local>(env: &mut JNIEnv<'local>, bytes: &[u8]) -> Result<JObject<'local>, BridgeError> {
    let pointer = bytes.as_ptr() as *mut u8;
    // SAFETY: `pointer` addresses `bytes.len()` initialized bytes owned by the encoder's slab,
    // which is neither freed nor reallocated until the next encode or close of this handle; the
    // Java side wraps the buffer read-only and stops using it at that point (documented above).
    let buffer = unsafe { env.new_direct_byte_buffer(pointer, bytes.len()) }?;
    Ok(buffer.into())
}

fn int_bytes(ints: &[i32]) -> &[u8] {
    // SAFETY: an i32 slice is a valid u8 slice of four times the length (no padding, any bit
    // pattern is a valid u8, alignment of u8 is 1); the lifetime is that of `ints`.
    unsafe { std::slice::from_raw_parts(ints.as_ptr().cast::<u8>(), std::mem::size_of_val(ints)) }
}

fn put_slab(env: &mut JNIEnv<'_>, out: &JObjectArray<'_>, first: i32, slab: &Slab) -> Result<(), BridgeError> {
    let bytes = direct_buffer(env, slab.bytes())?;
    set(env, out, first, bytes)?;
    let offsets = direct_buffer(env, int_bytes(slab.offsets()))?;
    set(env, out, first + 1, offsets)?;
    let lengths = direct_buffer(env, int_bytes(slab.lengths()))?;
    set(env, out, first + 2, lengths)
}

/// Exposes the slabs as six direct buffers; returns the row count.
pub fn to_direct(env: &mut JNIEnv<'_>, slabs: &KeyValueSlabs, out: &JObjectArray<'_>) -> Result<i32, BridgeError> {
    check_out_length(env, out, 6)?;
    let rows = row_count(slabs)?;
    put_slab(env, out, 0, slabs.keys())?;
    put_slab(env, out, 3, slabs.values())?;
    Ok(rows)
}
