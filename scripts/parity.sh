#!/usr/bin/env bash
# shellcheck disable=SC2317,SC2329  # the oracle functions run through two_at_a_time (common.sh)
# Byte parity of kjson against the real Flink jars.
#
#   scripts/parity.sh [--seed N] [--rows N] [--only case1,case2] [--lines "1.20 2.2 2.3"]
#                     [--jdks "17 25"] [--out DIR [--reuse-oracle]] [--oracle-only]
#                     [--null-key-carrier map|list]
#
# Builds the oracle (Maven) and kjson (cargo --release), runs the oracle once per Flink line x JDK
# over tests/parity/cases/*.sql, then tests/parity/compare.py runs `kjson encode` on every case and
# compares its key/value bytes with Flink's. See tests/parity/README.md.
# --out DIR keeps the oracle's output there; --reuse-oracle then skips the oracle (and its build)
# when DIR holds a run with the same seed, rows, lines, JDKs, cases and carrier (the ARM64 stage
# judges its CLI against the bytes the x86-64 stage's oracle wrote).
# KJSON_BIN names another kjson binary to judge (no cargo build then), KJSON_RUNNER a command
# prefix that runs it (e.g. an aarch64 binary under "qemu-aarch64 -L /usr/aarch64-linux-gnu").
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CASES="$ROOT/tests/parity/cases"
ORACLE_TARGET="$ROOT/jvm/parity-oracle/target"
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"   # JDK17_JAVA, JDK25_JAVA, FLINK_LINES, cargo_release_build
KJSON_BIN="${KJSON_BIN:-}"
KJSON_RUNNER="${KJSON_RUNNER:-}"

seed=""
rows=300
only=""
lines="$FLINK_LINES"
jdks="17 25"
out=""
oracle_only=0
reuse_oracle=0
null_key_carrier=map
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seed) seed="$2"; shift 2 ;;
    --rows) rows="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --lines) lines="$2"; shift 2 ;;
    --jdks) jdks="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --oracle-only) oracle_only=1; shift ;;
    --reuse-oracle) reuse_oracle=1; shift ;;
    --null-key-carrier) null_key_carrier="$2"; shift 2 ;;
    -h|--help) sed -n '3,18p' "$0"; exit 0 ;;
    *) echo "parity.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ -z "$seed" ]]; then
  seed=$(( $(od -An -N6 -tu8 /dev/urandom | tr -d ' ') % 1000000000000 ))
fi
echo "parity: seed $seed (rerun with: scripts/parity.sh --seed $seed --rows $rows)"

if [[ $reuse_oracle -eq 1 && -z "$out" ]]; then
  echo "parity.sh: --reuse-oracle needs --out DIR" >&2
  exit 2
fi
# What the oracle's output depends on; a reused output must have been written for the same.
stamp="seed=$seed rows=$rows lines=$lines jdks=$jdks only=$only carrier=$null_key_carrier cases=$(
  cat "$CASES"/*.sql | cksum | cut -d' ' -f1)"
reused=0
if [[ $reuse_oracle -eq 1 && -f "$out/oracle.stamp" && "$(cat "$out/oracle.stamp")" == "$stamp" ]]; then
  reused=1
fi

started=$(date +%s)
if [[ $reused -eq 1 ]]; then
  echo "parity: reusing the oracle output in $out ($stamp)"
else
  echo "parity: building the oracle (mvn) ..."
  # (sed drops the colour resets that Debian's mvn -q prints even in batch mode)
  mvn -q -B -f "$ROOT/jvm/pom.xml" -pl parity-oracle -am package -DskipTests 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g'
fi
if [[ $oracle_only -eq 0 && -n "$KJSON_BIN" ]]; then
  echo "parity: judging $KJSON_BIN${KJSON_RUNNER:+ (run through $KJSON_RUNNER)}"
elif [[ $oracle_only -eq 0 ]]; then
  echo "parity: building kjson (cargo build --release, common.sh) ..."
  cargo_release_build --quiet
fi
echo "parity: builds done in $(( $(date +%s) - started ))s"

own_out=0
if [[ -z "$out" ]]; then
  out="$(mktemp -d "${TMPDIR:-/tmp}/kjson-parity.XXXXXX")"
  own_out=1
fi
mkdir -p "$out"
echo "parity: oracle output in $out"

java_for() {
  case "$1" in
    17) echo "$JDK17_JAVA" ;;
    25) echo "$JDK25_JAVA" ;;
    *) echo "parity.sh: no JDK configured for '$1'" >&2; exit 2 ;;
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
  local args=(--cases "$CASES" --out "$out/$line-jdk$jdk" --seed "$seed" --rows "$rows" --line "$line"
              --null-key-carrier "$null_key_carrier")
  [[ -n "$only" ]] && args+=(--only "$only")
  "$java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Duser.timezone=UTC "${opens[@]}" -cp "$cp" org.kjson.parity.Oracle "${args[@]}" \
    >"$out/oracle-$line-jdk$jdk.log" 2>&1
}

# oracle_run LINE-jdkN: one oracle JVM; says where its log is when it fails.
oracle_run() {
  run_oracle "${1%-jdk*}" "${1##*-jdk}" ||
    { echo "parity: oracle $1 exited non-zero (see $out/oracle-$1.log)"; return 1; }
}

run_oracles() {
  rm -rf "$out"/oracle-*.log "$out"/*-jdk* "$out/oracle.stamp"
  echo "parity: running the oracle for Flink [$lines] x JDK [$jdks] ..."
  # shellcheck disable=SC2086  # $runs is a list of LINE-jdkN words
  two_at_a_time oracle_run $runs || true
  grep -h -E '^\[oracle' "$out"/oracle-*.log || true
  echo "$stamp" >"$out/oracle.stamp"
  echo "parity: builds + oracle done in $(( $(date +%s) - started ))s"
}
runs=""
for line in $lines; do for jdk in $jdks; do runs="$runs $line-jdk$jdk"; done; done
[[ $reused -eq 1 ]] || run_oracles

if [[ $oracle_only -eq 1 ]]; then
  exit 0
fi
status=0
python3 "$ROOT/tests/parity/compare.py" --oracle-out "$out" --cases "$CASES" --runs "$runs" --only "$only" \
  --kjson "${KJSON_BIN:-$ROOT/target/release/kjson}" --runner "$KJSON_RUNNER" --seed "$seed" --rows "$rows" || status=$?
if [[ $status -eq 0 && $own_out -eq 1 ]]; then
  rm -rf "$out"
  echo "parity: total $(( $(date +%s) - started ))s"
else
  echo "parity: total $(( $(date +%s) - started ))s; outputs kept in $out"
fi
exit $status
