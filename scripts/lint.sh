#!/usr/bin/env bash
# The habits CI keeps: formatting, clippy and rustdoc without warnings, the runtime without its
# Arrow half (what the build script compiles), the published crates on the declared MSRV, and
# their public API against the listings in api/ (nightly rustdoc).
#   scripts/lint.sh            every check
#   scripts/lint.sh --no-msrv  without the MSRV toolchain (it installs one toolchain, ~1 minute)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# shellcheck source=lib/common.sh
source scripts/lib/common.sh   # step
STEP_PREFIX=lint
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
# check NAME COMMAND...: one timed step; the first failing one stops the lint.
check() { step "$@" || exit 1; }

# Scripts of work in progress that do not pass the two checks below yet: their findings are
# shown, not failed on. Drop a name as soon as its script passes (none today).
pending=()

# The versions and JDK paths have one source of truth (jvm/pom.xml, scripts/lib/common.sh).
check versions python3 scripts/lib/check_versions.py "${pending[@]/#/--pending=}"
# Every tracked script (what CI's clone has), following `source` from the script's own folder.
mapfile -t shell_scripts < <(git ls-files -- '*.sh' .ci/run | grep -vxF -f <(printf '%s\n' "${pending[@]}"))
check shellcheck shellcheck -x -P SCRIPTDIR "${shell_scripts[@]}"
for script in "${pending[@]}"; do
  [[ -f "$script" ]] || continue
  shellcheck -x -P SCRIPTDIR "$script" >&2 && echo "lint: $script passes shellcheck now: drop it from pending" \
    || echo "lint: pending (not failed on): shellcheck findings in $script above"
done
check fmt cargo fmt --all -- --check
check clippy cargo clippy --workspace --all-targets --locked -- -D warnings
check doc env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
check no-default-features cargo check -p kjson-runtime --no-default-features --locked
check public-api scripts/public-api.sh
check cli-release-features cargo clippy -p kjson-cli --all-targets --no-default-features --locked -- -D warnings
if [[ "${1:-}" != "--no-msrv" ]]; then
  rustup toolchain list | grep -q "^$msrv" || rustup toolchain install "$msrv" --profile minimal
  # The crates other engines build: the library and what it depends on.
  check "msrv-$msrv" cargo "+$msrv" check -p kjson-arrow -p kjson-runtime -p kjson-codegen --locked
fi
