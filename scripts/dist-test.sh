#!/usr/bin/env bash
# The release as a user receives it: everything below uses only the dist/ directory that
# scripts/release.sh wrote (copied to a fresh temporary directory first), no source tree, nothing
# from target/.
#
#   scripts/dist-test.sh [DIST]        (default: dist/ beside this script's repository)
#
# 1. SHA256SUMS matches every file, and every file is listed;
# 2. each shipped ELF file needs at most GLIBC 2.17 (the check is inlined: no repository script);
# 3. the x86-64 CLI encodes every case in selftest/parity/ and its key and value bytes equal the
#    bytes the real Flink jars wrote for the same input (release.sh ran the parity oracle);
# 4. the aarch64 CLI does the same under qemu-aarch64 when qemu-user and the aarch64 glibc are
#    installed (otherwise it says it skipped);
# 5. each shaded jar carries the x86-64 libkjson.so byte for byte, and a JVM loads it from the jar
#    and makes a native call.
# 6. each connector jar (Flink 2.2 and 1.20) runs in a local Flink of its line against a real KRaft
#    broker and writes records byte-identical to the stock connectors (scripts/dist-flink-test.sh;
#    Flink, the broker and the stock connector are fetched into ~/.cache/kjson, the jars under test
#    come from the copied dist/ only). KJSON_DIST_SKIP_FLINK=1 skips this step.
set -euo pipefail

SHADED_JARS_GLOB="jars/kjson-flink-sql-connector-kafka-*.jar"   # connector jars (one per Flink line) that bundle the JNI library
JNI_RESOURCE_DIR="org/kjson/flink/native"
GLIBC_FLOOR=2.17
AARCH64_SYSROOT="${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}"

SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_dist="$(realpath -m "${1:-$SCRIPTS/../dist}")"
[[ -f "$source_dist/SHA256SUMS" ]] || { echo "dist-test: $source_dist has no SHA256SUMS (run scripts/release.sh)" >&2; exit 2; }
work="$(mktemp -d "${TMPDIR:-/tmp}/kjson-dist-test.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -a "$source_dist" "$work/dist"
cd "$work/dist"

failures=0
fail() { echo "dist-test: FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "dist-test: ok: $*"; }

check_sums() {
  if sha256sum --quiet -c SHA256SUMS; then ok "SHA256SUMS ($(wc -l <SHA256SUMS) files)"; else fail "SHA256SUMS"; fi
  local unlisted
  unlisted="$(comm -13 <(sed 's/^[0-9a-f]*  //' SHA256SUMS | LC_ALL=C sort) \
    <(find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort))"
  [[ -z "$unlisted" ]] || fail "files missing from SHA256SUMS: $unlisted"
}

newest_glibc() {
  readelf -V --wide "$1" | grep -oE 'Name: GLIBC_[0-9]+(\.[0-9]+)+' | sed 's/^Name: GLIBC_//' | sort -V | tail -n 1
}

check_glibc() {
  local file newest count=0 before=$failures
  for file in bin/*/* native/*/*; do
    count=$((count + 1))
    newest="$(newest_glibc "$file")"
    if [[ "$(printf '%s\n%s\n' "${newest:-0}" "$GLIBC_FLOOR" | sort -V | tail -n 1)" != "$GLIBC_FLOOR" ]]; then
      fail "$file needs GLIBC_$newest (floor $GLIBC_FLOOR)"
    fi
  done
  [[ $count -ge 4 ]] || fail "expected 2 CLI binaries and 2 libraries, found $count files"
  [[ $failures -gt $before ]] || ok "$count ELF files need at most GLIBC $GLIBC_FLOOR"
}

run_value() { sed -n "s/^$1=//p" selftest/parity/run.txt; }

float_spelling() { if [[ "$(run_value jdk)" -le 18 ]]; then echo jdk17; else echo jdk19; fi; }

# encode_cases LABEL COMMAND...: the CLI (with its runner) on every selftest case.
encode_cases() {
  local label="$1"; shift
  local case_dir name out passed=0 before=$failures
  [[ -x "${*: -1}" ]] || { fail "$label CLI: no executable ${*: -1}"; return; }
  for case_dir in selftest/parity/*/; do
    name="$(basename "$case_dir")"
    out="$work/out-$label-$name"
    mkdir -p "$out"
    if ! "$@" encode --ddl "$case_dir/sink.sql" --input "$case_dir/input.arrow" \
        --keys-out "$out/keys" --values-out "$out/values" --row-kind-column __row_kind \
        --flink-version "$(run_value flink_line)" --float-spelling "$(float_spelling)" 2>"$out/stderr"; then
      fail "$label CLI on $name: $(tail -n 3 "$out/stderr")"
    elif ! cmp -s "$out/keys" "$case_dir/keys.expected"; then
      fail "$label CLI on $name: keys differ from Flink's ($(cmp "$out/keys" "$case_dir/keys.expected" || true))"
    elif ! cmp -s "$out/values" "$case_dir/values.expected"; then
      fail "$label CLI on $name: values differ from Flink's ($(cmp "$out/values" "$case_dir/values.expected" || true))"
    else
      passed=$((passed + 1))
    fi
  done
  [[ $passed -gt 0 ]] || fail "$label CLI: no selftest case passed"
  [[ $failures -gt $before ]] || ok "$label CLI: $passed parity case(s) byte-identical to Flink $(run_value flink_line) (seed $(run_value seed))"
}

check_aarch64_cli() {
  if ! command -v qemu-aarch64 >/dev/null || [[ ! -e "$AARCH64_SYSROOT/lib/ld-linux-aarch64.so.1" ]]; then
    echo "dist-test: skipped: aarch64 CLI (needs qemu-aarch64 and the aarch64 glibc in $AARCH64_SYSROOT)"
    return
  fi
  encode_cases aarch64 qemu-aarch64 -L "$AARCH64_SYSROOT" bin/aarch64-unknown-linux-gnu/kjson
}

check_jar() {
  local jar="$1" entries
  mkdir -p "$work/jar"
  entries="$(python3 "$SCRIPTS/lib/zip_extract.py" "$jar" "$work/jar" --under "$JNI_RESOURCE_DIR" --suffix .so)"
  [[ -n "$entries" ]] || { fail "$jar has no native library under $JNI_RESOURCE_DIR"; return; }
  local entry platform
  for entry in $entries; do
    platform="$(basename "$(dirname "$entry")")"
    if cmp -s "$work/jar/$entry" "native/$platform/libkjson.so"; then
      ok "$jar!/$entry is native/$platform/libkjson.so"
    else
      fail "$jar!/$entry differs from native/$platform/libkjson.so"
    fi
  done
  cat >"$work/NativeCall.java" <<'EOF'
public class NativeCall {
    public static void main(String[] args) {
        // Loads libkjson.so from the jar (extracted like in Flink), then calls into it.
        System.out.println("open native handles: " + org.kjson.flink.NativeJsonEncoder.openHandleCount());
    }
}
EOF
  if java -cp "$jar" "$work/NativeCall.java" >"$work/java.out" 2>&1; then
    ok "a JVM loads libkjson.so from $jar ($(cat "$work/java.out"))"
  else
    fail "a JVM cannot load libkjson.so from $jar: $(tail -n 5 "$work/java.out")"
  fi
}

check_jars() {
  local jar found=0
  for jar in $SHADED_JARS_GLOB; do
    [[ -e "$jar" ]] || continue
    found=1
    check_jar "$jar"
  done
  [[ $found -eq 1 ]] || fail "no jar matches $SHADED_JARS_GLOB"
}

check_connectors() {
  if [[ ${KJSON_DIST_SKIP_FLINK:-0} == 1 ]]; then
    echo "dist-test: skipped: the connector jars on Flink and a broker (KJSON_DIST_SKIP_FLINK=1)"
    return
  fi
  if "$SCRIPTS/dist-flink-test.sh" "$work/dist" >"$work/flink.log" 2>&1; then
    ok "$(tail -n 1 "$work/flink.log" | sed 's/^\[cluster [0-9:]*\] //')"
  else
    fail "the connector jars on Flink and a broker: $(tail -n 15 "$work/flink.log")"
  fi
}

started=$(date +%s)
check_sums
check_glibc
encode_cases x86-64 bin/x86_64-unknown-linux-gnu/kjson
check_aarch64_cli
check_jars
check_connectors
echo "dist-test: $failures failure(s) in $(( $(date +%s) - started )) s"
[[ $failures -eq 0 ]]
