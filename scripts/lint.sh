#!/usr/bin/env bash
# The habits CI keeps: formatting, clippy and rustdoc without warnings, the runtime without its
# Arrow half (what the build script compiles), and the published crates on the declared MSRV.
#   scripts/lint.sh            every check
#   scripts/lint.sh --no-msrv  without the MSRV toolchain (it installs one toolchain, ~1 minute)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
check() {
  local name="$1" started; started=$(date +%s); shift
  echo "lint: $name: $*"
  "$@"
  echo "lint: $name ok in $(( $(date +%s) - started )) s"
}

check fmt cargo fmt --all -- --check
check clippy cargo clippy --workspace --all-targets --locked -- -D warnings
check doc env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
check no-default-features cargo check -p kjson-runtime --no-default-features --locked
if [[ "${1:-}" != "--no-msrv" ]]; then
  rustup toolchain list | grep -q "^$msrv" || rustup toolchain install "$msrv" --profile minimal
  # The crates other engines build: the library and what it depends on.
  check "msrv-$msrv" cargo "+$msrv" check -p kjson-arrow -p kjson-runtime -p kjson-codegen --locked
fi
