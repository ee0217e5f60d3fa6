#!/usr/bin/env bash
# RUSTC_WRAPPER for the sanitizer and fuzz builds: this repository's crates get the
# instrumentation flags (AddressSanitizer, libFuzzer's coverage), third-party crates (Arrow and
# the rest) are compiled without them. What those builds check is kjson's own code: its loads and
# stores and the generic code it instantiates are instrumented, and ASan's allocator still sees
# every heap block, so an out-of-bounds read of an Arrow buffer by kjson is still reported. An
# instrumented crate may depend on plain ones (not the reverse), and kjson's crates are the leaves.
# Instrumenting Arrow was about 40% of the fuzz build's CPU time.
#   RUSTC_WRAPPER=scripts/lib/instrument-own-crates.sh KJSON_INSTRUMENT_ROOT=<repository root>
set -euo pipefail
rustc="$1"
shift
# Cargo runs rustc with the compiled package's folder in CARGO_MANIFEST_DIR.
root="${KJSON_INSTRUMENT_ROOT:?the repository root}"
if [[ "${CARGO_MANIFEST_DIR:-}" == "$root" || "${CARGO_MANIFEST_DIR:-}" == "$root"/* ]]; then
  exec "$rustc" "$@"
fi
plain=()
for arg in "$@"; do
  case "$arg" in
    -Zsanitizer=* | -Cpasses=sancov-module | -Cllvm-args=-sanitizer-coverage-* | -Cllvm-args=-simplifycfg-branch-fold-threshold=*) ;;
    *) plain+=("$arg") ;;
  esac
done
exec "$rustc" "${plain[@]}"
