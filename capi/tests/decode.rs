//! The decoder through the C ABI: records encoded by `kjson_encode` (handed over as they are)
//! and hand-written ones decode into the exported struct array (physical columns, `__row_kind`,
//! `__record`); a malformed record fails the batch with its index and exports nothing, or is
//! collected; the exported array and schema are released exactly once, by their owner.
use std::ffi::{CStr, CString};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{Array, Int32Array, Int64Array, Int8Array, StringArray, StructArray};
use arrow_schema::{DataType, Field};
use kjson_c::{
    kjson_close, kjson_decode, kjson_decoder_close, kjson_decoder_open_ddl, kjson_decoder_open_parts,
    kjson_decoder_set_on_error, kjson_encode, kjson_error, kjson_open_ddl, KjsonColumn, KjsonDecodeErrors, KjsonHandle,
    KjsonOption, KjsonRecords, KjsonSinkParts, KjsonSlab, KjsonStatus,
};

const DDL: &str = "CREATE TABLE t (id BIGINT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH (\
'connector' = 'upsert-kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092', \
'key.format' = 'json', 'value.format' = 'json')";

fn open_decoder() -> KjsonHandle {
    let ddl = CString::new(DDL).unwrap();
    let mut handle: KjsonHandle = 0;
    // SAFETY: a NUL-terminated DDL and a writable handle; NULL versions are the defaults.
    let status = unsafe { kjson_decoder_open_ddl(ddl.as_ptr(), std::ptr::null(), std::ptr::null(), &mut handle) };
    assert_eq!(status, KjsonStatus::Ok, "{}", error(0));
    handle
}

fn error(handle: KjsonHandle) -> String {
    // SAFETY: kjson_error never returns NULL; the text lives until the next call.
    unsafe { CStr::from_ptr(kjson_error(handle)) }.to_string_lossy().into_owned()
}

/// Records as C holds them: one slab per side.
struct Side {
    bytes: Vec<u8>,
    offsets: Vec<i32>,
    lengths: Vec<i32>,
}

impl Side {
    fn of(records: &[Option<&str>]) -> Side {
        let mut side = Side { bytes: Vec::new(), offsets: Vec::new(), lengths: Vec::new() };
        for record in records {
            side.offsets.push(side.bytes.len() as i32);
            match record {
                Some(text) => {
                    side.lengths.push(text.len() as i32);
                    side.bytes.extend_from_slice(text.as_bytes());
                }
                None => side.lengths.push(-1),
            }
        }
        side
    }

    fn slab(&self) -> KjsonSlab {
        KjsonSlab {
            bytes: self.bytes.as_ptr(),
            bytes_len: self.bytes.len(),
            offsets: self.offsets.as_ptr(),
            lengths: self.lengths.as_ptr(),
            count: self.lengths.len(),
        }
    }
}

struct Decoded {
    status: KjsonStatus,
    array: FFI_ArrowArray,
    schema: FFI_ArrowSchema,
    errors: KjsonDecodeErrors,
}

fn decode(handle: KjsonHandle, keys: Option<&KjsonSlab>, values: &KjsonSlab) -> Decoded {
    let mut array = std::mem::MaybeUninit::<FFI_ArrowArray>::uninit();
    let mut schema = std::mem::MaybeUninit::<FFI_ArrowSchema>::uninit();
    let mut errors = std::mem::MaybeUninit::<KjsonDecodeErrors>::uninit();
    let keys = keys.map_or(std::ptr::null(), |k| k as *const KjsonSlab);
    // SAFETY: slabs over live vectors; writable out structs.
    let status =
        unsafe { kjson_decode(handle, keys, values, array.as_mut_ptr(), schema.as_mut_ptr(), errors.as_mut_ptr()) };
    // SAFETY: kjson_decode writes all three on every path past its argument checks (these are valid).
    unsafe {
        Decoded { status, array: array.assume_init(), schema: schema.assume_init(), errors: errors.assume_init() }
    }
}

fn failed_records(errors: &KjsonDecodeErrors) -> Vec<(usize, String)> {
    (0..errors.count)
        .map(|i| {
            // SAFETY: `count` records and messages, valid until the next call on the handle.
            unsafe {
                let message = CStr::from_ptr(*errors.messages.add(i)).to_string_lossy().into_owned();
                (*errors.records.add(i), message)
            }
        })
        .collect()
}

fn imported(decoded: Decoded) -> StructArray {
    assert_eq!(decoded.status, KjsonStatus::Ok);
    // SAFETY: a struct array and its schema exported by kjson_decode, moved in here.
    let data = unsafe { from_ffi(decoded.array, &decoded.schema) }.unwrap();
    StructArray::from(data)
}

fn column<T: Clone + 'static>(array: &StructArray, name: &str) -> T {
    array.column_by_name(name).unwrap().as_any().downcast_ref::<T>().unwrap().clone()
}

fn check_rows(rows: &StructArray) {
    assert_eq!(rows.column_names(), vec!["id", "name", "__row_kind", "__record"]);
    assert_eq!(column::<Int64Array>(rows, "id"), Int64Array::from(vec![1, 2, 3]));
    assert_eq!(column::<StringArray>(rows, "name"), StringArray::from(vec![Some("a\"b"), None, Some("é")]));
    // The tombstone of key 2 is a DELETE (3) of that key; the other records are inserts.
    assert_eq!(column::<Int8Array>(rows, "__row_kind"), Int8Array::from(vec![0, 3, 0]));
    assert_eq!(column::<Int32Array>(rows, "__record"), Int32Array::from(vec![0, 1, 2]));
}

#[test]
fn the_encoders_records_decode_into_the_rows_they_came_from() {
    let ddl = CString::new(DDL).unwrap();
    let mut encoder: KjsonHandle = 0;
    // SAFETY: as in open_decoder.
    let status = unsafe { kjson_open_ddl(ddl.as_ptr(), std::ptr::null(), std::ptr::null(), &mut encoder) };
    assert_eq!(status, KjsonStatus::Ok);
    let batch = StructArray::from(vec![
        (Arc::new(Field::new("id", DataType::Int64, false)), Arc::new(Int64Array::from(vec![1, 2, 3])) as _),
        (
            Arc::new(Field::new("name", DataType::Utf8, true)),
            Arc::new(StringArray::from(vec![Some("a\"b"), Some("gone"), Some("é")])) as _,
        ),
    ]);
    let (mut array, schema) = to_ffi(&batch.into_data()).unwrap();
    let kinds: [i8; 3] = [0, 3, 2];
    let mut records = std::mem::MaybeUninit::<KjsonRecords>::uninit();
    // SAFETY: an exported struct array, its schema, three row kinds, writable records.
    let status = unsafe { kjson_encode(encoder, &mut array, &schema, kinds.as_ptr(), 3, records.as_mut_ptr()) };
    assert_eq!(status, KjsonStatus::Ok, "{}", error(encoder));
    // SAFETY: written by the successful call; valid until the next call on `encoder`.
    let records = unsafe { records.assume_init() };

    let decoder = open_decoder();
    let rows = imported(decode(decoder, Some(&records.keys), &records.values));
    // The DELETE's value was a tombstone: its name is not in Kafka, so it is null on read.
    check_rows(&rows);
    assert_eq!(kjson_close(encoder), KjsonStatus::Ok);
    assert_eq!(kjson_decoder_close(decoder), KjsonStatus::Ok);
}

#[test]
fn a_decoder_opens_from_parts_too() {
    let strings: Vec<CString> = ["id", "BIGINT NOT NULL", "name", "STRING", "connector", "upsert-kafka", "key.format"]
        .iter()
        .chain(["json", "value.format", "json"].iter())
        .map(|s| CString::new(*s).unwrap())
        .collect();
    let p = |i: usize| strings[i].as_ptr();
    let columns = [KjsonColumn { name: p(0), type_string: p(1) }, KjsonColumn { name: p(2), type_string: p(3) }];
    let options = [
        KjsonOption { key: p(4), value: p(5) },
        KjsonOption { key: p(6), value: p(7) },
        KjsonOption { key: p(8), value: p(9) },
    ];
    let primary_key = [p(0)];
    let parts = KjsonSinkParts {
        table_name: std::ptr::null(),
        columns: columns.as_ptr(),
        column_count: 2,
        primary_key: primary_key.as_ptr(),
        primary_key_count: 1,
        options: options.as_ptr(),
        option_count: 3,
    };
    let version = CString::new("2.2").unwrap();
    let mut handle: KjsonHandle = 0;
    // SAFETY: parts over live strings; a writable handle.
    let status = unsafe { kjson_decoder_open_parts(&parts, version.as_ptr(), std::ptr::null(), &mut handle) };
    assert_eq!(status, KjsonStatus::Ok, "{}", error(0));
    let keys = Side::of(&[Some(r#"{"id":1}"#), Some(r#"{"id":2}"#), Some(r#"{"id":3}"#)]);
    let values = Side::of(&[Some(r#"{"id":1,"name":"a\"b"}"#), None, Some(r#"{"id":3,"name":"é"}"#)]);
    check_rows(&imported(decode(handle, Some(&keys.slab()), &values.slab())));
    assert_eq!(kjson_decoder_close(handle), KjsonStatus::Ok);
}

static ARRAY_RELEASES: AtomicUsize = AtomicUsize::new(0);
static SCHEMA_RELEASES: AtomicUsize = AtomicUsize::new(0);
static mut ARRAY_RELEASE: Option<unsafe extern "C" fn(*mut FFI_ArrowArray)> = None;
static mut SCHEMA_RELEASE: Option<unsafe extern "C" fn(*mut FFI_ArrowSchema)> = None;

unsafe extern "C" fn count_array_release(array: *mut FFI_ArrowArray) {
    ARRAY_RELEASES.fetch_add(1, Ordering::SeqCst);
    // SAFETY: set once by the test below before the struct can be released.
    if let Some(release) = unsafe { ARRAY_RELEASE } {
        // SAFETY: forwards to kjson's own release with its own struct.
        unsafe { release(array) };
    }
}

unsafe extern "C" fn count_schema_release(schema: *mut FFI_ArrowSchema) {
    SCHEMA_RELEASES.fetch_add(1, Ordering::SeqCst);
    // SAFETY: as above.
    if let Some(release) = unsafe { SCHEMA_RELEASE } {
        // SAFETY: as above.
        unsafe { release(schema) };
    }
}

/// The `release` member of a C Data struct: the 9th (ArrowArray, after five int64 and three
/// pointers) or the 8th (ArrowSchema, after three pointers, two int64 and two pointers).
fn release_slot<T, F>(value: &mut T, offset: usize) -> *mut Option<F> {
    // SAFETY: the structs are #[repr(C)] with the layout of the C Data Interface.
    unsafe { (value as *mut T as *mut u8).add(offset) as *mut Option<F> }
}

#[test]
fn the_exported_array_and_schema_are_released_exactly_once() {
    let handle = open_decoder();
    let keys = Side::of(&[Some(r#"{"id":1}"#), Some(r#"{"id":2}"#), Some(r#"{"id":3}"#)]);
    let values = Side::of(&[Some(r#"{"id":1,"name":"a\"b"}"#), None, Some(r#"{"id":3,"name":"é"}"#)]);
    let mut decoded = decode(handle, Some(&keys.slab()), &values.slab());
    assert_eq!(decoded.status, KjsonStatus::Ok, "{}", error(handle));
    assert_eq!(decoded.errors.count, 0);
    // SAFETY: the release members of the exported structs (see release_slot); the test is the
    // only user of the statics.
    unsafe {
        let slot = release_slot::<_, unsafe extern "C" fn(*mut FFI_ArrowArray)>(&mut decoded.array, 8 * 5 + 8 * 3);
        ARRAY_RELEASE = *slot;
        *slot = Some(count_array_release);
        let slot = release_slot::<_, unsafe extern "C" fn(*mut FFI_ArrowSchema)>(&mut decoded.schema, 8 * 7);
        SCHEMA_RELEASE = *slot;
        *slot = Some(count_schema_release);
    }
    assert!(!decoded.array.is_released() && decoded.schema.release().is_some());
    // Closing the decoder does not touch the exported batch: the caller owns it.
    assert_eq!(kjson_decoder_close(handle), KjsonStatus::Ok);
    assert_eq!(ARRAY_RELEASES.load(Ordering::SeqCst), 0);
    let rows = imported(decoded); // moves the array in; the schema is dropped (released) here
    assert_eq!(SCHEMA_RELEASES.load(Ordering::SeqCst), 1, "the schema is released once");
    check_rows(&rows);
    assert_eq!(ARRAY_RELEASES.load(Ordering::SeqCst), 0, "not released while its buffers are in use");
    drop(rows);
    assert_eq!(ARRAY_RELEASES.load(Ordering::SeqCst), 1, "the array is released once");
    assert_eq!(SCHEMA_RELEASES.load(Ordering::SeqCst), 1);
}

#[test]
fn a_malformed_record_fails_the_batch_by_its_index_and_exports_nothing() {
    let handle = open_decoder();
    let keys = Side::of(&[Some(r#"{"id":1}"#), Some(r#"{"id":2}"#), Some(r#"{"id":3}"#)]);
    let values = Side::of(&[Some(r#"{"id":1,"name":"a"}"#), Some(r#"{"id":2,"name":"#), Some(r#"{"id":3}"#)]);
    let decoded = decode(handle, Some(&keys.slab()), &values.slab());
    assert_eq!(decoded.status, KjsonStatus::RecordFailed);
    let text = error(handle);
    assert!(text.starts_with("record 1: Failed to deserialize JSON"), "{text}");
    assert!(decoded.array.is_released(), "no half-exported array");
    assert!(decoded.schema.release().is_none(), "no half-exported schema");
    let failed = failed_records(&decoded.errors);
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].0, 1);
    assert!(failed[0].1.starts_with("Failed to deserialize JSON"), "{}", failed[0].1);

    // Under collect the record gives no row and is listed; the others decode.
    assert_eq!(kjson_decoder_set_on_error(handle, true), KjsonStatus::Ok);
    let decoded = decode(handle, Some(&keys.slab()), &values.slab());
    assert_eq!(decoded.status, KjsonStatus::Ok, "{}", error(handle));
    assert_eq!(error(handle), "", "a success clears the handle's error text");
    let failed = failed_records(&decoded.errors);
    assert_eq!(failed.iter().map(|f| f.0).collect::<Vec<_>>(), vec![1]);
    let rows = imported(decoded);
    assert_eq!(column::<Int64Array>(&rows, "id"), Int64Array::from(vec![1, 3]));
    assert_eq!(column::<Int32Array>(&rows, "__record"), Int32Array::from(vec![0, 2]));
    assert_eq!(kjson_decoder_close(handle), KjsonStatus::Ok);
}

#[test]
fn misuse_is_an_error_not_a_crash() {
    let handle = open_decoder();
    let values = Side::of(&[Some("{}")]);
    let outside = KjsonSlab { count: 1, bytes_len: 1, ..values.slab() };
    let decoded = decode(handle, None, &KjsonSlab { lengths: [5].as_ptr(), ..outside });
    assert_eq!(decoded.status, KjsonStatus::Refused);
    assert!(error(handle).contains("outside the slab"), "{}", error(handle));
    assert!(decoded.array.is_released());
    // SAFETY: NULL pointers are refused before anything is read.
    let status = unsafe {
        kjson_decode(
            handle,
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(status, KjsonStatus::InvalidArgument);
    let decoded = decode(handle, None, &KjsonSlab { bytes: std::ptr::null(), ..values.slab() });
    assert_eq!(decoded.status, KjsonStatus::InvalidArgument);

    // An encoder's handle is not a decoder's, and the reverse.
    let ddl = CString::new(DDL).unwrap();
    let mut encoder: KjsonHandle = 0;
    // SAFETY: as in open_decoder.
    let status = unsafe { kjson_open_ddl(ddl.as_ptr(), std::ptr::null(), std::ptr::null(), &mut encoder) };
    assert_eq!(status, KjsonStatus::Ok);
    assert_eq!(decode(encoder, None, &values.slab()).status, KjsonStatus::InvalidArgument);
    assert!(error(encoder).contains("an encoder's"), "{}", error(encoder));
    assert_eq!(kjson_decoder_close(encoder), KjsonStatus::InvalidArgument);
    let mut array = FFI_ArrowArray::empty();
    let schema = FFI_ArrowSchema::empty();
    let mut records = std::mem::MaybeUninit::<KjsonRecords>::uninit();
    // SAFETY: a released array is refused without being read further.
    let status = unsafe { kjson_encode(handle, &mut array, &schema, std::ptr::null(), 0, records.as_mut_ptr()) };
    assert_eq!(status, KjsonStatus::InvalidArgument);
    assert_eq!(kjson_close(encoder), KjsonStatus::Ok);

    // A closed decoder.
    assert_eq!(kjson_decoder_close(handle), KjsonStatus::Ok);
    assert_eq!(kjson_decoder_close(handle), KjsonStatus::InvalidArgument);
    let decoded = decode(handle, None, &values.slab());
    assert_eq!(decoded.status, KjsonStatus::InvalidArgument);
    assert!(decoded.array.is_released());
    assert!(error(handle).contains("unknown handle"), "{}", error(handle));
    let bad_ddl = CString::new("CREATE TABLE t (a INTEGR) WITH ('connector' = 'kafka')").unwrap();
    let mut none: KjsonHandle = 7;
    // SAFETY: as in open_decoder.
    let status = unsafe { kjson_decoder_open_ddl(bad_ddl.as_ptr(), std::ptr::null(), std::ptr::null(), &mut none) };
    assert_eq!(status, KjsonStatus::Refused);
    assert_eq!(none, 0);
    assert!(error(0).contains("INTEGR"), "{}", error(0));
}

#[test]
fn a_decoder_reads_the_ddl_as_a_source() {
    // debezium-json's schema-include is a scan-side option: the encoder refuses it, the decoder
    // takes it.
    let ddl = CString::new(
        "CREATE TABLE t (id BIGINT, name STRING) WITH ('connector' = 'kafka', 'topic' = 't', \
         'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'debezium-json', \
         'debezium-json.schema-include' = 'true')",
    )
    .unwrap();
    let mut encoder: KjsonHandle = 0;
    // SAFETY: as in open_decoder.
    let status = unsafe { kjson_open_ddl(ddl.as_ptr(), std::ptr::null(), std::ptr::null(), &mut encoder) };
    assert_eq!(status, KjsonStatus::Refused, "the sink side refuses schema-include");
    let mut decoder: KjsonHandle = 0;
    // SAFETY: as in open_decoder.
    let status = unsafe { kjson_decoder_open_ddl(ddl.as_ptr(), std::ptr::null(), std::ptr::null(), &mut decoder) };
    assert_eq!(status, KjsonStatus::Ok, "{}", error(0));
    let values = Side::of(&[Some(r#"{"schema":{},"payload":{"before":null,"after":{"id":1,"name":"a"},"op":"c"}}"#)]);
    let rows = imported(decode(decoder, None, &values.slab()));
    assert_eq!(column::<Int64Array>(&rows, "id"), Int64Array::from(vec![1]));
    assert_eq!(column::<Int8Array>(&rows, "__row_kind"), Int8Array::from(vec![0]));
    assert_eq!(kjson_decoder_close(decoder), KjsonStatus::Ok);
}
