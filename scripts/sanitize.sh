#!/usr/bin/env bash
# The unit tests of the modules with unsafe code or raw buffer handling (spelling: SSE2 escape
# scan; float; bind/write/slab: the row loop over Arrow buffers; the JNI bridge's C Data import;
# input: the IPC reader's relabelling) and the hostile-input tests, under AddressSanitizer
# (with LeakSanitizer). Miri is not available here; ASan catches out-of-bounds reads and writes
# by kjson's code, use after free and leaks in what the tests execute (third-party crates are
# built without the instrumentation: scripts/lib/instrument-own-crates.sh). Fails on any report.
#   scripts/sanitize.sh            (needs the nightly toolchain)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
started=$(date +%s)

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "sanitize: the nightly toolchain is missing (rustup toolchain install nightly)" >&2
  exit 1
fi
# An explicit --target keeps the sanitizer off build scripts and proc macros, which run on the
# host. The instrumented objects live outside the clone ($KJSON_ASAN_TARGET_DIR or
# ~/.cache/kjson/asan-target), so that later runs on the same machine rebuild only what changed.
target="$(rustc -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="-Zsanitizer=address"
# The flag reaches this repository's crates only; Arrow and the other dependencies are built
# plain (the wrapper's header says what that keeps).
export RUSTC_WRAPPER="$ROOT/scripts/lib/instrument-own-crates.sh" KJSON_INSTRUMENT_ROOT="$ROOT"
# allocator_may_return_null: a corrupt IPC file can ask for a terabyte; arrow then reports the
# failed allocation as an error, which is what the hostile tests expect (ASan would abort).
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:allocator_may_return_null=1"
export CARGO_TARGET_DIR="${KJSON_ASAN_TARGET_DIR:-$HOME/.cache/kjson/asan-target}"
# Line tables are all a report needs (file and line of each frame); full debug info was a good
# part of compiling Arrow here.
export CARGO_PROFILE_DEV_DEBUG=line-tables-only
# Incremental compilation only costs a build that starts from nothing, as CI's does.
export CARGO_INCREMENTAL=0
# shellcheck source=lib/common.sh
source "$ROOT/scripts/lib/common.sh"   # step
STEP_PREFIX=sanitize
# One cargo invocation for every package: one feature resolution, so the instrumented Arrow is
# built once (one invocation per package rebuilt it for each feature set). `--test hostile` is
# kjson-arrow's and the CLI's hostile-input tests. --no-default-features: the CLI as released,
# without its `bench` feature (the benchmark contenders arrow-json, serde_json and sonic-rs, and
# the `bench` command, which has no unsafe code of its own and whose tests rust-tests runs); the
# other packages' defaults come back through their dependents.
step tests cargo +nightly test --target "$target" -p kjson-runtime -p kjson-arrow -p kjson-jni -p kjson-cli \
  --no-default-features --lib --test hostile --test cli || exit 1
echo "sanitize: no AddressSanitizer report in $(( $(date +%s) - started )) s"
