#!/usr/bin/env bash
# JVM benchmark of the Flink integration on Nexmark q0 and q19 rows: stock per-record
# JsonRowDataSerializationSchema (through the Kafka table sink's serializer) against the native
# encoder (a) from ready Arrow batches and (b) from RowData including the batching.
# Release native build only. Arguments pass through: [rows] [batch rows] [passes].
# KJSON_BENCH_CLOCK=cpu times with the thread's CPU clock (for machines shared with other jobs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release -p kjson-jni
classpath_file=$(mktemp)
trap 'rm -f "$classpath_file"' EXIT
# In one reactor, so the test kit resolves to its build output (it is never installed); kjson-flink
# is built last and its classpath is the one left in the file.
mvn -B -q -f jvm/pom.xml -pl kjson-flink -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$classpath_file" -Dkjson.cargo.skip=true
module=jvm/kjson-flink/target
exec java -Xms2g -Xmx2g -XX:+UseG1GC ${KJSON_BENCH_CLOCK:+-Dkjson.bench.clock=$KJSON_BENCH_CLOCK} \
    --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
    --add-opens=java.base/java.lang=ALL-UNNAMED \
    -Dkjson.native.path="$root/target/release/libkjson.so" -Dkjson.schemas="$root/schemas" \
    -cp "$module/test-classes:$module/classes:$(cat "$classpath_file")" \
    org.kjson.flink.bench.EncodeBenchmark "$@"
