//! `kjson encode` / `kjson inspect` behaviour as a user sees it: files, exit codes, messages.
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Int32Array, Int64Array, Int8Array, RecordBatch, StringArray, StructArray};
use arrow_ipc::writer::{FileWriter, StreamWriter};
use arrow_schema::{DataType, Field, Fields, Schema};

mod support;
use support::kjson_command as kjson;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kjson-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const UPSERT_DDL: &str = "CREATE TABLE t (\n  id BIGINT,\n  name STRING,\n  PRIMARY KEY (id) NOT ENFORCED\n) WITH (\n  'connector' = 'upsert-kafka',\n  'topic' = 't',\n  'properties.bootstrap.servers' = 'localhost:9092',\n  'key.format' = 'json',\n  'value.format' = 'json'\n)";

fn upsert_batch() -> RecordBatch {
    let schema = Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::Utf8, true),
        Field::new("__row_kind", DataType::Int8, false),
    ]);
    let columns: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from(vec![1, 2, 3, 4])),
        Arc::new(StringArray::from(vec![Some("a"), None, Some("c\"d"), Some("e")])),
        Arc::new(Int8Array::from(vec![0, 1, 2, 3])),
    ];
    RecordBatch::try_new(Arc::new(schema), columns).unwrap()
}

fn write_file(path: &Path, batches: &[RecordBatch]) {
    let file = std::fs::File::create(path).unwrap();
    let mut writer = FileWriter::try_new(file, &batches[0].schema()).unwrap();
    for b in batches {
        writer.write(b).unwrap();
    }
    writer.finish().unwrap();
}

fn write_stream(path: &Path, batches: &[RecordBatch]) {
    let file = std::fs::File::create(path).unwrap();
    let mut writer = StreamWriter::try_new(file, &batches[0].schema()).unwrap();
    for b in batches {
        writer.write(b).unwrap();
    }
    writer.finish().unwrap();
}

fn run_encode(dir: &Path, ddl: &str, input: &Path, extra: &[&str]) -> std::process::Output {
    let ddl_path = dir.join("sink.sql");
    std::fs::write(&ddl_path, ddl).unwrap();
    kjson()
        .arg("encode")
        .arg("--ddl")
        .arg(&ddl_path)
        .arg("--input")
        .arg(input)
        .arg("--keys-out")
        .arg(dir.join("keys"))
        .arg("--values-out")
        .arg(dir.join("values"))
        .args(extra)
        .output()
        .unwrap()
}

fn read(path: PathBuf) -> String {
    String::from_utf8(std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn encode_writes_one_line_per_row_with_tombstones_from_file_and_stream() {
    for (name, write) in [("file", write_file as fn(&Path, &[RecordBatch])), ("stream", write_stream)] {
        let dir = temp_dir(&format!("upsert-{name}"));
        let input = dir.join("in.arrow");
        write(&input, &[upsert_batch(), upsert_batch()]);
        let out = run_encode(&dir, UPSERT_DDL, &input, &["--row-kind-column", "__row_kind"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let keys = "{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n{\"id\":4}\n";
        assert_eq!(read(dir.join("keys")), keys.repeat(2));
        let values = "{\"id\":1,\"name\":\"a\"}\n\n{\"id\":3,\"name\":\"c\\\"d\"}\n\n";
        assert_eq!(read(dir.join("values")), values.repeat(2));
    }
}

#[test]
fn a_failed_encode_exits_non_zero_and_leaves_no_output() {
    let dir = temp_dir("fail");
    let input = dir.join("in.arrow");
    write_file(&input, &[upsert_batch()]);
    // Without --row-kind-column the batch has one column too many.
    let out = run_encode(&dir, UPSERT_DDL, &input, &[]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("physical columns"), "{stderr}");
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 2, "only the DDL and the input remain: {leftovers:?}");
}

#[test]
fn a_bad_ddl_names_file_line_and_column() {
    let dir = temp_dir("bad-ddl");
    let input = dir.join("in.arrow");
    write_file(&input, &[upsert_batch()]);
    let ddl = UPSERT_DDL.replace("name STRING", "name STRNG");
    let out = run_encode(&dir, &ddl, &input, &["--row-kind-column", "__row_kind"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("sink.sql:3:8"), "{stderr}");
}

#[test]
fn a_missing_row_kind_column_is_named() {
    let dir = temp_dir("no-kind");
    let input = dir.join("in.arrow");
    write_file(&input, &[upsert_batch()]);
    let out = run_encode(&dir, UPSERT_DDL, &input, &["--row-kind-column", "kind"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no column named `kind`"));
}

/// A map with a null key, as arrow-java and Flink-side writers carry it: an Arrow Map whose key
/// field is nullable. arrow-rs refuses to build or read that type checked, so the test builds it
/// unchecked and the CLI must read, relabel and validate it.
#[test]
fn a_map_with_a_nullable_key_field_carries_null_keys() {
    let dir = temp_dir("null-key");
    let fields =
        Fields::from(vec![Field::new("key", DataType::Utf8, true), Field::new("value", DataType::Int32, true)]);
    let keys = StringArray::from(vec![None, Some("k")]);
    let values = Int32Array::from(vec![1, 2]);
    let entries = StructArray::new(fields.clone(), vec![Arc::new(keys), Arc::new(values)], None);
    let entry_field = Arc::new(Field::new("entries", DataType::Struct(fields), false));
    let map_type = DataType::Map(entry_field, false);
    let offsets = arrow_buffer::Buffer::from_slice_ref([0i32, 2]);
    // SAFETY: a test fixture; the only invalid part is the nullable key field under test.
    let data = unsafe {
        arrow_data::ArrayData::builder(map_type.clone())
            .len(1)
            .add_buffer(offsets)
            .add_child_data(entries.into_data())
            .build_unchecked()
    };
    let map = arrow_array::make_array(data);
    let schema = Schema::new(vec![Field::new("m", map_type, true)]);
    let batch = RecordBatch::try_new_with_options(Arc::new(schema), vec![map], &Default::default()).unwrap();
    let input = dir.join("in.arrow");
    write_file(&input, &[batch]);
    let ddl = "CREATE TABLE t (m MAP<STRING, INT>) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'x:1', 'format' = 'json', 'json.map-null-key.mode' = 'LITERAL', 'json.map-null-key.literal' = 'nul\"l')";
    let out = run_encode(&dir, ddl, &input, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(read(dir.join("values")), "{\"m\":{\"nul\\\"l\":1,\"k\":2}}\n");
    assert_eq!(read(dir.join("keys")), "\n");
}

#[test]
fn inspect_prints_projections_and_ltz_marks() {
    let dir = temp_dir("inspect");
    let ddl = dir.join("sink.sql");
    std::fs::write(&ddl, "CREATE TABLE t (a ROW<t TIMESTAMP_LTZ(3)>, b ARRAY<TIMESTAMP(3) WITH LOCAL TIME ZONE>) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'x:1', 'format' = 'json')").unwrap();
    let out = kjson().arg("inspect").arg("--ddl").arg(&ddl).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("a.t"), "{stdout}");
    assert!(stdout.contains("b[]"), "{stdout}");
    assert!(stdout.contains("encoder: dynamic"), "{stdout}");
}

#[test]
fn inspect_prints_the_decoded_batch_and_read_options() {
    let dir = temp_dir("inspect-decoder");
    let ddl = dir.join("source.sql");
    std::fs::write(&ddl, "CREATE TABLE t (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'x:1', 'key.format' = 'json', 'key.fields' = 'id', 'value.format' = 'canal-json', 'value.canal-json.ignore-parse-errors' = 'true', 'value.canal-json.table.include' = 'orders')").unwrap();
    let out = kjson().arg("inspect").arg("--ddl").arg(&ddl).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let decoder = stdout.split_once("decoder: ").map(|(_, rest)| rest).unwrap_or_else(|| panic!("{stdout}"));
    for line in ["  id: Int64\n", "  v: Utf8\n", "  __row_kind: Int8 not null\n", "  __record: Int32 not null\n"] {
        assert!(decoder.contains(line), "{line:?} in {decoder}");
    }
    assert!(decoder.contains("read options of the key: format json, fail-on-missing-field=false"), "{decoder}");
    assert!(
        decoder.contains("read options of the value: format canal-json, fail-on-missing-field=false, ignore-parse-errors=true, timestamp-format.standard=SQL, database.include=(any), table.include=orders"),
        "{decoder}"
    );
}

/// The repository root, where `schemas/` and the golden files live.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

#[test]
fn kjson_codegen_prints_the_golden_source() {
    let out = kjson()
        .args(["codegen", "--ddl"])
        .arg(repo_root().join("schemas/q0.sql"))
        .current_dir(repo_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let golden = std::fs::read_to_string(repo_root().join("tests/golden/q0.rs")).unwrap();
    // Only the header's file name differs (absolute path here).
    let body = |s: &str| s.split_once('\n').map(|(_, rest)| rest.to_string()).unwrap_or_default();
    assert_eq!(body(&stdout), body(&golden));
    assert!(stdout.lines().next().unwrap().contains(&Path::new("schemas").join("q0.sql").display().to_string()));
}

/// With stderr not a terminal (a pipe here), long work shows no progress line: with a redraw
/// due at every update, stderr holds nothing but what it held before.
#[test]
fn no_progress_line_when_stderr_is_not_a_terminal() {
    let out = kjson().args(["nexmark", "--rows", "200000"]).env("KJSON_PROGRESS_REDRAW_MS", "0").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains("rows/s") && !stderr.contains('\r'), "{stderr:?}");
    assert!(String::from_utf8(out.stdout).unwrap().contains("nexmark q0: 200000 rows"));
}

/// kjson's own connectors (issue 11): the DDL written for `kjson-upsert-kafka`, `kjson.*`
/// options included, inspects, encodes and generates exactly as the same DDL with `upsert-kafka`.
#[test]
fn kjson_connector_ddls_work_as_the_stock_ones() {
    let kjson_ddl = UPSERT_DDL.replace("'upsert-kafka'", "'kjson-upsert-kafka'").replace(
        "'topic' = 't',",
        "'topic' = 't',\n  'kjson.batch-rows' = '1024',\n  'kjson.batch-interval' = '200 ms',\n  \
         'kjson.arrow-memory-limit' = '64 mb',",
    );
    let mut outputs = Vec::new();
    for (name, ddl) in [("stock", UPSERT_DDL.to_string()), ("kjson", kjson_ddl)] {
        let dir = temp_dir(&format!("connector-{name}"));
        let input = dir.join("in.arrow");
        write_file(&input, &[upsert_batch()]);
        let out = run_encode(&dir, &ddl, &input, &["--row-kind-column", "__row_kind"]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let ddl_path = dir.join("sink.sql");
        let inspect = kjson().arg("inspect").arg("--ddl").arg(&ddl_path).output().unwrap();
        assert!(inspect.status.success(), "{name}: {}", String::from_utf8_lossy(&inspect.stderr));
        let codegen = kjson().arg("codegen").arg("--ddl").arg(&ddl_path).output().unwrap();
        assert!(codegen.status.success(), "{name}: {}", String::from_utf8_lossy(&codegen.stderr));
        let code = String::from_utf8(codegen.stdout).unwrap().replace(&ddl_path.display().to_string(), "sink.sql");
        let keys = std::fs::read(dir.join("keys")).unwrap();
        let values = std::fs::read(dir.join("values")).unwrap();
        outputs.push((keys, values, String::from_utf8(inspect.stdout).unwrap(), code));
    }
    let (stock, kjson) = (&outputs[0], &outputs[1]);
    assert_eq!(kjson.0, stock.0, "keys");
    assert_eq!(kjson.1, stock.1, "values");
    assert_eq!(read_lines(&stock.1), ["{\"id\":1,\"name\":\"a\"}", "", "{\"id\":3,\"name\":\"c\\\"d\"}", ""]);
    // inspect names the connector as written, and otherwise prints the stock sink's spec.
    assert!(stock.2.contains("\nconnector: upsert-kafka (upsert: true)\n"), "{}", stock.2);
    let written = "\nconnector: kjson-upsert-kafka (the records of upsert-kafka, upsert: true)\n";
    assert!(kjson.2.contains(written), "{}", kjson.2);
    assert_eq!(kjson.2.replace(written, "\nconnector: upsert-kafka (upsert: true)\n"), stock.2, "inspect");
    assert_eq!(kjson.3, stock.3, "codegen");
}

/// A bad `kjson.*` value or an unknown `kjson.*` key fails with a message naming it.
#[test]
fn kjson_connector_options_are_checked_by_the_tools() {
    let dir = temp_dir("connector-bad");
    let ddl_path = dir.join("sink.sql");
    let kjson_ddl = UPSERT_DDL.replace("'upsert-kafka'", "'kjson-upsert-kafka'");
    for (option, expected) in [
        ("'kjson.batch-interval' = 'soon'", "Option 'kjson.batch-interval' of 'kjson-upsert-kafka' must be"),
        ("'kjson.batch-size' = '10'", "Unsupported options found for 'kjson-upsert-kafka'."),
    ] {
        std::fs::write(&ddl_path, kjson_ddl.replace("'topic' = 't',", &format!("'topic' = 't', {option},"))).unwrap();
        let out = kjson().arg("inspect").arg("--ddl").arg(&ddl_path).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{option}");
        assert!(stderr.contains(expected), "{stderr}");
        assert!(stderr.contains("sink.sql:7:"), "the position of the option: {stderr}");
    }
}

fn read_lines(bytes: &[u8]) -> Vec<&str> {
    std::str::from_utf8(bytes).unwrap().lines().collect()
}

#[test]
fn kjson_codegen_decoder_prints_the_golden_decoder() {
    // A changelog envelope with a MAP: no side the one-pass reader reads.
    let dir = temp_dir("codegen-decoder");
    let dynamic = dir.join("map_changelog.sql");
    std::fs::write(
        &dynamic,
        "CREATE TABLE t (id BIGINT, tags MAP<STRING, INT>) WITH ('connector' = 'kafka', 'topic' = 't', \
         'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'debezium-json')",
    )
    .unwrap();
    let cases = [
        (repo_root().join("schemas/q0.sql"), Some("tests/golden/decode/q0.rs")),
        (repo_root().join("schemas/q9_debezium.sql"), Some("tests/golden/decode/q9_debezium.rs")),
        (dynamic, None),
    ];
    for (ddl, expected) in cases {
        let out = kjson().args(["codegen", "--decoder", "--ddl"]).arg(&ddl).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8(out.stdout).unwrap();
        match expected {
            Some(golden) => {
                // The build's decoders share their rows (tests/golden/decode/rows.rs); the printed
                // one holds its own: the same constants, and each row as the shared file has it.
                let golden = std::fs::read_to_string(repo_root().join(golden)).unwrap();
                let rows = std::fs::read_to_string(repo_root().join("tests/golden/decode/rows.rs")).unwrap();
                for line in golden.lines().filter(|l| l.contains("const FINGERPRINT") || l.contains("const CANONICAL"))
                {
                    assert!(stdout.contains(line), "{stdout}");
                }
                let printed_rows: Vec<&str> =
                    stdout.split("\n/// ").filter(|item| item.starts_with("The row of")).collect();
                assert!(!printed_rows.is_empty(), "{stdout}");
                for row in printed_rows {
                    // Named after the printed table; the shared row after the first table of its layout.
                    let body: Vec<&str> = row.trim_end().lines().skip(3).collect();
                    assert!(rows.contains(&body.join("\n")), "{row}");
                }
            }
            None => assert!(stdout.contains("no generated decoder"), "{stdout}"),
        }
    }
}

#[test]
fn inspect_names_the_generated_decoder() {
    let out = kjson().arg("inspect").arg("--ddl").arg(repo_root().join("schemas/q0.sql")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("decoder: generated NexmarkQ0Decoder for the value side"), "{stdout}");
    let out = kjson().arg("inspect").arg("--ddl").arg(repo_root().join("schemas/q9_debezium.sql")).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("decoder: generated NexmarkQ9DebeziumDecoder for the key and value sides"), "{stdout}");
}
