#!/usr/bin/env bash
# Packages every crate meant for publishing (those without `publish = false`) and builds each
# package from its .crate file alone, as a crates.io user gets it. Catches a file outside the
# crate's folder, a path dependency without a version, and metadata crates.io refuses.
#   scripts/package-check.sh            # all publishable crates
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t crates < <(cargo metadata --no-deps --format-version 1 | python3 scripts/lib/publishable_crates.py)
echo "package-check: ${crates[*]}"
# Cargo extracts the packaged crates of its local overlay registry under
# ~/.cargo/registry/src/-<hash>/ and reuses an extraction of the same name and version, so a
# previous run's crates would be verified instead of this tree's: those are removed first.
# Cargo also takes a registry crate for immutable, so what it compiled from them is removed too.
target="$(cargo metadata --no-deps --format-version 1 | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
for crate in "${crates[@]}"; do
  rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$crate"-[0-9]*
  rm -rf "$target"/debug/.fingerprint/"$crate"-* "$target"/debug/deps/lib"${crate//-/_}"-* "$target"/debug/deps/"${crate//-/_}"-*
done
args=()
for crate in "${crates[@]}"; do args+=(-p "$crate"); done
# --allow-dirty: the check is about what the crates contain, not whether the tree is committed.
# No debug info in the verifying build: it is only compiled, and debug info is a good part of
# compiling Arrow's crates.
CARGO_PROFILE_DEV_DEBUG=false cargo package --locked --allow-dirty "${args[@]}"
echo "package-check: ${#crates[@]} crates packaged and built from their .crate files"
