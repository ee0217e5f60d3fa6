//! Hostile and broken input through the CLI: corrupt or mismatched Arrow IPC files give one
//! clean error line and no output file, never a crash. (The Rust API cases are in the kjson
//! crate's tests/hostile.rs.)
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, BinaryArray, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_ipc::writer::{FileWriter, StreamWriter};
use arrow_schema::{Field, Schema};
use kjson_arrow::runtime::{Compatibility, SinkSpec};
use kjson_arrow::Encoder;

mod support;
use support::kjson_command;

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

const ID_NAME: &str = "id BIGINT, name STRING";

fn good_batch() -> RecordBatch {
    batch(vec![
        ("id", Arc::new(Int64Array::from(vec![1, 2]))),
        ("name", Arc::new(StringArray::from(vec![Some("a\"b"), None]))),
    ])
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kjson-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ipc_file(batches: &[RecordBatch]) -> Vec<u8> {
    let mut writer = FileWriter::try_new(Vec::new(), &batches[0].schema()).unwrap();
    batches.iter().for_each(|b| writer.write(b).unwrap());
    writer.into_inner().unwrap()
}

fn ipc_stream(batches: &[RecordBatch]) -> Vec<u8> {
    let mut writer = StreamWriter::try_new(Vec::new(), &batches[0].schema()).unwrap();
    batches.iter().for_each(|b| writer.write(b).unwrap());
    writer.into_inner().unwrap()
}

/// Runs `kjson encode`; returns (exit code, stderr, values file if written).
fn cli_encode(dir: &Path, columns: &str, input: &[u8]) -> (Option<i32>, String, Option<String>) {
    std::fs::write(dir.join("sink.sql"), ddl(columns)).unwrap();
    std::fs::write(dir.join("input.arrow"), input).unwrap();
    let _ = std::fs::remove_file(dir.join("values"));
    let output = kjson_command()
        .arg("encode")
        .args(["--ddl", "sink.sql", "--input", "input.arrow", "--keys-out", "keys", "--values-out", "values"])
        .current_dir(dir)
        .output()
        .unwrap();
    let values = std::fs::read(dir.join("values")).ok().map(|v| String::from_utf8(v).unwrap());
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned(), values)
}

/// A clean failure: exit code 1, one `kjson: error:` line, no output file.
fn assert_clean_failure(result: &(Option<i32>, String, Option<String>), what: &str) {
    let (code, stderr, values) = result;
    assert_eq!(*code, Some(1), "{what}: {stderr}");
    assert!(stderr.starts_with("kjson: error: ") && !stderr.contains("panicked"), "{what}: {stderr}");
    assert!(values.is_none(), "{what}: an output file was left behind");
}

#[test]
fn cli_refuses_schema_mismatch_and_corrupt_input_cleanly() {
    let dir = temp_dir("cli");
    let wrong =
        batch(vec![("id", Arc::new(Int32Array::from(vec![1]))), ("name", Arc::new(StringArray::from(vec!["a"])))]);
    let result = cli_encode(&dir, ID_NAME, &ipc_file(&[wrong]));
    assert_clean_failure(&result, "schema mismatch");
    assert!(result.1.contains("column `id`: expected Flink type BIGINT"), "{}", result.1);

    let good = ipc_file(&[good_batch()]);
    let mut truncated = good.clone();
    truncated.truncate(good.len() / 2);
    for (input, what) in
        [(Vec::new(), "empty file"), (b"not arrow at all".to_vec(), "garbage"), (truncated, "truncated file")]
    {
        assert_clean_failure(&cli_encode(&dir, ID_NAME, &input), what);
    }
    let (code, stderr, values) = cli_encode(&dir, ID_NAME, &good);
    assert_eq!(
        (code, values.as_deref()),
        (Some(0), Some("{\"id\":1,\"name\":\"a\\\"b\"}\n{\"id\":2,\"name\":null}\n")),
        "{stderr}"
    );
}

#[test]
fn cli_refuses_offsets_past_the_buffer_end() {
    let dir = temp_dir("offsets");
    let names = batch(vec![
        ("id", Arc::new(Int64Array::from(vec![1, 2, 3]))),
        ("name", Arc::new(StringArray::from(vec!["abc", "def", "ghi"]))),
    ]);
    for (input, format) in
        [(ipc_file(std::slice::from_ref(&names)), "file"), (ipc_stream(std::slice::from_ref(&names)), "stream")]
    {
        let pattern: Vec<u8> = [0i32, 3, 6, 9].iter().flat_map(|o| o.to_le_bytes()).collect();
        let at = input.windows(16).position(|w| w == pattern).expect("offsets in the body");
        let mut corrupt = input.clone();
        corrupt[at + 12..at + 16].copy_from_slice(&0x7FFF_0000i32.to_le_bytes());
        assert_clean_failure(&cli_encode(&dir, ID_NAME, &corrupt), &format!("{format}: offset past the end"));
        corrupt[at + 12..at + 16].copy_from_slice(&2i32.to_le_bytes());
        assert_clean_failure(&cli_encode(&dir, ID_NAME, &corrupt), &format!("{format}: decreasing offsets"));
    }
}

#[test]
fn cli_writes_zero_rows_and_lossy_binary() {
    let dir = temp_dir("edge");
    let empty = batch(vec![
        ("id", Arc::new(Int64Array::from(Vec::<i64>::new()))),
        ("name", Arc::new(StringArray::from(Vec::<&str>::new()))),
    ]);
    let (code, stderr, values) = cli_encode(&dir, ID_NAME, &ipc_file(&[empty]));
    assert_eq!((code, values.as_deref()), (Some(0), Some("")), "{stderr}");
    let binary = batch(vec![
        ("id", Arc::new(Int64Array::from(vec![1]))),
        ("name", Arc::new(BinaryArray::from(vec![&b"a\xffb"[..]]))),
    ]);
    let (code, stderr, values) = cli_encode(&dir, ID_NAME, &ipc_stream(&[binary]));
    assert_eq!((code, values.as_deref()), (Some(0), Some("{\"id\":1,\"name\":\"a\u{FFFD}b\"}\n")), "{stderr}");
}

/// Every byte of a small IPC file and stream flipped: reading and encoding each
/// gives batches or an error, never a panic. In process, so that it stays fast.
#[test]
fn flipped_bytes_in_ipc_input_never_panic() {
    let dir = temp_dir("flips");
    let path = dir.join("input.arrow");
    let nested = batch(vec![
        ("id", Arc::new(Int64Array::from(vec![1, 2, 3]))),
        ("name", Arc::new(StringArray::from(vec![Some("abc"), None, Some("\u{e9}")]))),
    ]);
    let mut panics = Vec::new();
    let (mut errors, mut decoded) = (0, 0);
    // An input on which arrow's IPC reader asserts (a caught panic, reported as corrupt input).
    let mut reader_panic: Option<Vec<u8>> = None;
    for (format, input) in
        [("file", ipc_file(std::slice::from_ref(&nested))), ("stream", ipc_stream(&[nested.clone(), nested.clone()]))]
    {
        for at in 0..input.len() {
            // Every byte inverted, every third byte's low bit flipped too.
            let flips: &[u8] = if at % 3 == 0 { &[0xFF, 0x01] } else { &[0xFF] };
            for &flip in flips {
                let mut corrupt = input.clone();
                corrupt[at] ^= flip;
                std::fs::write(&path, &corrupt).unwrap();
                let outcome = catch_unwind(AssertUnwindSafe(|| read_and_encode(&path)));
                match outcome {
                    Err(_) => panics.push(format!("{format} byte {at} ^ {flip:#04x}")),
                    Ok(Err(error)) => {
                        errors += 1;
                        if error.contains("is a corrupt Arrow IPC input (the reader failed:") && reader_panic.is_none()
                        {
                            reader_panic = Some(corrupt);
                        }
                    }
                    Ok(Ok(_)) => decoded += 1,
                }
            }
        }
    }
    assert!(panics.is_empty(), "{} inputs panicked: {panics:?}", panics.len());
    assert!(errors > 0 && decoded > 0, "{errors} errors, {decoded} decoded");

    // The same through the CLI: exit code 1 and a clear last line. (The default panic hook
    // still prints arrow's assertion above it.)
    let input = reader_panic.expect("arrow 60's IPC reader asserts on some flipped bytes");
    let (code, stderr, values) = cli_encode(&dir, ID_NAME, &input);
    let last = stderr.lines().last().unwrap_or_default();
    assert_eq!(code, Some(1), "{stderr}");
    assert!(last.starts_with("kjson: error: input.arrow is a corrupt Arrow IPC input"), "{stderr}");
    assert!(values.is_none());
}

fn read_and_encode(path: &Path) -> Result<usize, String> {
    let mut encoder = encoder(ID_NAME);
    let mut rows = 0;
    for batch in kjson_cli::input::read_batches(path)? {
        let slabs = encoder.encode(&batch?, None).map_err(|e| e.to_string())?;
        rows += slabs.num_rows();
    }
    Ok(rows)
}
