#!/usr/bin/env bash
# End-to-end Flink SQL benchmark on a real Kafka broker (KRaft, a child JVM on 127.0.0.1):
# Nexmark q0 (append) and q19 (upsert, top-10 bids per auction), each run once into the stock
# connector (kafka / upsert-kafka + json) and once into kjson-kafka / kjson-upsert-kafka, with the
# same source, parallelism, checkpoint interval, exactly-once and producer settings
# (schemas/q0.sql, schemas/q19.sql: batch.size 512 KiB, linger.ms 20). Prints rows/s, the ratio,
# whether both runs wrote the same records, and a JFR profile of the sink task thread.
#   scripts/e2e-bench.sh [q0 rows] [q19 rows] [parallelism] [passes]
# Defaults: 3000000 1000000 1 3. Release native build only. BENCH_OPTS adds JVM options, e.g.
# BENCH_OPTS='-Dbench.producer=default' (Kafka's 16 KiB batches) or '-Dbench.object-reuse=true'.
# BENCH_OPTS='-Dbench.input=kafka' reads the bids from a json input topic instead (written once by
# the stock sink) with three jobs per query: kafka -> stock sink, kjson-kafka -> stock sink and
# kjson on both sides, ratios against the first; '-Dbench.input=both' runs both sets.
# KJSON_NATIVE_LIB=/path/to/libkjson.so uses that release build instead of building this tree's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
q0_rows=${1:-3000000}
q19_rows=${2:-1000000}
parallelism=${3:-1}
passes=${4:-3}
native_lib=${KJSON_NATIVE_LIB:-}
if [[ -z "$native_lib" ]]; then
    cargo build --release -p kjson-jni
    native_lib="$root/target/release/libkjson.so"
fi
classpath_file=$(mktemp)
trap 'rm -f "$classpath_file"' EXIT
# One reactor run: each module writes its test classpath to the file, kjson-flink-sql last
# (kjson-flink resolves to its target/classes); kjson-test-broker writes the broker's classpath.
# The shared line parents stay out of the reactor: their own dependencies default to versions
# only the line modules correct (the 2.2 line's own flink-csv is not on Maven Central).
mvn -B -q -f jvm/pom.xml -pl 'kjson-flink-sql,!line-parent/kjson-flink-sql,!line-parent/kjson-flink' -am \
    test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$classpath_file" -Dkjson.cargo.skip=true
module=jvm/kjson-flink-sql/target
out="$module/e2e-bench"
mkdir -p "$out"
# shellcheck disable=SC2086  # BENCH_OPTS is a list of JVM flags, split on purpose
exec java -Xms3g -Xmx3g -XX:+UseG1GC \
    --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
    --add-opens=java.base/java.lang=ALL-UNNAMED \
    -Dkjson.native.path="$native_lib" -Dkjson.schemas="$root/schemas" \
    -Dkjson.test.broker.classpath.file="$root/jvm/kjson-test-broker/target/broker-classpath.txt" \
    -Dbench.q0.rows="$q0_rows" -Dbench.q19.rows="$q19_rows" -Dbench.parallelism="$parallelism" \
    -Dbench.passes="$passes" -Dbench.out="$out" ${BENCH_OPTS:-} \
    -cp "$module/test-classes:$module/classes:$(cat "$classpath_file")" \
    org.kjson.flink.sql.bench.EndToEndBenchmark
