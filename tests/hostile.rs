//! Hostile and broken input through the Rust API: each case gives a clear error or correct
//! output, none crashes, and the same encoder is correct on the next batch. (The CLI's cases are
//! in cli/tests/hostile.rs; Arrow C Data through JNI is tested beside the JNI bridge.)
use std::sync::Arc;

use arrow_array::{
    make_array, new_empty_array, Array, ArrayRef, BinaryArray, Int32Array, Int64Array, Int8Array, LargeStringArray,
    ListArray, RecordBatch, StringArray, StructArray, Time32MillisecondArray,
};

use arrow_array::ffi::{from_ffi, to_ffi};
use arrow_array::types::Int32Type;
use arrow_buffer::{Buffer, OffsetBuffer};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, Fields, Schema};
use kjson_arrow::Encoder;
use kjson_runtime::{validate_batch, Compatibility, KjsonError, SinkSpec, Slab};

const WITH: &str =
    "'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json'";

fn ddl(columns: &str) -> String {
    format!("CREATE TABLE t ({columns}) WITH ({WITH})")
}

fn encoder(columns: &str) -> Encoder {
    let spec = SinkSpec::from_ddl(&ddl(columns)).unwrap();
    Encoder::open(spec, Compatibility::default()).unwrap()
}

fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    let fields: Vec<Field> = columns.iter().map(|(n, a)| Field::new(*n, a.data_type().clone(), true)).collect();
    let arrays = columns.into_iter().map(|(_, a)| a).collect();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

fn values(slab: &Slab) -> Vec<Option<String>> {
    (0..slab.len()).map(|r| slab.record(r).map(|b| String::from_utf8(b.to_vec()).unwrap())).collect()
}

const ID_NAME: &str = "id BIGINT, name STRING";

fn good_batch() -> RecordBatch {
    batch(vec![
        ("id", Arc::new(Int64Array::from(vec![1, 2]))),
        ("name", Arc::new(StringArray::from(vec![Some("a\"b"), None]))),
    ])
}

fn good_values() -> Vec<Option<String>> {
    vec![Some(r#"{"id":1,"name":"a\"b"}"#.into()), Some(r#"{"id":2,"name":null}"#.into())]
}

/// The encoder's output for the good batch, which must not change after any error.
fn assert_still_correct(encoder: &mut Encoder) {
    let slabs = encoder.encode(&good_batch(), None).expect("the next good batch encodes");
    assert_eq!(values(slabs.values()), good_values());
    assert_eq!(slabs.keys().lengths(), vec![-1, -1]);
}

#[test]
fn schema_mismatch_names_the_column_and_both_types() {
    let mut encoder = encoder(ID_NAME);
    let wrong =
        batch(vec![("id", Arc::new(Int32Array::from(vec![1]))), ("name", Arc::new(StringArray::from(vec!["a"])))]);
    let error = encoder.encode(&wrong, None).unwrap_err();
    assert!(matches!(error, KjsonError::Schema { .. }), "{error:?}");
    for part in ["column `id`", "BIGINT", "Int64", "found Arrow type Int32"] {
        assert!(error.message().contains(part), "{part} missing in: {error}");
    }
    assert_still_correct(&mut encoder);

    let mut encoder = self::encoder(ID_NAME);
    let one_column = batch(vec![("id", Arc::new(Int64Array::from(vec![1])))]);
    let error = encoder.encode(&one_column, None).unwrap_err();
    assert!(
        error.message().contains("2 physical columns (id, name)") && error.message().contains("1 columns (id)"),
        "{error}"
    );
    assert_still_correct(&mut encoder);
}

#[test]
fn nested_mismatch_names_the_field_path() {
    let mut encoder = encoder("id BIGINT, r ROW<x INT, tags ARRAY<STRING>>");
    let fields = Fields::from(vec![
        Field::new("x", DataType::Int32, true),
        Field::new("tags", DataType::new_list(DataType::Int32, true), true),
    ]);
    let tags = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![Some(vec![Some(1)])]);
    let row = StructArray::new(fields, vec![Arc::new(Int32Array::from(vec![1])), Arc::new(tags)], None);
    let error = encoder
        .encode(&batch(vec![("id", Arc::new(Int64Array::from(vec![1]))), ("r", Arc::new(row))]), None)
        .unwrap_err();
    assert!(error.message().starts_with("column `r.tags[]`: expected Flink type STRING"), "{error}");
}

#[test]
fn a_later_batch_in_another_arrow_encoding_is_replanned_and_a_wrong_type_refused() {
    let mut encoder = encoder(ID_NAME);
    assert_still_correct(&mut encoder);
    let large = batch(vec![
        ("id", Arc::new(Int64Array::from(vec![1, 2]))),
        ("name", Arc::new(LargeStringArray::from(vec![Some("a\"b"), None]))),
    ]);
    let slabs = encoder.encode(&large, None).expect("LargeUtf8 carries STRING too");
    assert_eq!(values(slabs.values()), good_values());
    let wrong = batch(vec![("id", Arc::new(Int64Array::from(vec![7]))), ("name", Arc::new(Int32Array::from(vec![7])))]);
    let error = encoder.encode(&wrong, None).unwrap_err();
    assert!(error.message().starts_with("column `name`: expected Flink type STRING"), "{error}");
    assert_still_correct(&mut encoder);
}

/// Expected strings printed by JDK 17 (and JDK 25, identical) for `new String(bytes, UTF_8)`.
#[test]
fn binary_declared_string_decodes_invalid_utf8_as_java() {
    let cases: [(&[u8], &str); 7] = [
        (b"a\xffb", "a\u{FFFD}b"),
        (b"\xf0\x9f\x98", "\u{FFFD}"),
        (b"\xed\xa0\x80", "\u{FFFD}"),
        (b"\xc0\xafx", "\u{FFFD}\u{FFFD}x"),
        (b"\xf0\x9f\x98\x80", "\\uD83D\\uDE00"),
        (b"\xe2\x82z\x80", "\u{FFFD}z\u{FFFD}"),
        (b"\xf4\x90\x80\x80", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
    ];
    let mut encoder = encoder(ID_NAME);
    let names: BinaryArray = cases.iter().map(|(bytes, _)| Some(*bytes)).collect();
    let ids = Int64Array::from_iter_values(0..cases.len() as i64);
    let slabs = encoder.encode(&batch(vec![("id", Arc::new(ids)), ("name", Arc::new(names))]), None).unwrap();
    for (row, (_, java)) in cases.iter().enumerate() {
        let expected = format!(r#"{{"id":{row},"name":"{java}"}}"#);
        assert_eq!(slabs.values().record(row), Some(expected.as_bytes()), "row {row}");
    }
}

/// Keys of a MAP carried as Binary are Java strings to Jackson: two different invalid byte
/// sequences that both decode to U+FFFD are one key (first position, last value).
#[test]
fn binary_map_keys_merge_as_the_java_strings_they_decode_to() {
    let mut encoder = encoder("id BIGINT, m MAP<STRING, INT>");
    let entries =
        Fields::from(vec![Field::new("key", DataType::Binary, false), Field::new("value", DataType::Int32, true)]);
    let keys = BinaryArray::from(vec![&b"\xff"[..], b"k", b"\xfe", b"\xed\xa0\x80", b"\xed\xa0"]);
    let kv =
        StructArray::new(entries.clone(), vec![Arc::new(keys), Arc::new(Int32Array::from(vec![1, 2, 3, 4, 5]))], None);
    let field = Arc::new(Field::new("entries", DataType::Struct(entries), false));
    let map = arrow_array::MapArray::new(field, OffsetBuffer::from_lengths([5]), kv, None, false);
    let slabs =
        encoder.encode(&batch(vec![("id", Arc::new(Int64Array::from(vec![1]))), ("m", Arc::new(map))]), None).unwrap();
    assert_eq!(values(slabs.values()), vec![Some("{\"id\":1,\"m\":{\"\u{FFFD}\":5,\"k\":2}}".to_string())]);
}

/// Types nest at most 128 levels (the parser's bound, so that hostile DDL cannot exhaust the
/// stack): the deepest accepted type encodes, one level more is a parse error with a position.
#[test]
fn the_deepest_accepted_nesting_encodes_and_one_more_is_refused() {
    let nested = |depth: usize| format!("a {}INT{}", "ARRAY<".repeat(depth), ">".repeat(depth));
    let error = SinkSpec::from_ddl(&ddl(&nested(128))).unwrap_err();
    assert!(matches!(error, KjsonError::Parse { position: Some(_), .. }), "{error:?}");
    assert!(error.message().contains("deeper than 128"), "{error}");

    let mut encoder = encoder(&nested(127));
    let mut array: ArrayRef = Arc::new(Int32Array::from(vec![7]));
    for _ in 0..127 {
        let field = Arc::new(Field::new("item", array.data_type().clone(), true));
        array = Arc::new(ListArray::new(field, OffsetBuffer::from_lengths([1]), array, None));
    }
    let slabs = encoder.encode(&batch(vec![("a", array)]), None).unwrap();
    let expected = format!("{{\"a\":{}7{}}}", "[".repeat(127), "]".repeat(127));
    assert_eq!(values(slabs.values()), vec![Some(expected)]);
}

/// Flink converts every occurrence of a repeated map key (the last one wins): an earlier value
/// holding a null key fails the record under FAIL even though it is replaced. (Found by the
/// encoder fuzz target.)
#[test]
fn a_replaced_value_under_a_repeated_key_still_fails_on_a_null_key() {
    let mut encoder = encoder("id BIGINT, m MAP<STRING, MAP<STRING, INT>>");
    let inner_fields =
        Fields::from(vec![Field::new("key", DataType::Utf8, true), Field::new("value", DataType::Int32, true)]);
    let inner_kv = StructArray::new(
        inner_fields.clone(),
        vec![Arc::new(StringArray::from(vec![None, Some("k")])), Arc::new(Int32Array::from(vec![1, 2]))],
        None,
    );
    let inner_field = Arc::new(Field::new("entries", DataType::Struct(inner_fields), false));
    let inner = ListArray::new(inner_field, OffsetBuffer::from_lengths([1, 1]), Arc::new(inner_kv), None);
    let outer_fields = Fields::from(vec![
        Field::new("key", DataType::Utf8, true),
        Field::new("value", inner.data_type().clone(), true),
    ]);
    let outer_kv = StructArray::new(
        outer_fields.clone(),
        vec![Arc::new(StringArray::from(vec!["a", "a"])), Arc::new(inner)],
        None,
    );
    let outer_field = Arc::new(Field::new("entries", DataType::Struct(outer_fields), false));
    let outer = ListArray::new(outer_field, OffsetBuffer::from_lengths([2]), Arc::new(outer_kv), None);
    let error = encoder
        .encode(&batch(vec![("id", Arc::new(Int64Array::from(vec![1]))), ("m", Arc::new(outer))]), None)
        .unwrap_err();
    assert!(matches!(error, KjsonError::MapNullKey { .. }), "{error:?}");
}

#[test]
fn zero_row_batches_encode_to_nothing() {
    let mut encoder = encoder("id BIGINT, name STRING, m MAP<STRING, ARRAY<INT>>");
    let entries = Fields::from(vec![
        Field::new("key", DataType::Utf8, false),
        Field::new("value", DataType::new_list(DataType::Int32, true), true),
    ]);
    let map = new_empty_array(&DataType::Map(Arc::new(Field::new("entries", DataType::Struct(entries), false)), false));
    let empty = batch(vec![
        ("id", Arc::new(Int64Array::from(Vec::<i64>::new()))),
        ("name", Arc::new(StringArray::from(Vec::<&str>::new()))),
        ("m", map),
    ]);
    for _ in 0..2 {
        let slabs = encoder.encode(&empty, None).unwrap();
        assert_eq!((slabs.num_rows(), slabs.values().bytes().len(), slabs.keys().len()), (0, 0, 0));
    }
}

#[test]
fn a_million_rows_in_one_batch() {
    const ROWS: i64 = 1_000_000;
    let mut encoder = encoder(ID_NAME);
    let names: StringArray = (0..ROWS).map(|i| Some(if i % 3 == 0 { "x\ny" } else { "name" })).collect();
    let big = batch(vec![("id", Arc::new(Int64Array::from_iter_values(0..ROWS))), ("name", Arc::new(names))]);
    let slabs = encoder.encode(&big, None).unwrap();
    assert_eq!(slabs.values().len(), ROWS as usize);
    assert_eq!(slabs.values().record(0), Some(&br#"{"id":0,"name":"x\ny"}"#[..]));
    assert_eq!(slabs.values().record(999_999), Some(&br#"{"id":999999,"name":"x\ny"}"#[..]));
    assert_eq!(slabs.values().record(999_998), Some(&br#"{"id":999998,"name":"name"}"#[..]));
    assert_still_correct(&mut encoder);
}

#[test]
fn a_single_hundred_megabyte_string() {
    const LEN: usize = 100 << 20;
    let mut text = vec![b'a'; LEN];
    // Escapes at both ends and in the middle, the rest one clean run.
    text[0] = b'"';
    text[LEN / 2] = b'\n';
    text[LEN - 1] = b'\\';
    let text = String::from_utf8(text).unwrap();
    let mut encoder = encoder(ID_NAME);
    let huge = batch(vec![
        ("id", Arc::new(Int64Array::from(vec![1]))),
        ("name", Arc::new(StringArray::from(vec![text.as_str()]))),
    ]);
    let slabs = encoder.encode(&huge, None).unwrap();
    let record = slabs.values().record(0).unwrap();
    let head = br#"{"id":1,"name":"\"aaa"#;
    assert_eq!(record.len(), r#"{"id":1,"name":""}"#.len() + LEN + 3);
    assert_eq!(&record[..head.len()], head);
    assert!(record.ends_with(br#"aaa\\"}"#));
    assert_eq!(record.iter().filter(|&&b| b == b'\n').count(), 0);
    drop(text);
    assert_still_correct(&mut encoder);
}

/// A Utf8 array built without validation, as a C Data import or an `unsafe` constructor gives.
fn unchecked_utf8(offsets: &[i32], bytes: &[u8]) -> ArrayRef {
    let builder = ArrayData::builder(DataType::Utf8)
        .len(offsets.len() - 1)
        .add_buffer(Buffer::from_slice_ref(offsets))
        .add_buffer(Buffer::from_slice_ref(bytes));
    // SAFETY: these arrays are validated (and refused) before anything reads their values.
    make_array(unsafe { builder.build_unchecked() })
}

#[test]
fn broken_arrow_data_is_refused_by_validation_before_encoding() {
    let cases: [(&[i32], &[u8], &str); 4] = [
        (&[0, 2, 4_000], b"abcd", "offsets past the end"),
        (&[0, 3, 1], b"abc", "decreasing offsets"),
        (&[0, 1, 3], b"a\xff\xfe", "invalid UTF-8 in Utf8"),
        (&[5, 6, 7], b"abcdefg", "first offset not 0 is fine"),
    ];
    let mut encoder = encoder(ID_NAME);
    for (offsets, bytes, what) in cases {
        let broken =
            batch(vec![("id", Arc::new(Int64Array::from(vec![1, 2]))), ("name", unchecked_utf8(offsets, bytes))]);
        match validate_batch(&broken, None) {
            Err(error) => {
                assert!(error.message().starts_with("column `name`: invalid Arrow data:"), "{what}: {error}");
                assert!(!what.ends_with("is fine"), "{what}: {error}");
            }
            Ok(()) => {
                assert!(what.ends_with("is fine"), "{what} passed validation");
                let slabs = encoder.encode(&broken, None).unwrap();
                assert_eq!(values(slabs.values())[1].as_deref(), Some(r#"{"id":2,"name":"g"}"#));
            }
        }
        assert_still_correct(&mut encoder);
    }
    validate_batch(&good_batch(), Some(&Int8Array::from(vec![0, 3]))).unwrap();
}

/// Arrow C Data import does not validate; [`validate_batch`] does. (The C Data Interface carries
/// no buffer lengths: the importer sizes the value buffer from the last offset, so an offset
/// past the producer's real allocation cannot be detected by anyone; see docs/safety.md.)
#[test]
fn c_data_import_with_broken_offsets_is_caught_by_validation() {
    let broken = unchecked_utf8(&[0, 3, 2], b"abc");
    let (array, schema) = to_ffi(&broken.to_data()).unwrap();
    // SAFETY: `array` and `schema` were just exported by arrow and are moved into the import.
    let imported = unsafe { from_ffi(array, &schema) }.expect("the import itself does not validate");
    let batch = batch(vec![("id", Arc::new(Int64Array::from(vec![1, 2]))), ("name", make_array(imported))]);
    let error = validate_batch(&batch, None).unwrap_err();
    assert!(error.message().contains("column `name`"), "{error}");
}

#[test]
fn row_kind_arrays_that_do_not_fit_are_refused() {
    let mut encoder = encoder(ID_NAME);
    let cases = [
        (Int8Array::from(vec![0, 9]), "row kind of row 1 is 9; expected 0 (+I), 1 (-U), 2 (+U) or 3 (-D)"),
        (Int8Array::from(vec![Some(0), None]), "row kind of row 1 is null; expected 0 (+I), 1 (-U), 2 (+U) or 3 (-D)"),
        (Int8Array::from(vec![0]), "row kind array has 1 entries, the batch has 2 rows"),
    ];
    for (kinds, message) in cases {
        let error = encoder.encode(&good_batch(), Some(&kinds)).unwrap_err();
        assert_eq!(error.message(), message);
        assert_still_correct(&mut encoder);
    }
}

#[test]
fn data_errors_name_the_row_and_field_and_leave_the_encoder_usable() {
    let mut maps = encoder("id BIGINT, m MAP<STRING, INT>");
    let entries =
        Fields::from(vec![Field::new("key", DataType::Utf8, true), Field::new("value", DataType::Int32, true)]);
    let kv = StructArray::new(
        entries.clone(),
        vec![Arc::new(StringArray::from(vec![Some("k"), None])), Arc::new(Int32Array::from(vec![1, 2]))],
        None,
    );
    let entries_field = Arc::new(Field::new("entries", DataType::Struct(entries), false));
    let list = ListArray::new(entries_field, OffsetBuffer::from_lengths([0, 2]), Arc::new(kv), None);
    let with_null_key = batch(vec![("id", Arc::new(Int64Array::from(vec![1, 2]))), ("m", Arc::new(list))]);
    let error = maps.encode(&with_null_key, None).unwrap_err();
    assert!(matches!(error, KjsonError::MapNullKey { .. }), "{error:?}");
    assert!(error.message().starts_with("value of row 1, field `m`: JSON format doesn't support"), "{error}");

    let mut times = encoder("id BIGINT, t TIME(3)");
    let late = Time32MillisecondArray::from(vec![0, 86_400_000]);
    let error = times
        .encode(&batch(vec![("id", Arc::new(Int64Array::from(vec![1, 2]))), ("t", Arc::new(late))]), None)
        .unwrap_err();
    assert_eq!(error.message(), "value of row 1, field `t`: TIME value of 86400000 ms is outside one day");
    let fine = Time32MillisecondArray::from(vec![1]);
    let slabs =
        times.encode(&batch(vec![("id", Arc::new(Int64Array::from(vec![5]))), ("t", Arc::new(fine))]), None).unwrap();
    assert_eq!(values(slabs.values()), vec![Some(r#"{"id":5,"t":"00:00:00.001"}"#.into())]);
}

/// End to end: one row whose JSON passes 2 GiB (360 MB of NUL, each written as `\u0000`). The
/// input pages are zero pages never written; the output really is written (about 2.2 GB, one
/// second in release). Debug builds skip it: the escape loop is too slow unoptimized.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: writes 2.2 GB")]
fn a_batch_whose_output_passes_two_gib_is_a_limit_error() {
    const NULS: usize = 360_000_000;
    let text = Buffer::from_vec(vec![0u8; NULS]);
    let offsets = OffsetBuffer::new(vec![0i32, NULS as i32].into());
    let names = StringArray::new(offsets, text, None);
    let mut encoder = encoder(ID_NAME);
    let huge = batch(vec![("id", Arc::new(Int64Array::from(vec![1]))), ("name", Arc::new(names))]);
    let error = encoder.encode(&huge, None).unwrap_err();
    assert!(matches!(error, KjsonError::Limit { .. }), "{error:?}");
    drop(huge);
    assert_still_correct(&mut encoder);
}

/// What full validation costs beside encoding, on a q0-like batch (four integers and a 60-byte
/// string per row) and on a nested one. A measurement, printed:
///   cargo test --release --test hostile validation_cost -- --ignored --nocapture
#[test]
#[ignore = "a measurement, not a check"]
fn validation_cost() {
    const ROWS: usize = 8192;
    let text = "a fairly ordinary sixty byte string, with nothing to escape!";
    let flat = batch(vec![
        ("a", Arc::new(Int64Array::from_iter_values(0..ROWS as i64))),
        ("b", Arc::new(Int64Array::from_iter_values((0..ROWS as i64).map(|i| i * 7919)))),
        ("c", Arc::new(Int64Array::from_iter_values((0..ROWS as i64).map(|i| i % 1000)))),
        ("d", Arc::new(Int64Array::from_iter_values((0..ROWS as i64).map(|i| 1_700_000_000_000 + i)))),
        ("e", Arc::new(StringArray::from_iter_values((0..ROWS).map(|_| text)))),
    ]);
    let tags = ListArray::from_iter_primitive::<Int32Type, _, _>((0..ROWS).map(|i| Some(vec![Some(i as i32); i % 5])));
    let inner = Fields::from(vec![Field::new("x", DataType::Int64, true), Field::new("s", DataType::Utf8, true)]);
    let row = StructArray::new(
        inner,
        vec![
            Arc::new(Int64Array::from_iter_values(0..ROWS as i64)),
            Arc::new(StringArray::from_iter_values((0..ROWS).map(|_| text))),
        ],
        None,
    );
    let nested = batch(vec![
        ("id", Arc::new(Int64Array::from_iter_values(0..ROWS as i64))),
        ("tags", Arc::new(tags)),
        ("r", Arc::new(row)),
    ]);
    let cases = [
        (flat, "a BIGINT, b BIGINT, c BIGINT, d BIGINT, e STRING"),
        (nested, "id BIGINT, tags ARRAY<INT>, r ROW<x BIGINT, s STRING>"),
    ];
    for (batch, columns) in cases {
        let mut encoder = encoder(columns);
        let time = |f: &mut dyn FnMut()| {
            let start = std::time::Instant::now();
            for _ in 0..300 {
                f();
            }
            start.elapsed().as_secs_f64() / 300.0
        };
        let encode = time(&mut || {
            encoder.encode(&batch, None).unwrap();
        });
        let validate = time(&mut || validate_batch(&batch, None).unwrap());
        println!(
            "{columns}: encode {:.1} µs, validate_full {:.1} µs per {ROWS}-row batch: validation adds {:.0}%",
            encode * 1e6,
            validate * 1e6,
            100.0 * validate / encode
        );
    }
}
