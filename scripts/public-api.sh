#!/usr/bin/env bash
# The public API of the published crates, listed in api/<crate>.txt (one item per line, from
# rustdoc's JSON output; needs the nightly toolchain). A change to the surface must show up in
# the listing, so it is deliberate and reviewed. Hidden items are documented for the walk only:
# the walker follows re-exports into hidden modules and leaves the hidden items themselves out.
#   scripts/public-api.sh            check the listings are current
#   scripts/public-api.sh --update   rewrite them
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
# Its own target directory: nightly artifacts do not mix with the stable build's.
target_dir=target/public-api
# crate, package, features: the surface as users build it.
crates=(
  "kjson_runtime kjson-runtime --all-features"
  "kjson_arrow kjson-arrow --features=ffi"
)

status=0
for entry in "${crates[@]}"; do
  read -r crate package features <<<"$entry"
  CARGO_TARGET_DIR="$target_dir" cargo +nightly rustdoc --quiet --locked -p "$package" --lib "$features" \
    -- -Zunstable-options --output-format json --document-hidden-items
  listing="api/${crate}.txt"
  fresh="$target_dir/${crate}.txt"
  python3 scripts/lib/public_api.py "$target_dir/doc/${crate}.json" >"$fresh"
  if [[ "${1:-}" == "--update" ]]; then
    cp "$fresh" "$listing"
    echo "public-api: wrote $listing ($(wc -l <"$listing") items)"
  elif ! diff -u "$listing" "$fresh"; then
    echo "public-api: the public API of $package changed; if that is intended, run scripts/public-api.sh --update and commit $listing" >&2
    status=1
  fi
done
exit "$status"
