#!/usr/bin/env bash
# Builds kjson's release artifacts into dist/ (or --out DIR):
#
#   bin/<target>/kjson                  the CLI, x86_64- and aarch64-unknown-linux-gnu
#   native/linux-<arch>/libkjson.so     the JNI library for linux-x86_64 and linux-aarch64
#   jars/                               the JVM jars (kjson-flink, the SQL connector)
#   maven/                              the same jars as a Maven repository (file:// deploy)
#   selftest/                           parity cases judged by the real Flink jars, for dist-test.sh
#   BUILD-INFO, SHA256SUMS              what built it; a SHA-256 line for every file
#
# Every ELF file must need at most GLIBC 2.17 (scripts/glibc-check.sh), which zig gives the cross
# builds (cargo-zigbuild, targets spelled `<target>.2.17`). Missing tools are installed (see
# scripts/cross-tools.sh). Each step prints a progress line and its time; a failing step stops the
# run and shows the end of its log.
#
#   scripts/release.sh [--out DIR]
set -euo pipefail

# What to build. The crate split and the per-Flink-line jars change these names, nothing else.
CLI_PACKAGE="${CLI_PACKAGE:-kjson-cli}"   # cargo package of the `kjson` binary
CLI_BIN=kjson
JNI_PACKAGE="${JNI_PACKAGE:-kjson-jni}"   # cargo package whose cdylib is libkjson.so
JNI_LIB=libkjson.so
MAVEN_MODULES="${MAVEN_MODULES:-kjson-flink,kjson-flink-sql,flink-1.20/kjson-flink,flink-1.20/kjson-flink-sql,flink-2.1/kjson-flink,flink-2.1/kjson-flink-sql,flink-2.0/kjson-flink,flink-2.0/kjson-flink-sql}"   # jvm/ modules whose jars ship
# Parity cases shipped in selftest/, judged once by the oracle on one Flink line and JDK.
SELFTEST_CASES="nexmark_q0,upsert_single_pk,cdc_debezium_defaults,types_floats,types_strings"
SELFTEST_LINE=2.2
SELFTEST_JDK=17
SELFTEST_SEED=20261201
SELFTEST_ROWS=200

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIST="$ROOT/dist"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) DIST="$(realpath -m "$2")"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "release.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
export PATH="$HOME/.cargo/bin:$PATH"
# shellcheck source=cross-tools.sh
source "$ROOT/scripts/cross-tools.sh"
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"   # step
LOGS="$ROOT/target/release-logs"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kjson-release.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
# Each step's output goes to $LOGS/NAME.log; a failing step shows the end of it and stops the run.
STEP_PREFIX=release
STEP_LOG_DIR="$LOGS"
release_step() { step "$@" || exit 1; }

platform_of() {
  case "$1" in
    x86_64-unknown-linux-gnu) echo linux-x86_64 ;;
    aarch64-unknown-linux-gnu) echo linux-aarch64 ;;
    *) echo "release.sh: no platform name for $1" >&2; return 1 ;;
  esac
}

machine_of() {
  case "$1" in
    x86_64-*) echo "X86-64" ;;
    aarch64-*) echo "AArch64" ;;
  esac
}

# The CLI and the JNI library for one target, linked by zig against glibc $GLIBC_FLOOR.
build_target() {
  local target="$1"
  (cd "$ROOT" &&
    nice cargo zigbuild --release --target "$target.$GLIBC_FLOOR" -p "$CLI_PACKAGE" --no-default-features --bin "$CLI_BIN" &&
    nice cargo zigbuild --release --target "$target.$GLIBC_FLOOR" -p "$JNI_PACKAGE" --lib)
}

# Copies one target's outputs into dist/ and checks they are built for that machine.
collect_target() {
  local target="$1" out="$ROOT/target/$1/release" platform file
  platform="$(platform_of "$target")"
  install -D -m 755 "$out/$CLI_BIN" "$DIST/bin/$target/$CLI_BIN"
  install -D -m 644 "$out/$JNI_LIB" "$DIST/native/$platform/$JNI_LIB"
  for file in "$DIST/bin/$target/$CLI_BIN" "$DIST/native/$platform/$JNI_LIB"; do
    if ! readelf -h "$file" | grep -q "Machine:.*$(machine_of "$target")"; then
      echo "$file is not built for $target: $(readelf -h "$file" | grep Machine:)"
      return 1
    fi
  done
}

# The jars, packaged and deployed to dist/maven. The property kjson.native.dir names a directory
# holding linux-x86_64/ and linux-aarch64/libkjson.so: the jars package those (no cargo step).
maven_deploy() {
  local module
  for module in ${MAVEN_MODULES//,/ }; do
    rm -f "$ROOT/jvm/$module"/target/*.jar
  done
  mvn -B -f "$ROOT/jvm/pom.xml" -pl "$MAVEN_MODULES" -am deploy \
    -Dmaven.test.skip=true -Dkjson.native.dir="$DIST/native" \
    -DaltDeploymentRepository="kjson-dist::default::file://$DIST/maven"
}

collect_jars() {
  local module jar
  mkdir -p "$DIST/jars"
  for module in ${MAVEN_MODULES//,/ }; do
    for jar in "$ROOT/jvm/$module"/target/*.jar; do
      [[ -e "$jar" ]] || { echo "no jar in jvm/$module/target"; return 1; }
      case "$(basename "$jar")" in original-*) continue ;; esac
      cp "$jar" "$DIST/jars/"
      echo "jars/$(basename "$jar")"
    done
  done
}

# The oracle (the real Flink jars) judges a few parity cases; dist-test.sh replays them against
# the shipped CLI. The oracle output is fresh each release, never edited.
selftest_fixtures() {
  local out="$WORK/oracle" run case dir
  "$ROOT/scripts/parity.sh" --oracle-only --only "$SELFTEST_CASES" --lines "$SELFTEST_LINE" \
    --jdks "$SELFTEST_JDK" --seed "$SELFTEST_SEED" --rows "$SELFTEST_ROWS" --out "$out"
  run="$out/$SELFTEST_LINE-jdk$SELFTEST_JDK"
  for case in ${SELFTEST_CASES//,/ }; do
    grep -qx 'outcome=ok' "$run/$case/meta.txt" || { echo "oracle has no bytes for $case"; return 1; }
    dir="$DIST/selftest/parity/$case"
    mkdir -p "$dir"
    cp "$ROOT/tests/parity/cases/$case.sql" "$dir/sink.sql"
    cp "$run/$case"/{input.arrow,keys.expected,values.expected,meta.txt} "$dir/"
  done
  printf 'flink_line=%s\njdk=%s\nseed=%s\nrows=%s\n' "$SELFTEST_LINE" "$SELFTEST_JDK" "$SELFTEST_SEED" \
    "$SELFTEST_ROWS" >"$DIST/selftest/parity/run.txt"
}

build_info() {
  {
    echo "kjson release built $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "glibc floor: $GLIBC_FLOOR"
    echo "rustc: $(rustc --version)"
    echo "cargo-zigbuild: $(cargo-zigbuild --version 2>/dev/null | head -n 1)"
    echo "zig: $( (zig version || python3 -m ziglang version) 2>/dev/null | head -n 1)"
    echo "maven: $(mvn -v 2>/dev/null | head -n 1 | sed 's/\x1b\[[0-9;]*m//g')"
  } >"$DIST/BUILD-INFO"
}

checksums() {
  # shellcheck disable=SC2094  # find skips SHA256SUMS, so the file written is never one read
  (cd "$DIST" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort |
    xargs -d '\n' sha256sum >SHA256SUMS)
  wc -l <"$DIST/SHA256SUMS"
}

# The output directory is replaced: refuse one that holds anything but an earlier release.
if [[ -n "$(ls -A "$DIST" 2>/dev/null)" && ! -e "$DIST/BUILD-INFO" && ! -e "$DIST/bin" ]]; then
  echo "release.sh: $DIST is not empty and holds no earlier release; pick another --out" >&2
  exit 2
fi
started=$(date +%s)
mkdir -p "$LOGS"
rm -rf "$DIST"
mkdir -p "$DIST"
echo "release: into $DIST (step logs in $LOGS)"
release_step tools ensure_zigbuild
for target in "${RUST_TARGETS[@]}"; do
  release_step "cargo-$target" build_target "$target"
  release_step "collect-$target" collect_target "$target"
done
release_step maven-deploy maven_deploy
release_step jars collect_jars
release_step selftest-fixtures selftest_fixtures
release_step glibc-check "$ROOT/scripts/glibc-check.sh" --floor "$GLIBC_FLOOR" "$DIST"
sed -n 's/^glibc-check: //p' "$LOGS/glibc-check.log" | tail -n 1 | sed 's/^/release: /'
release_step build-info build_info
release_step checksums checksums
echo "release: $(wc -l <"$DIST/SHA256SUMS") files in $DIST, $(du -sh "$DIST" | cut -f1), in $(( $(date +%s) - started )) s"
