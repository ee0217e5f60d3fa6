#!/usr/bin/env bash
# ARM64 tested, not only built: the Rust tests and the Flink parity cases on aarch64 under qemu-user.
#
#   scripts/arm64-test.sh [--quick] [parity.sh arguments, e.g. --seed N --lines 2.2 --jdks 17,
#                          or --seed N --out DIR --reuse-oracle after `parity.sh --seed N --out DIR`]
#   --quick: the tests where the architecture shows (CI's choice, to leave the CPU to the JVM
#            stages beside it): the unit tests (escaping and float spelling, whose fast paths
#            are per architecture, the C Data import, the CLI) and the hostile-input tests; the
#            integration tests of logic that is the same on every architecture (generated ==
#            dynamic, re-planning, decode, dictionaries, reference rows) run without it, and so
#            does the hostile test of the 2 GiB output limit (a length check; the NUL escaping it
#            writes 2.2 GB of is in the unit tests).
#
# 1. cross-builds the tests for aarch64-unknown-linux-gnu with cargo-zigbuild (glibc 2.17, like the
#    release) and runs them through `qemu-aarch64 -L <aarch64 sysroot>` (cargo's target runner):
#    kjson-runtime's unit and integration tests, the encoder (generated == dynamic), hostile-input
#    and CLI tests; tests that start the CLI run the aarch64 binary under qemu too (KJSON_CLI_RUNNER);
# 2. runs scripts/parity.sh with that aarch64 `kjson` binary under qemu (KJSON_BIN, KJSON_RUNNER):
#    the oracle runs the real Flink jars on this machine (or its output of the x86-64 parity stage
#    is reused), the aarch64 CLI must match their bytes.
# Missing tools are installed (scripts/cross-tools.sh). Each stage prints its time.
set -euo pipefail

# The packages and test targets, built in one cargo invocation: one feature resolution, so Arrow
# is compiled once for aarch64 (separate invocations rebuilt it per feature set), and the CLI the
# tests start is the one the parity stage judges.
CLI_PACKAGE="${CLI_PACKAGE:-kjson-cli}"
CLI_BIN=kjson
# --no-default-features: the CLI as released, without the benchmark contenders (arrow-json with
# arrow-cast, serde_json, sonic-rs), a good part of the cross build; the other packages' defaults
# come back through their dependents.
RUST_TEST_ARGS=(-p kjson-runtime -p kjson-arrow -p "$CLI_PACKAGE" --no-default-features --lib --test hostile)
FULL_TESTS=(--test integration --test cli --test decode)
# The test binaries' arguments: --quick skips the 2 GiB output test, about a second on x86-64 and
# 42 s of CPU under qemu.
TEST_BINARY_ARGS=()
if [[ "${1:-}" == --quick ]]; then
  shift
  TEST_BINARY_ARGS=(--skip a_batch_whose_output_passes_two_gib_is_a_limit_error)
else
  RUST_TEST_ARGS+=("${FULL_TESTS[@]}")
fi
TARGET=aarch64-unknown-linux-gnu
# The dependencies stay at the release opt-level: at opt-level 1 (kjson's crates at 3) the quick
# build from nothing took 552 CPU s against 541 (2-core machine, under load), no saving.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
# shellcheck source=cross-tools.sh
source "$ROOT/scripts/cross-tools.sh"
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"   # step
STEP_PREFIX=arm64
cd "$ROOT"
# The CLI the test build made (cargo's target folder, CARGO_TARGET_DIR when set).
CLI_PATH="${CARGO_TARGET_DIR:-$ROOT/target}/$TARGET/release/$CLI_BIN"

# timed NAME COMMAND...: one timed step; a failing one stops the run.
timed() { step "$@" || exit 1; }

tools() {
  ensure_zigbuild
  ensure_qemu_aarch64
}

rust_tests() {
  echo "arm64-test: cargo-zigbuild test --release --target $TARGET.$GLIBC_FLOOR ${RUST_TEST_ARGS[*]} -- ${TEST_BINARY_ARGS[*]}"
  nice cargo-zigbuild test --release --target "$TARGET.$GLIBC_FLOOR" "${RUST_TEST_ARGS[@]}" -- "${TEST_BINARY_ARGS[@]}"
}

# The CLI binary the test build made (the CLI tests ran it); a binary that does not start under
# qemu fails here, before the parity harness blames the bytes.
check_cli() {
  $(aarch64_runner) "$CLI_PATH" --version
}

parity() {
  KJSON_BIN="$CLI_PATH" KJSON_RUNNER="$(aarch64_runner)" \
    "$ROOT/scripts/parity.sh" "$@"
}

started=$(date +%s)
timed tools tools
CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="$(aarch64_runner)"
KJSON_CLI_RUNNER="$CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER KJSON_CLI_RUNNER
timed rust-tests rust_tests
timed cli-start check_cli
timed parity parity "$@"
echo "arm64-test: all stages passed in $(( $(date +%s) - started )) s"
