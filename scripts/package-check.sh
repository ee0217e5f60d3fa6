#!/usr/bin/env bash
# Packages every crate meant for publishing (those without `publish = false`) and builds each
# package from its .crate file alone, as a crates.io user gets it. Catches a file outside the
# crate's folder, a path dependency without a version, and metadata crates.io refuses.
#   scripts/package-check.sh            # all publishable crates
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t crates < <(cargo metadata --no-deps --format-version 1 | python3 scripts/lib/publishable_crates.py)
echo "package-check: ${crates[*]}"
args=()
for crate in "${crates[@]}"; do args+=(-p "$crate"); done
# --allow-dirty: the check is about what the crates contain, not whether the tree is committed.
cargo package --locked --allow-dirty "${args[@]}"
echo "package-check: ${#crates[@]} crates packaged and built from their .crate files"
