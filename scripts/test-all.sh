#!/usr/bin/env bash
# Every test of the project: Rust unit/integration tests, float spelling against the real JDKs,
# byte parity against the real Flink jars, the JVM (JNI) tests, the Flink SQL connectors on a
# real Kafka broker, then hardening: unsafe modules under AddressSanitizer and bounded fuzzing.
#   scripts/test-all.sh            (a fresh random seed for each randomized stage, printed)
#   KJSON_PARITY_SEED=N            the byte parity stages' seed (x86-64 and ARM64 share it)
#   KJSON_FUZZ_SECONDS=N           seconds per fuzz target (default 20)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
# shellcheck source=lib/common.sh
source scripts/lib/common.sh   # step, cargo_release_build, JDK25_JAVA

passed=0
failed=0
failures=()
# Every stage's output is also kept here, so the end of the run can say what failed (CI shows
# only the end of a long log).
stage_logs="$(mktemp -d "${TMPDIR:-/tmp}/kjson-stages.XXXXXX")"
# stage NAME COMMAND...: one step (timed, see common.sh); a failed stage is counted, the run goes on.
stage() {
  local status
  echo
  step "$@" 2>&1 | tee "$stage_logs/$1.log"
  status=${PIPESTATUS[0]}
  if (( status == 0 )); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$1")
    keep_failed_test_reports "$1"
  fi
}
# keep_failed_test_reports NAME: the reports of the JVM test classes that failed in this stage
# (surefire's; the quiet Maven output leaves their text out, and a later stage may rerun a class).
keep_failed_test_reports() {
  local report
  grep -l -E 'FAILURE!|ERROR!' jvm/*/target/surefire-reports/*.txt \
    jvm/flink-1.20/*/target/surefire-reports/*.txt 2>/dev/null |
    while read -r report; do
      mkdir -p "$stage_logs/$1.reports"
      cp "$report" "$stage_logs/$1.reports/"
    done
}

# stage_in_background NAME COMMAND...: a stage that runs beside the next ones, where one side
# leaves CPU idle (the cluster test's jobs produce at a fixed rate; Flink tests wait on brokers
# and checkpoints; a build waits on its longest crate); its output goes to a log that is shown,
# and its result counted, at stage_join.
background_pids=()
background_names=()
background_logs=()
stage_in_background() {
  local log
  log="$(mktemp "${TMPDIR:-/tmp}/kjson-stage-$1.XXXXXX")"
  echo
  echo "=== $1: started in the background (output in $log, shown when it ends)"
  step "$@" >"$log" 2>&1 &
  background_pids+=($!)
  background_names+=("$1")
  background_logs+=("$log")
}
# stage_join [NAME...]: waits for the named background stages (all of them without a name), in
# the order they started.
stage_join() {
  local i status
  local kept_pids=() kept_names=() kept_logs=()
  for i in "${!background_pids[@]}"; do
    if (( $# > 0 )) && [[ " $* " != *" ${background_names[$i]} "* ]]; then
      kept_pids+=("${background_pids[$i]}")
      kept_names+=("${background_names[$i]}")
      kept_logs+=("${background_logs[$i]}")
      continue
    fi
    status=0
    wait "${background_pids[$i]}" || status=$?
    echo
    cat "${background_logs[$i]}"
    mv "${background_logs[$i]}" "$stage_logs/${background_names[$i]}.log"
    if (( status == 0 )); then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      failures+=("${background_names[$i]}")
    fi
  done
  background_pids=("${kept_pids[@]}")
  background_names=("${kept_names[@]}")
  background_logs=("${kept_logs[@]}")
}

# Release profile throughout: the parity harness and benches need it. Every later Rust build
# resolves features as the tests do (cargo_release_build, common.sh), so Arrow is compiled once.
rust_tests() {
  # shellcheck disable=SC2119  # no extra cargo arguments
  cargo test --release --workspace && cargo_release_build
}
stage lint scripts/lint.sh
stage rust-tests rust_tests
stage float-parity scripts/float-parity.sh
# The oracle's output is kept for the ARM64 stage, which judges its CLI against the same bytes.
parity_seed="${KJSON_PARITY_SEED:-$(( $(od -An -N6 -tu8 /dev/urandom | tr -d ' ') % 1000000000000 ))}"
parity_out="$(mktemp -d "${TMPDIR:-/tmp}/kjson-parity-ci.XXXXXX")"
stage flink-parity scripts/parity.sh --seed "$parity_seed" --out "$parity_out"
# The read side: Flink's deserializers judge kjson decode (a fixed seed: see tests/parity/README.md).
stage decode-parity scripts/decode-parity.sh --seed "${KJSON_DECODE_SEED:-10}" --records 500
# ARM64 (a cross build, then tests under qemu) at a low priority beside the JVM stages, whose
# Flink and Kafka tests leave a core idle much of the time; it judges its CLI against the bytes
# the flink-parity stage's oracle wrote. No stage beside it runs cargo (the build directory lock).
# --quick: the tests where the architecture shows (the script's header); the rest is the same code
# as on x86-64 and costs the JVM stages a core while it compiles.
stage_in_background arm64 scripts/arm64-test.sh --quick --seed "$parity_seed" --out "$parity_out" --reuse-oracle
# The fuzz targets' instrumented build (run by the fuzz stage at the end) takes the CPU the JVM
# stages leave once the ARM64 stage is done with it, at the same low priority.
fuzz_build_after() {
  while kill -0 "$1" 2>/dev/null; do sleep 5; done
  nice scripts/fuzz.sh --build-only
}
stage_in_background fuzz-build fuzz_build_after "${background_pids[0]}"
# Flink 2.2: the Java API (JNI, parity) and the SQL connectors, exactly-once on a KRaft broker.
# (The native library is the one the rust-tests stage built.)
stage jvm-flink-2.2 mvn -q -f jvm/pom.xml -pl kjson-flink,kjson-flink-sql -am verify -Dkjson.cargo.skip=true
# JDK 25: the RowData paths (reproductions, differential test, parity) again on the newer JDK,
# whose Double.toString is the JDK 19+ spelling, against Flink 2.2's and Flink 1.20's serializers.
# The differential test at 300 random schemas a seed, not 800: the two JDK 17 stages run the full
# count, and what this stage adds is the spelling.
jvm_jdk25() {
  mvn -q -f jvm/pom.xml -pl kjson-flink,flink-1.20/kjson-flink -am verify -Dkjson.cargo.skip=true -Djvm="$JDK25_JAVA" \
    -Dkjson.diff.schemas=300 \
    -Dtest='RowDataDifferentialTest,TimestampCarriageTest,StringCarriageTest,OutOfContractValuesTest,ParityTest' \
    -Dsurefire.failIfNoSpecifiedTests=false
}
stage jvm-jdk25 jvm_jdk25
# Flink 1.20: the same sources and tests against Flink 1.20 and its Kafka connector.
stage jvm-flink-1.20 mvn -q -f jvm/pom.xml -pl flink-1.20/kjson-flink,flink-1.20/kjson-flink-sql -am verify \
  -Dkjson.cargo.skip=true
stage_join arm64
# A standalone Flink 2.2 cluster (JobManager, two TaskManagers, a KRaft broker): a TaskManager
# killed mid-job, the savepoint switch kafka -> kjson-kafka -> kafka, and a Kafka -> Kafka copy on
# kjson-kafka (source and sink) with a TaskManager killed mid-topic (docs/operations-cluster.md).
# It takes the connector jar the jvm-flink-2.2 stage packaged (or builds one when there is none).
cluster_quick() {
  local jars
  jars="$(compgen -G "jvm/kjson-flink-sql/target/kjson-flink-sql-connector-kafka-*-2.2.jar" || true)"
  KJSON_CLUSTER_JAR="$(head -n 1 <<< "$jars")" scripts/cluster-test.sh --quick
}
# The stages beside it run at a lower priority, so the cluster's JVMs get the CPU they ask for.
stage_in_background cluster-quick cluster_quick
stage c-abi nice scripts/capi-test.sh --skip-rust-tests
stage package-check nice scripts/package-check.sh
stage sanitizer nice scripts/sanitize.sh
stage_join
stage fuzz scripts/fuzz.sh "${KJSON_FUZZ_SECONDS:-20}"

# failure_digest: per failed stage, the lines that say what failed, and the reports of its failed
# JVM test classes.
failure_digest() {
  local name report
  for name in "${failures[@]}"; do
    echo
    echo "--- what failed in $name (whole output: $stage_logs/$name.log)"
    grep -E -m 60 'FAIL|\[ERROR\]|panicked|error(\[E[0-9]+\])?:|Tests run:.*(Failures|Errors): [1-9]|mismatch|differ' \
      "$stage_logs/$name.log" | cut -c1-400
    for report in "$stage_logs/$name.reports"/*.txt; do
      [[ -f "$report" ]] || continue
      echo "--- $name: $(basename "$report")"
      head -n 60 "$report" | cut -c1-400
    done
  done
}

echo
if (( failed > 0 )); then
  failure_digest
  echo
  echo "failed stages: ${failures[*]} (the parity oracle's output is kept in $parity_out)"
else
  rm -rf "$parity_out" "$stage_logs"
fi
echo "test-all: ${passed} passed, ${failed} failed"
(( failed == 0 ))
