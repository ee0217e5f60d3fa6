#!/usr/bin/env bash
# ARM64 tested, not only built: the Rust tests and the Flink parity cases on aarch64 under qemu-user.
#
#   scripts/arm64-test.sh [parity.sh arguments, e.g. --seed N --lines 2.2 --jdks 17]
#
# 1. cross-builds the tests for aarch64-unknown-linux-gnu with cargo-zigbuild (glibc 2.17, like the
#    release) and runs them through `qemu-aarch64 -L <aarch64 sysroot>` (cargo's target runner):
#    kjson-runtime's unit and integration tests, the encoder (generated == dynamic), hostile-input
#    and CLI tests; tests that start the CLI run the aarch64 binary under qemu too (KJSON_CLI_RUNNER);
# 2. runs scripts/parity.sh with the aarch64 `kjson` binary under qemu (KJSON_BIN, KJSON_RUNNER):
#    the oracle runs the real Flink jars on this machine, the aarch64 CLI must match their bytes.
# Missing tools are installed (scripts/cross-tools.sh). Each stage prints its time.
set -euo pipefail

# The test targets per package.
CLI_PACKAGE="${CLI_PACKAGE:-kjson-cli}"
CLI_BIN=kjson
RUST_TESTS=(
  "-p kjson-runtime"
  "-p kjson-arrow --lib --test generated --test hostile --test replan"
  "-p $CLI_PACKAGE --test cli --test hostile"
)
TARGET=aarch64-unknown-linux-gnu

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
# shellcheck source=cross-tools.sh
source "$ROOT/scripts/cross-tools.sh"
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"   # step
STEP_PREFIX=arm64
cd "$ROOT"

# timed NAME COMMAND...: one timed step; a failing one stops the run.
timed() { step "$@" || exit 1; }

tools() {
  ensure_zigbuild
  ensure_qemu_aarch64
}

rust_tests() {
  local args
  for args in "${RUST_TESTS[@]}"; do
    echo "arm64-test: cargo-zigbuild test --release --target $TARGET.$GLIBC_FLOOR $args"
    # shellcheck disable=SC2086  # $args is a list of cargo arguments
    nice cargo-zigbuild test --release --target "$TARGET.$GLIBC_FLOOR" $args || return 1
  done
}

build_cli() {
  nice cargo zigbuild --release --target "$TARGET.$GLIBC_FLOOR" -p "$CLI_PACKAGE" --bin "$CLI_BIN" || return 1
  # A binary that does not start under qemu fails here, before the parity harness blames the bytes.
  $(aarch64_runner) "target/$TARGET/release/$CLI_BIN" --version
}

parity() {
  KJSON_BIN="$ROOT/target/$TARGET/release/$CLI_BIN" KJSON_RUNNER="$(aarch64_runner)" \
    "$ROOT/scripts/parity.sh" "$@"
}

started=$(date +%s)
timed tools tools
CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="$(aarch64_runner)"
KJSON_CLI_RUNNER="$CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER KJSON_CLI_RUNNER
timed rust-tests rust_tests
timed cli-build build_cli
timed parity parity "$@"
echo "arm64-test: all stages passed in $(( $(date +%s) - started )) s"
