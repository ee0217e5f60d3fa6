#!/usr/bin/env bash
# shellcheck disable=SC2317,SC2329  # the oracle functions run through two_at_a_time (common.sh)
# Decode parity of kjson against the real Flink jars.
#
#   scripts/decode-parity.sh [--seed N] [--records N] [--only case1,case2] [--lines "1.20 2.2 2.3"]
#                            [--jdks "17 25"] [--out DIR] [--oracle-only]
#
# Builds the oracle (Maven) and kjson (cargo --release), runs the decode oracle once per Flink
# line x JDK over tests/parity/decode-cases/*.sql, then tests/parity/decode_compare.py runs
# `kjson decode` on every case's records and compares the rows (`kjson diff`) and the failing
# records with Flink's. See tests/parity/README.md, "Decode parity".
# KJSON_BIN names another kjson binary to judge (no cargo build then), KJSON_RUNNER a command
# prefix that runs it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CASES="$ROOT/tests/parity/decode-cases"
ORACLE_TARGET="$ROOT/jvm/parity-oracle/target"
source "$ROOT/scripts/lib/common.sh"   # JDK17_JAVA, JDK25_JAVA, cargo_release_build
KJSON_BIN="${KJSON_BIN:-}"
KJSON_RUNNER="${KJSON_RUNNER:-}"

seed=""
records=300
only=""
lines="$FLINK_LINES"
jdks="17 25"
out=""
oracle_only=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seed) seed="$2"; shift 2 ;;
    --records) records="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --lines) lines="$2"; shift 2 ;;
    --jdks) jdks="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --oracle-only) oracle_only=1; shift ;;
    -h|--help) sed -n '3,13p' "$0"; exit 0 ;;
    *) echo "decode-parity.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ -z "$seed" ]]; then
  seed=$(( $(od -An -N6 -tu8 /dev/urandom | tr -d ' ') % 1000000000000 ))
fi
echo "decode parity: seed $seed (rerun with: scripts/decode-parity.sh --seed $seed --records $records)"

started=$(date +%s)
echo "decode parity: building the oracle (mvn) ..."
# (sed drops the colour resets that Debian's mvn -q prints even in batch mode)
mvn -q -B -f "$ROOT/jvm/pom.xml" -pl parity-oracle -am package -DskipTests 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g'
if [[ $oracle_only -eq 0 && -n "$KJSON_BIN" ]]; then
  echo "decode parity: judging $KJSON_BIN${KJSON_RUNNER:+ (run through $KJSON_RUNNER)}"
elif [[ $oracle_only -eq 0 ]]; then
  echo "decode parity: building kjson (cargo build --release, common.sh) ..."
  cargo_release_build --quiet
fi
echo "decode parity: builds done in $(( $(date +%s) - started ))s"

own_out=0
if [[ -z "$out" ]]; then
  out="$(mktemp -d "${TMPDIR:-/tmp}/kjson-decode-parity.XXXXXX")"
  own_out=1
fi
mkdir -p "$out"
rm -rf "$out"/decode-oracle-*.log "$out"/*-jdk*
echo "decode parity: oracle output in $out"

java_for() {
  case "$1" in
    17) echo "$JDK17_JAVA" ;;
    25) echo "$JDK25_JAVA" ;;
    *) echo "decode-parity.sh: no JDK configured for '$1'" >&2; exit 2 ;;
  esac
}

# One JVM per Flink line x JDK processes every case.
run_oracle() {
  local line="$1" jdk="$2"
  local java; java="$(java_for "$jdk")"
  local opens=(--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
               --add-opens=java.base/java.util=ALL-UNNAMED)
  if [[ "$jdk" -ge 24 ]]; then
    opens+=(--sun-misc-unsafe-memory-access=allow)
  fi
  local cp
  cp="$ORACLE_TARGET/parity-oracle.jar:$(cat "$ORACLE_TARGET/classpath-oracle.txt"):$(cat "$ORACLE_TARGET/classpath-flink-$line.txt")"
  local args=(--cases "$CASES" --out "$out/$line-jdk$jdk" --seed "$seed" --records "$records" --line "$line")
  [[ -n "$only" ]] && args+=(--only "$only")
  "$java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Duser.timezone=UTC "${opens[@]}" -cp "$cp" \
    org.kjson.parity.decode.DecodeOracle "${args[@]}" >"$out/decode-oracle-$line-jdk$jdk.log" 2>&1
}

echo "decode parity: running the oracle for Flink [$lines] x JDK [$jdks] ..."
# oracle_run LINE-jdkN: one oracle JVM; says where its log is when it fails.
oracle_run() {
  run_oracle "${1%-jdk*}" "${1##*-jdk}" ||
    { echo "decode parity: oracle $1 exited non-zero (see $out/decode-oracle-$1.log)"; return 1; }
}
oracle_failed=0
oracle_runs=()
for line in $lines; do for jdk in $jdks; do oracle_runs+=("$line-jdk$jdk"); done; done
two_at_a_time oracle_run "${oracle_runs[@]}" || oracle_failed=1
grep -h -E '^\[decode-oracle' "$out"/decode-oracle-*.log || true
echo "decode parity: builds + oracle done in $(( $(date +%s) - started ))s"

if [[ $oracle_only -eq 1 ]]; then
  exit $(( oracle_failed ? 2 : 0 ))
fi
status=0
runs=""
for line in $lines; do for jdk in $jdks; do runs="$runs $line-jdk$jdk"; done; done
python3 "$ROOT/tests/parity/decode_compare.py" --oracle-out "$out" --cases "$CASES" --runs "$runs" --only "$only" \
  --kjson "${KJSON_BIN:-$ROOT/target/release/kjson}" --runner "$KJSON_RUNNER" --seed "$seed" --records "$records" || status=$?
if [[ $status -eq 0 && $own_out -eq 1 ]]; then
  rm -rf "$out"
  echo "decode parity: total $(( $(date +%s) - started ))s"
else
  echo "decode parity: total $(( $(date +%s) - started ))s; outputs kept in $out"
fi
exit $status
