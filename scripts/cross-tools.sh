# shellcheck shell=bash
# Cross-build tools of scripts/release.sh and scripts/arm64-test.sh (sourced, not run).
#
# Each function installs what is missing and is quick when everything is there:
#   ensure_zigbuild      rustup targets, zig and cargo-zigbuild (PyPI packages)
#   ensure_qemu_aarch64  qemu-aarch64 and the aarch64 glibc it loads (Debian packages)
# zig links against a glibc of the version named in the target (`x86_64-unknown-linux-gnu.2.17`),
# which is how the binaries get their glibc floor without an old sysroot.

RUST_TARGETS=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu)
GLIBC_FLOOR="${GLIBC_FLOOR:-2.17}"
AARCH64_SYSROOT="${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}"

tool_note() { echo "tools: $*"; }

ensure_rust_targets() {
  local installed target
  installed="$(rustup target list --installed)"
  for target in "${RUST_TARGETS[@]}"; do
    if ! grep -qx "$target" <<<"$installed"; then
      tool_note "rustup target add $target"
      rustup target add "$target" >/dev/null
    fi
  done
}

ensure_zig() {
  if command -v zig >/dev/null 2>&1 || python3 -m ziglang version >/dev/null 2>&1; then
    return
  fi
  tool_note "pip install ziglang"
  python3 -m pip install --quiet ziglang
  python3 -m ziglang version >/dev/null
}

# cargo-zigbuild's PyPI wheel carries the prebuilt binary: seconds, where `cargo install` compiles
# it for minutes on a fresh machine.
CARGO_ZIGBUILD_VERSION="0.24.0"

ensure_zigbuild() {
  ensure_rust_targets
  ensure_zig
  if ! command -v cargo-zigbuild >/dev/null 2>&1; then
    tool_note "pip install cargo-zigbuild==$CARGO_ZIGBUILD_VERSION"
    python3 -m pip install --quiet "cargo-zigbuild==$CARGO_ZIGBUILD_VERSION"
    hash -r
    command -v cargo-zigbuild >/dev/null 2>&1 || {
      echo "tools: cargo-zigbuild is not on PATH after pip install (add pip's script folder)" >&2
      return 1
    }
  fi
}

apt_install() {
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "tools: missing Debian packages: $* (install them, then rerun)" >&2
    return 1
  fi
  tool_note "apt-get install $*"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_qemu_aarch64() {
  local missing=()
  command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user)
  [[ -e "$AARCH64_SYSROOT/lib/ld-linux-aarch64.so.1" ]] || missing+=(libc6-arm64-cross)
  [[ -e "$AARCH64_SYSROOT/lib/libgcc_s.so.1" ]] || missing+=(libgcc-s1-arm64-cross)
  if [[ ${#missing[@]} -gt 0 ]]; then
    apt_install "${missing[@]}"
  fi
}

# The command prefix that runs an aarch64 Linux program on this machine.
aarch64_runner() { echo "qemu-aarch64 -L $AARCH64_SYSROOT"; }
