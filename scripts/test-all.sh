#!/usr/bin/env bash
# Every test of the project: Rust unit/integration tests, float spelling against the real JDKs,
# byte parity against the real Flink jars, the JVM (JNI) tests, the Flink SQL connectors on a
# real Kafka broker, then hardening: unsafe modules under AddressSanitizer and bounded fuzzing.
#   scripts/test-all.sh            (a fresh random seed for each randomized stage, printed)
#   KJSON_FUZZ_SECONDS=N           seconds per fuzz target (default 20)
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
# shellcheck source=lib/common.sh
source scripts/lib/common.sh   # step, JDK25_JAVA

passed=0
failed=0
failures=()
# stage NAME COMMAND...: one step (timed, see common.sh); a failed stage is counted, the run goes on.
stage() {
  echo
  if step "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$1")
  fi
}

# Release profile throughout: the parity harness and benches need it, and it compiles Arrow once.
stage lint scripts/lint.sh
stage rust-tests cargo test --release --workspace
stage float-parity scripts/float-parity.sh
stage flink-parity scripts/parity.sh
# The read side: Flink's deserializers judge kjson decode (a fixed seed: see tests/parity/README.md).
stage decode-parity scripts/decode-parity.sh --seed "${KJSON_DECODE_SEED:-10}" --records 500
# Flink 2.2: the Java API (JNI, parity) and the SQL connectors, exactly-once on a KRaft broker.
stage jvm-flink-2.2 mvn -q -f jvm/pom.xml -pl kjson-flink,kjson-flink-sql -am verify
# JDK 25: the RowData paths (reproductions, differential test, parity) again on the newer JDK,
# whose Double.toString is the JDK 19+ spelling, against Flink 2.2's and Flink 1.20's serializers.
jvm_jdk25() {
  mvn -q -f jvm/pom.xml -pl kjson-flink,flink-1.20/kjson-flink -am verify -Dkjson.cargo.skip=true -Djvm="$JDK25_JAVA" \
    -Dtest='RowDataDifferentialTest,TimestampCarriageTest,StringCarriageTest,OutOfContractValuesTest,ParityTest' \
    -Dsurefire.failIfNoSpecifiedTests=false
}
stage jvm-jdk25 jvm_jdk25
# Flink 1.20: the same sources and tests against Flink 1.20 and its Kafka connector.
stage jvm-flink-1.20 mvn -q -f jvm/pom.xml -pl flink-1.20/kjson-flink,flink-1.20/kjson-flink-sql -am verify \
  -Dkjson.cargo.skip=true
# A standalone Flink 2.2 cluster (JobManager, two TaskManagers, a KRaft broker): a TaskManager
# killed mid-job, then the savepoint switch kafka -> kjson-kafka -> kafka (docs/operations-cluster.md).
# It takes the connector jar the jvm-flink-2.2 stage packaged (or builds one when there is none).
cluster_quick() {
  local jars
  jars="$(compgen -G "jvm/kjson-flink-sql/target/kjson-flink-sql-connector-kafka-*-2.2.jar" || true)"
  KJSON_CLUSTER_JAR="$(head -n 1 <<< "$jars")" scripts/cluster-test.sh --quick
}
stage cluster-quick cluster_quick
stage c-abi scripts/capi-test.sh
stage package-check scripts/package-check.sh
stage arm64 scripts/arm64-test.sh
stage sanitizer scripts/sanitize.sh
stage fuzz scripts/fuzz.sh "${KJSON_FUZZ_SECONDS:-20}"

echo
if (( failed > 0 )); then
  echo "failed stages: ${failures[*]}"
fi
echo "test-all: ${passed} passed, ${failed} failed"
(( failed == 0 ))
