#!/usr/bin/env bash
# One Flink line's tests: its kjson-flink (JNI, parity against the line's own serializers) and its
# SQL connectors (exactly-once on the embedded KRaft broker), built from the one set of sources.
#
#   scripts/line-test.sh LINE [--quick] [MAVEN_ARG...]
#
# LINE: 2.2 (jvm/kjson-flink, jvm/kjson-flink-sql), 1.20, 2.1 or 2.0 (jvm/flink-LINE/...), or 2.3:
# the 2.2 modules (connector of the 2.2 line) compiled and tested against Flink 2.3's artifacts,
# which is how users run kjson on 2.3 until a Kafka connector for 2.3 is released. The 2.3 run
# rebuilds jvm/kjson-flink*/target against 2.3: run `scripts/line-test.sh 2.2` before packaging.
# --quick: a representative set instead of every test: the Java API's byte comparisons with the
# line's own serializers (parity, the RowData paths) and the SQL connectors' append, upsert, CDC
# formats, sink options, planning errors and writable metadata on the broker, plus the runs without
# the native library (planning, the fallback encoder).
# The native library is built by cargo unless -Dkjson.cargo.skip=true is given (then it is taken
# from -Dkjson.cargo.output=DIR, by default target/release). CI runs the 2.2 and 1.20 lines
# (scripts/test-all.sh); the others are run by hand, for want of time in CI's budget.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"

QUICK_TESTS="ParityTest,RowDataDifferentialTest,TimestampCarriageTest,StringCarriageTest,OutOfContractValuesTest"
QUICK_TESTS+=",AppendSinkTest,UpsertSinkTest,CdcFormatsTest,SinkOptionsTest,PlanningErrorsTest,WritableMetadataTest"

[[ $# -ge 1 ]] || { sed -n '2,17p' "$0" >&2; exit 2; }
line=$1
shift
args=()
if [[ ${1:-} == --quick ]]; then
  shift
  args+=("-Dtest=$QUICK_TESTS" -Dsurefire.failIfNoSpecifiedTests=false)
fi

case "$line" in
  2.2) modules=kjson-flink,kjson-flink-sql ;;
  1.20|2.1|2.0) modules=flink-$line/kjson-flink,flink-$line/kjson-flink-sql ;;
  2.3)
    modules=kjson-flink,kjson-flink-sql
    # The line's csv format is the key-format tests' only other Flink artifact.
    args+=("-Dkjson.flink.version=$(flink_version 2.3)" "-Dkjson.flink.csv.version=$(flink_version 2.3)") ;;
  *) echo "line-test: no Flink line $line (2.2, 1.20, 2.1, 2.0, 2.3)" >&2; exit 2 ;;
esac

echo "line-test: Flink $line ($(flink_version "$line"), Kafka connector $(kafka_connector_version "$line")): $modules"
exec mvn -q -B -f "$ROOT/jvm/pom.xml" -pl "$modules" -am verify "${args[@]}" "$@"
