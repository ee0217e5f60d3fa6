#!/usr/bin/env bash
# The habits CI keeps: formatting, clippy and rustdoc without warnings, the runtime without its
# Arrow half (what the build script compiles), and the published crates' public API against the
# listings in api/ (nightly rustdoc). The declared MSRV is checked on the packaged crates
# (scripts/package-check.sh).
#   scripts/lint.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# shellcheck source=lib/common.sh
source scripts/lib/common.sh   # step
STEP_PREFIX=lint
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
