#!/usr/bin/env bash
# JVM benchmark of the Flink integration on Nexmark q0 and q19 rows: stock per-record
# JsonRowDataSerializationSchema (through the Kafka table sink's serializer) against the native
# encoder (a) from ready Arrow batches and (b) from RowData including the batching.
# --decode (first argument) runs the read side instead: Flink's Kafka source deserializer of the
# table against the native decoder (to Arrow, to GenericRowData, and to BinaryRowData), on Nexmark
# bids as json and as changelogs of the four CDC formats.
# Release native build only. Other arguments pass through: [rows] [batch rows] [passes].
# KJSON_BENCH_CLOCK=cpu times with the thread's CPU clock (for machines shared with other jobs).
# KJSON_NATIVE_LIB=/path/to/libkjson.so uses that release build instead of building this tree's.
# BENCH_OPTS adds JVM options, e.g. BENCH_OPTS='-XX:StartFlightRecording=filename=jvm.jfr,settings=profile'.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
main=org.kjson.flink.bench.EncodeBenchmark
if [[ "${1:-}" == --decode ]]; then
    main=org.kjson.flink.bench.DecodeBenchmark
    shift
fi
native_lib=${KJSON_NATIVE_LIB:-}
if [[ -z "$native_lib" ]]; then
    cargo build --release -p kjson-jni
    native_lib="$root/target/release/libkjson.so"
fi
classpath_file=$(mktemp)
trap 'rm -f "$classpath_file"' EXIT
# In one reactor, so the test kit resolves to its build output (it is never installed); kjson-flink
# is built last and its classpath is the one left in the file.
mvn -B -q -f jvm/pom.xml -pl kjson-flink -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$classpath_file" -Dkjson.cargo.skip=true -Dkjson.cargo.output="$(dirname "$native_lib")"
module=jvm/kjson-flink/target
# shellcheck disable=SC2086  # BENCH_OPTS is a list of JVM flags, split on purpose
exec java -Xms2g -Xmx2g -XX:+UseG1GC ${KJSON_BENCH_CLOCK:+-Dkjson.bench.clock=$KJSON_BENCH_CLOCK} \
    --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
    --add-opens=java.base/java.lang=ALL-UNNAMED \
    -Dkjson.native.path="$native_lib" -Dkjson.schemas="$root/schemas" ${BENCH_OPTS:-} \
    -cp "$module/test-classes:$module/classes:$(cat "$classpath_file")" \
    "$main" "$@"
