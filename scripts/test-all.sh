#!/usr/bin/env bash
# Every test of the project: Rust unit/integration tests, float spelling against the real JDKs,
# byte parity against the real Flink jars, the JVM (JNI) tests, the Flink SQL connectors on a
# real Kafka broker, then hardening: unsafe modules under AddressSanitizer and bounded fuzzing.
#   scripts/test-all.sh            (a fresh random seed for each randomized stage, printed)
#   KJSON_FUZZ_SECONDS=N           seconds per fuzz target (default 20)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

passed=0
failed=0
failures=()
stage() {
  local name="$1"; shift
  local started=$(date +%s)
  echo
  echo "=== ${name}: $*"
  if "$@"; then
    passed=$((passed + 1))
    echo "=== ${name}: OK in $(( $(date +%s) - started )) s"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "=== ${name}: FAILED in $(( $(date +%s) - started )) s"
  fi
}

# Release profile throughout: the parity harness and benches need it, and it compiles Arrow once.
stage rust-tests cargo test --release --workspace
stage float-parity scripts/float-parity.sh
stage flink-parity scripts/parity.sh
stage jvm-tests mvn -q -f jvm/pom.xml -pl kjson-flink -am verify
stage flink-sql-kafka-tests mvn -q -f jvm/pom.xml -pl kjson-flink-sql -am verify
stage sanitizer scripts/sanitize.sh
stage fuzz scripts/fuzz.sh "${KJSON_FUZZ_SECONDS:-20}"

echo
if (( failed > 0 )); then
  echo "failed stages: ${failures[*]}"
fi
echo "test-all: ${passed} passed, ${failed} failed"
(( failed == 0 ))
