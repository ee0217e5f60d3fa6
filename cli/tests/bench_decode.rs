//! `kjson bench --decode` as a user runs it: the report's shape only (contenders named, numbers
//! present, arrow-json not comparable on the CDC sink, or that sink not decoded yet); and the
//! `--profile` loop that callgrind counts run. No timed assertions: the numbers are the
//! machine's, not the code's.
mod support;
use support::kjson_command as kjson;

const CONTENDERS: [&str; 6] = [
    "kjson decoder (dynamic)",
    "kjson decoder (generated)",
    "arrow-json Decoder",
    "serde_json::Value",
    "sonic_rs::Value",
    "memcpy of the records",
];

/// The numbers after a contender's name on its line in a sink's table.
fn numbers_after(line: &str, name: &str) -> Vec<f64> {
    line[name.len()..].split_whitespace().filter_map(|w| w.trim_end_matches('%').parse::<f64>().ok()).collect()
}

#[test]
fn decode_bench_reports_every_contender_on_every_sink() {
    let output = kjson().args(["bench", "--decode", "--rows", "200", "--rounds", "1"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("the generated one where this build has one for the sink"), "{stdout}");
    let cdc_not_decoded = stdout.contains("q9-debezium: not decoded yet");
    let sinks = ["q0", "q9", "q19", "q9-debezium", "sensor", "ledger", "nested", "wide"];
    for sink in sinks.into_iter().filter(|&s| !(cdc_not_decoded && s == "q9-debezium")) {
        let table: Vec<&str> = stdout
            .split("\n\n")
            .map(str::trim_start)
            .find(|block| block.starts_with(&format!("{sink}: 200 records")))
            .unwrap_or_else(|| panic!("no table for {sink}:\n{stdout}"))
            .lines()
            .collect();
        let cdc = sink == "q9-debezium";
        let arrow_line = if cdc { "not comparable" } else { "columns equal kjson's" };
        assert!(table.iter().any(|l| l.contains(arrow_line)), "{sink}: {table:?}");
        // The CDC sink has neither arrow-json nor a generated decoder.
        let absent = |n: &str| cdc && (n == "arrow-json Decoder" || n == "kjson decoder (generated)");
        for name in CONTENDERS.into_iter().filter(|&n| !absent(n)) {
            let line = table.iter().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{sink}: no {name}"));
            // M rec/s, spread, MB/s, bytes, x arrow, x kjson, memcpy/x.
            let numbers = numbers_after(line, name);
            // On the CDC sink arrow-json's ratio is a `-`.
            assert_eq!(numbers.len(), if cdc { 6 } else { 7 }, "{sink}: {line}");
            assert!(numbers[0] > 0.0 && numbers[3] > 0.0, "{sink}: {line}");
        }
    }
    let summary = stdout.split("decode summary").nth(1).unwrap_or_else(|| panic!("no summary:\n{stdout}"));
    assert!(summary.contains("kjson/arrow") && summary.contains("memcpy/kjson"), "{summary}");
    assert!(summary.lines().any(|l| l.starts_with("q9-debezium")), "{summary}");
    let q0 = summary.lines().find(|l| l.starts_with("q0 ")).unwrap_or_else(|| panic!("{summary}"));
    assert!(summary.contains("gen/arrow") && summary.contains("kjson/gen"), "{summary}");
    assert_eq!(numbers_after(q0, "q0").len(), 10, "{q0}");
    assert!(!stdout.contains("inf") && !stdout.contains("NaN"), "{stdout}");
}

#[test]
fn profile_runs_each_encoder_and_arrow_json_alone() {
    for encoder in ["generated", "dynamic", "arrow-json"] {
        let output =
            kjson().args(["bench", "--query", "q0", "--rows", "100", "--profile", encoder, "2"]).output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{encoder}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        assert!(stdout.contains(&format!("q0 {encoder}: median of 2: ")), "{stdout}");
    }
    let output = kjson().args(["bench", "--query", "q0", "--rows", "100", "--profile", "serde", "1"]).output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown encoder 'serde'; expected generated, dynamic or arrow-json"), "{stderr}");
}
