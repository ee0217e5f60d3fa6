#!/usr/bin/env bash
# Packages every crate meant for publishing (those without `publish = false`) and type-checks
# the packages from their .crate files alone, as a crates.io user gets them, in a scratch
# workspace where they depend on each other. Catches a file outside the crate's folder, a path
# dependency without a version, and metadata crates.io refuses.
#   scripts/package-check.sh            # all publishable crates
# `cargo check` rather than `cargo package`'s own verifying build: what the check is for shows in
# type-checking, and code generation for Arrow's crates was most of that build's time. The
# scratch workspace takes Cargo.lock's versions and the tree's target directory, so the checked
# dependencies of the lint stage are reused.
set -euo pipefail
cd "$(dirname "$0")/.."

crates=()
versions=()
target=""
while read -r name version; do
  if [[ "$name" == target ]]; then target="$version"; else crates+=("$name"); versions+=("$version"); fi
done < <(cargo metadata --no-deps --format-version 1 | python3 scripts/lib/publishable_crates.py)
echo "package-check: ${crates[*]}"
args=()
for crate in "${crates[@]}"; do args+=(-p "$crate"); done
# --allow-dirty: the check is about what the crates contain, not whether the tree is committed.
cargo package --locked --allow-dirty --no-verify "${args[@]}"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/kjson-package-check.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
{
  echo '[workspace]'
  echo 'resolver = "2"'
  echo 'members = ['
  for i in "${!crates[@]}"; do echo "  \"${crates[$i]}-${versions[$i]}\","; done
  echo ']'
  echo '[patch.crates-io]'
  for i in "${!crates[@]}"; do echo "${crates[$i]} = { path = \"${crates[$i]}-${versions[$i]}\" }"; done
} >"$scratch/Cargo.toml"
for i in "${!crates[@]}"; do
  tar -xzf "$target/package/${crates[$i]}-${versions[$i]}.crate" -C "$scratch"
done
# The tree's lock pins the versions; cargo drops the entries of the crates not packaged.
cp Cargo.lock "$scratch/"
CARGO_TARGET_DIR="$target" cargo check --manifest-path "$scratch/Cargo.toml" --workspace --offline
echo "package-check: ${#crates[@]} crates packaged and type-checked from their .crate files"
