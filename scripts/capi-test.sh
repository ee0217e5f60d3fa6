#!/usr/bin/env bash
# The C ABI (crate capi/, libkjson_c): checks that capi/include/kjson.h is what cbindgen writes
# from capi/src, runs the crate's Rust tests, compiles capi/tests/c/kjson_test.c (the encoder, and
# the decoder reading its records back) with the system C compiler against the shared and the
# static library and runs both, checks that the header compiles as C++, and runs the shared build
# under valgrind when it is installed (a decoded batch the program fails to release is a leak).
#   scripts/capi-test.sh [--update-header] [--skip-rust-tests]
# (--skip-rust-tests: scripts/test-all.sh, whose `cargo test --release --workspace` ran them, with
# the features that the libraries here are built with; one package alone resolves others.)
# Needs cc / c++; installs cbindgen when it is missing (the distribution's package where apt-get
# can, in seconds; else cargo install compiles it). CC, CXX override the compilers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=lib/common.sh
source scripts/lib/common.sh   # cargo_release_build
cc=${CC:-cc}
cxx=${CXX:-c++}
header=capi/include/kjson.h
# The header in the repository was written by this version. The check below ignores the amount of
# blank space, the only difference older releases (Debian's 0.24) make: one space or two before a
# trailing comment.
CBINDGEN_VERSION=0.29.4
export PATH="$HOME/.cargo/bin:$PATH"

generate_header() {
    (cd capi && cbindgen --quiet --config cbindgen.toml --output "$1")
}
if ! command -v cbindgen >/dev/null && (( EUID == 0 )) && command -v apt-get >/dev/null; then
    echo "capi: installing cbindgen (apt-get)"
    apt-get install -y -qq cbindgen >/dev/null 2>&1 \
        || { apt-get update -qq && apt-get install -y -qq cbindgen >/dev/null; } || true
fi
if ! command -v cbindgen >/dev/null; then
    echo "capi: installing cbindgen $CBINDGEN_VERSION"
    cargo install cbindgen --version "=$CBINDGEN_VERSION" --locked --quiet
fi
update_header=0
rust_tests=1
for arg in "$@"; do
    case "$arg" in
        --update-header) update_header=1 ;;
        --skip-rust-tests) rust_tests=0 ;;
        *) echo "usage: $0 [--update-header] [--skip-rust-tests]" >&2; exit 2 ;;
    esac
done
if (( update_header )); then
    generate_header include/kjson.h
    echo "capi: wrote $header"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
generate_header "$work/kjson.h"
if ! diff -u --ignore-space-change "$header" "$work/kjson.h"; then
    echo "capi: $header is stale; rerun with --update-header and commit it" >&2
    exit 1
fi

if (( rust_tests )); then
    cargo test --release -p kjson-capi
fi
cargo_release_build --quiet
lib=target/release
flags=(-std=c11 -Wall -Wextra -Werror -pedantic -I capi/include -I capi/tests/c)
"$cc" "${flags[@]}" capi/tests/c/kjson_test.c -L "$lib" -lkjson_c -o "$work/kjson_test_shared"
"$cc" "${flags[@]}" capi/tests/c/kjson_test.c "$lib/libkjson_c.a" -lpthread -ldl -lm -o "$work/kjson_test_static"
echo '#include "kjson.h"' | "$cxx" -std=c++17 -Wall -Werror -I capi/include -x c++ -fsyntax-only -

echo "capi: shared library"
LD_LIBRARY_PATH="$lib" "$work/kjson_test_shared"
echo "capi: static library"
"$work/kjson_test_static"
if command -v valgrind >/dev/null; then
    # The handle table is a process-wide map; valgrind sees its buckets only as "possibly lost".
    echo "capi: shared library under valgrind"
    LD_LIBRARY_PATH="$lib" valgrind --quiet --error-exitcode=1 --leak-check=full \
        --errors-for-leak-kinds=definite --show-possibly-lost=no "$work/kjson_test_shared"
else
    echo "capi: valgrind not installed, skipped"
fi
echo "capi: ok"
