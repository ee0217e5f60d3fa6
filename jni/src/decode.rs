//! JNI exports for the Java class `org.kjson.flink.NativeJsonDecoder`: the read side.
//!
//! One `decode` call per fetch: the records' key and value slabs come in as Java arrays (copied
//! once per batch, never per record), the decoded rows go out through the Arrow C Data Interface
//! ([`export`](super::export)) as one struct array of the table's physical columns followed by
//! `__row_kind` (Int8, Flink's RowKind byte) and `__record` (Int32, the index of the record the
//! row came from). Records that failed under `onError(collect)` come back as two Java arrays.
use jni::objects::{JByteArray, JClass, JIntArray, JObject, JObjectArray, JString, ReleaseMode};
use jni::sys::{jboolean, jint, jlong, jstring, JNI_TRUE};
use jni::JNIEnv;
use kjson_arrow::ffi::handles;
use kjson_arrow::{open_decoder, DecodedBatch, Decoder, OnError, RecordSide, TimestampLayout};
use kjson_runtime::decode::{binary_rows_refusal, BinaryRows};
use kjson_runtime::{KjsonError, SinkSpec};

use super::export::{self, Exported};
use super::registry::{self, DecodeSession, Shared};
use super::{args, errors, BridgeError, OpenArgs};

fn insert(decoder: Decoder) -> jlong {
    registry::decoders().insert(DecodeSession { decoder })
}

fn session(handle: jlong) -> Result<Shared<DecodeSession>, BridgeError> {
    Ok(registry::decoders().get(handle)?)
}

/// Runs `body` on the handle's decoder.
fn with_decoder<T>(handle: jlong, body: impl FnOnce(&mut Decoder) -> Result<T, BridgeError>) -> Result<T, BridgeError> {
    let shared = session(handle)?;
    let mut session = handles::lock_session(&shared).ok_or_else(|| {
        BridgeError::Misuse(format!("decoder handle {handle:#x} failed internally before; close it and open a new one"))
    })?;
    body(&mut session.decoder)
}

#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_open<'local>(
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
    errors::guarded(&mut env, 0, |env| {
        let (parts, compatibility) = super::open_parts(env, args)?;
        Ok(insert(open_decoder(SinkSpec::from_source_parts(&parts)?, compatibility)?))
    })
}

/// Opens a decoder from a `CREATE TABLE ... WITH (...)` statement, read as a source (the scan
/// side's option rules).
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_openDdl<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    ddl: JString<'local>,
    flink_version: JString<'local>,
    float_spelling: JString<'local>,
) -> jlong {
    errors::guarded(&mut env, 0, |env| {
        let ddl = args::string(env, &ddl, "ddl")?;
        let flink_version = args::string(env, &flink_version, "flinkVersion")?;
        let float_spelling = args::string(env, &float_spelling, "floatSpelling")?;
        let compatibility = args::compatibility(&flink_version, &float_spelling)?;
        Ok(insert(open_decoder(SinkSpec::from_source_ddl(&ddl)?, compatibility)?))
    })
}

/// `collect`: a failing record gives no row and is listed; otherwise the batch fails with it.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_setOnError<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    collect: jboolean,
) {
    errors::guarded(&mut env, (), |_| {
        let on_error = if collect == JNI_TRUE { OnError::Collect } else { OnError::Fail };
        with_decoder(handle, |decoder| {
            decoder.set_on_error(on_error);
            Ok(())
        })
    })
}

/// `asFlinkRows`: timestamps keep what Flink's rows keep ([`TimestampLayout::AsFlinkRows`]);
/// otherwise the unit of their precision. Java exports the schema again after this.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_setTimestampLayout<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    as_flink_rows: jboolean,
) {
    errors::guarded(&mut env, (), |_| {
        let layout =
            if as_flink_rows == JNI_TRUE { TimestampLayout::AsFlinkRows } else { TimestampLayout::ByPrecision };
        with_decoder(handle, |decoder| Ok(decoder.set_timestamp_layout(layout)?))
    })
}

/// The value format's metadata keys (without `value.`) read into columns after the physical
/// ones, in this order; Java exports the schema again after this.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_setValueMetadata<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    keys: JObjectArray<'local>,
) {
    errors::guarded(&mut env, (), |env| {
        let keys = args::strings(env, &keys, "keys")?;
        with_decoder(handle, |decoder| Ok(decoder.set_value_metadata(&keys)?))
    })
}

/// Exports the type of the decoded struct arrays (physical columns, `__row_kind`, `__record`)
/// into the empty `ArrowSchema` at `schemaAddress`; Java imports it once per handle.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_exportSchema<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    schema_address: jlong,
) {
    errors::guarded(&mut env, (), |_| {
        let out = export::check_out(schema_address, "arrowSchemaAddress")?;
        let fields = with_decoder(handle, |decoder| export::output_fields(&decoder.schema()))?;
        export::write_schema(fields, out)
    })
}

/// One side's records as Java passes them: all three arrays, or (keys only) all three null.
struct JavaSide<'a, 'local> {
    data: &'a JByteArray<'local>,
    offsets: &'a JIntArray<'local>,
    lengths: &'a JIntArray<'local>,
}

/// A side copied out of the JVM once per batch.
struct OwnedSide {
    data: Vec<u8>,
    offsets: Vec<i32>,
    lengths: Vec<i32>,
}

impl OwnedSide {
    fn side(&self) -> RecordSide<'_> {
        RecordSide { data: &self.data, offsets: &self.offsets, lengths: &self.lengths }
    }
}

fn int_array(env: &mut JNIEnv<'_>, array: &JIntArray<'_>) -> Result<Vec<i32>, BridgeError> {
    let len = env.get_array_length(array)?;
    let mut out = vec![0; len as usize];
    env.get_int_array_region(array, 0, &mut out)?;
    Ok(out)
}

fn read_side(env: &mut JNIEnv<'_>, side: JavaSide<'_, '_>, what: &str) -> Result<Option<OwnedSide>, BridgeError> {
    let nulls = [side.data.is_null(), side.offsets.is_null(), side.lengths.is_null()];
    if nulls == [true; 3] {
        return Ok(None);
    }
    if nulls.contains(&true) {
        return Err(BridgeError::Argument(format!(
            "{what}: data, offsets and lengths must all be given or all be null"
        )));
    }
    let data = env.convert_byte_array(side.data)?;
    let offsets = int_array(env, side.offsets)?;
    let lengths = int_array(env, side.lengths)?;
    if offsets.len() != lengths.len() {
        return Err(BridgeError::Argument(format!(
            "{what}: {} offsets for {} lengths; one of each per record",
            offsets.len(),
            lengths.len()
        )));
    }
    Ok(Some(OwnedSide { data, offsets, lengths }))
}

/// Puts the failed records into `out[0]` (`int[]` record indices) and `out[1]` (`String[]`
/// messages); both null when none failed.
fn deliver_errors(env: &mut JNIEnv<'_>, decoded: &DecodedBatch, out: &JObjectArray<'_>) -> Result<(), BridgeError> {
    if out.is_null() {
        return match decoded.errors.is_empty() {
            true => Ok(()),
            false => Err(BridgeError::Argument("errorsOut is null but records failed under onError(collect)".into())),
        };
    }
    if env.get_array_length(out)? < 2 {
        return Err(BridgeError::Argument("errorsOut must hold 2 slots".into()));
    }
    if decoded.errors.is_empty() {
        env.set_object_array_element(out, 0, JObject::null())?;
        env.set_object_array_element(out, 1, JObject::null())?;
        return Ok(());
    }
    let count = i32::try_from(decoded.errors.len())
        .map_err(|_| BridgeError::Argument("too many failed records for one batch".into()))?;
    let mut records = Vec::with_capacity(decoded.errors.len());
    let messages = env.new_object_array(count, "java/lang/String", JObject::null())?;
    for (i, error) in decoded.errors.iter().enumerate() {
        let (record, message) = match error {
            KjsonError::Record { record, message } => (*record, message.as_str()),
            other => (usize::MAX, other.message()),
        };
        records.push(i32::try_from(record).unwrap_or(-1));
        let text = env.new_string(message)?;
        env.set_object_array_element(&messages, i as i32, &text)?;
        env.delete_local_ref(text)?;
    }
    let indices = env.new_int_array(count)?;
    env.set_int_array_region(&indices, 0, &records)?;
    env.set_object_array_element(out, 0, &indices)?;
    env.set_object_array_element(out, 1, &messages)?;
    env.delete_local_ref(indices)?;
    env.delete_local_ref(messages)?;
    Ok(())
}

/// Reads both sides out of the JVM and decodes them with the handle's decoder.
fn decode_sides(
    env: &mut JNIEnv<'_>,
    handle: jlong,
    keys: JavaSide<'_, '_>,
    values: JavaSide<'_, '_>,
) -> Result<DecodedBatch, BridgeError> {
    let keys = read_side(env, keys, "keys")?;
    let values = read_side(env, values, "values")?
        .ok_or_else(|| BridgeError::Argument("values: data, offsets and lengths are null".into()))?;
    with_decoder(handle, |decoder| Ok(decoder.decode(keys.as_ref().map(OwnedSide::side), values.side())?))
}

/// Decodes one fetch into the empty `ArrowArray` at `arrayAddress`; returns the row count.
/// Nothing is written there unless the whole call succeeds.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_decode<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    key_data: JByteArray<'local>,
    key_offsets: JIntArray<'local>,
    key_lengths: JIntArray<'local>,
    value_data: JByteArray<'local>,
    value_offsets: JIntArray<'local>,
    value_lengths: JIntArray<'local>,
    array_address: jlong,
    errors_out: JObjectArray<'local>,
) -> jint {
    errors::guarded(&mut env, -1, |env| {
        let out = export::check_out(array_address, "arrowArrayAddress")?;
        let keys = JavaSide { data: &key_data, offsets: &key_offsets, lengths: &key_lengths };
        let values = JavaSide { data: &value_data, offsets: &value_offsets, lengths: &value_lengths };
        let decoded = decode_sides(env, handle, keys, values)?;
        let exported = Exported::of(&decoded)?;
        deliver_errors(env, &decoded, &errors_out)?;
        let rows = exported.rows();
        exported.write_array(out);
        Ok(rows)
    })
}

/// Why this decoder's rows cannot come out as `BinaryRowData` bytes (a big-endian platform, or
/// the first column of a type that path does not write), or null when they can.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_binaryRowsRefusal<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
) -> jstring {
    errors::guarded(&mut env, std::ptr::null_mut(), |env| {
        let schema = with_decoder(handle, |decoder| Ok(decoder.schema()))?;
        match binary_rows_refusal(&schema) {
            Some(reason) => Ok(env.new_string(reason)?.into_raw()),
            None => Ok(std::ptr::null_mut()),
        }
    })
}

/// Decodes one fetch into Flink `BinaryRowData` bytes: `rowsOut[0]` the slab (`byte[]`),
/// `rowsOut[1]` and `rowsOut[2]` each row's offset and size (`int[]`), `rowsOut[3]` each row's
/// record index (`int[]`); errors as for `decode`. Returns the row count.
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_decodeBinaryRows<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
    key_data: JByteArray<'local>,
    key_offsets: JIntArray<'local>,
    key_lengths: JIntArray<'local>,
    value_data: JByteArray<'local>,
    value_offsets: JIntArray<'local>,
    value_lengths: JIntArray<'local>,
    rows_out: JObjectArray<'local>,
    errors_out: JObjectArray<'local>,
) -> jint {
    errors::guarded(&mut env, -1, |env| {
        if rows_out.is_null() || env.get_array_length(&rows_out)? < 4 {
            return Err(BridgeError::Argument("rowsOut must hold 4 slots".into()));
        }
        let keys = JavaSide { data: &key_data, offsets: &key_offsets, lengths: &key_lengths };
        let values = JavaSide { data: &value_data, offsets: &value_offsets, lengths: &value_lengths };
        let decoded = decode_sides(env, handle, keys, values)?;
        let rows = decoded.binary_rows()?;
        let records: Vec<i32> = decoded.records.iter().map(|&r| r as i32).collect();
        deliver_errors(env, &decoded, &errors_out)?;
        let data = binary_slab(env, &rows)?;
        env.set_object_array_element(&rows_out, 0, &data)?;
        env.delete_local_ref(data)?;
        for (slot, ints) in [(1, &rows.offsets()), (2, &rows.sizes()), (3, &records)] {
            let array = env.new_int_array(ints.len() as i32)?;
            env.set_int_array_region(&array, 0, ints)?;
            env.set_object_array_element(&rows_out, slot, &array)?;
            env.delete_local_ref(array)?;
        }
        Ok(rows.row_count() as jint)
    })
}

/// A new Java array with the rows written straight into it (no slab of our own to copy from).
fn binary_slab<'local>(env: &mut JNIEnv<'local>, rows: &BinaryRows<'_>) -> Result<JByteArray<'local>, BridgeError> {
    let length = i32::try_from(rows.byte_len()).map_err(|_| KjsonError::internal("binary rows past an i32"))?;
    let data = env.new_byte_array(length)?;
    // SAFETY: `data` is a new array no other thread sees; the critical section makes no JNI
    // call, only writes the rows (no allocation, no callback) and ends when `elements` drops,
    // copying back should the JVM have handed out a copy.
    let elements = unsafe { env.get_array_elements_critical(&data, ReleaseMode::CopyBack) }?;
    let len = elements.len();
    // SAFETY: the elements are `len` bytes (jbyte is i8) valid for writes while `elements`
    // lives, and nothing else refers to them.
    let bytes = unsafe { std::slice::from_raw_parts_mut(elements.as_ptr().cast::<u8>(), len) };
    let written = rows.write_into_zeroed(bytes);
    drop(elements);
    written?;
    Ok(data)
}

#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_close<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    handle: jlong,
) {
    errors::guarded(&mut env, (), |_| {
        let decoder = registry::decoders().remove(handle)?;
        drop(decoder);
        Ok(())
    })
}

/// How many decoder handles are open in this process (leak checks).
#[no_mangle]
pub extern "system" fn Java_org_kjson_flink_NativeJsonDecoder_openHandleCount0<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
) -> jint {
    errors::guarded(&mut env, -1, |_| Ok(registry::decoders().open_count() as jint))
}
