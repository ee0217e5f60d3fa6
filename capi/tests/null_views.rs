//! A view column whose null slots hold bytes the producer never wrote (as Java's Arrow leaves
//! them) passes through the C ABI as through JNI: the views under nulls are ignored, not read.
use std::ffi::CString;
use std::sync::Arc;

use arrow_array::ffi::to_ffi;
use arrow_array::{Array, BinaryViewArray, StructArray};
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field};
use kjson_c::{kjson_close, kjson_encode, kjson_open_ddl, KjsonHandle, KjsonRecords, KjsonStatus};

/// A view that would point past the data buffer if it were read.
const GARBAGE: [u8; 16] = [40, 0, 0, 0, 1, 2, 3, 4, 9, 0, 0, 0, 0, 0, 0, 0];

fn garbage_under_null() -> StructArray {
    let values = BinaryViewArray::from(vec![Some(&b"a"[..]), None, Some(&b"a value longer than twelve"[..])]);
    let data = values.into_data();
    let mut views = data.buffers()[0].as_slice().to_vec();
    views[16..32].copy_from_slice(&GARBAGE);
    let buffers = [vec![Buffer::from_vec(views)], data.buffers()[1..].to_vec()].concat();
    // SAFETY: the test builds the invalid view on purpose, under a null slot, as a producer may.
    let column = unsafe { data.into_builder().buffers(buffers).build_unchecked() };
    StructArray::from(vec![(
        Arc::new(Field::new("s", DataType::BinaryView, true)),
        arrow_array::make_array(column) as Arc<dyn Array>,
    )])
}

#[test]
fn unwritten_views_under_nulls_are_not_read() {
    let ddl = CString::new(
        "CREATE TABLE t (s STRING) WITH ('connector' = 'kafka', 'topic' = 't', \
         'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json')",
    )
    .unwrap();
    let (version, spelling) = (CString::new("2.2").unwrap(), CString::new("jdk17").unwrap());
    let mut handle: KjsonHandle = 0;
    // SAFETY: NUL-terminated strings and a writable handle.
    let opened = unsafe { kjson_open_ddl(ddl.as_ptr(), version.as_ptr(), spelling.as_ptr(), &mut handle) };
    assert_eq!(opened, KjsonStatus::Ok);
    let (mut array, schema) = to_ffi(&garbage_under_null().into_data()).unwrap();
    let mut records = std::mem::MaybeUninit::<KjsonRecords>::uninit();
    // SAFETY: an exported struct array and its schema; `records` is writable.
    let status = unsafe { kjson_encode(handle, &mut array, &schema, std::ptr::null(), 0, records.as_mut_ptr()) };
    assert_eq!(status, KjsonStatus::Ok);
    // SAFETY: written by the successful call above.
    let values = unsafe { records.assume_init() }.values;
    assert_eq!(values.count, 3);
    // SAFETY: the slab stays valid until the next call on the handle.
    let lengths = unsafe { std::slice::from_raw_parts(values.lengths, values.count) };
    // SAFETY: as above: the slab stays valid until the next call on the handle.
    let bytes = unsafe { std::slice::from_raw_parts(values.bytes, values.bytes_len) };
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert_eq!(text, r#"{"s":"a"}{"s":null}{"s":"a value longer than twelve"}"#);
    assert_eq!(lengths, &[9, 10, 34]);
    assert_eq!(kjson_close(handle), KjsonStatus::Ok);
}
