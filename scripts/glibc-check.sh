#!/usr/bin/env bash
# Fails when a shipped ELF file needs a newer glibc than the floor.
#
#   scripts/glibc-check.sh [--floor 2.17] PATH...
#
# PATH is an ELF file, a directory (searched recursively) or a jar/zip (its ELF entries are
# checked). For each ELF file it reads the version needs (`readelf -V`, what the dynamic loader
# checks at load time) and prints the newest GLIBC_x.y; above the floor it lists the symbols that
# need it (`readelf --dyn-syms`) and the run fails. Finding no ELF file at all also fails: a
# release without binaries is not a passing release.
set -euo pipefail
SCRIPT_LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib"

floor=2.17
paths=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --floor) floor="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) paths+=("$1"); shift ;;
  esac
done
if [[ ${#paths[@]} -eq 0 ]]; then
  echo "glibc-check: name at least one file, directory or jar" >&2
  exit 2
fi
command -v readelf >/dev/null || { echo "glibc-check: readelf is missing (Debian: binutils)" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/kjson-glibc-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT

is_elf() { [[ -f "$1" && "$(head -c 4 "$1" | od -An -c | tr -d ' ')" == '177ELF' ]]; }
is_zip() { [[ -f "$1" && "$(head -c 2 "$1")" == "PK" ]]; }

# version_newer A B: true when glibc version A is newer than B.
version_newer() { [[ "$1" != "$2" && "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" == "$1" ]]; }

# Every GLIBC_x.y the file's version-needs section names (one per line, sorted).
glibc_needs() {
  readelf -V --wide "$1" | grep -oE 'Name: GLIBC_[0-9]+(\.[0-9]+)+' | sed 's/^Name: GLIBC_//' | sort -uV
}

checked=0
failed=0
check_elf() {
  local file="$1" shown="$2"
  checked=$((checked + 1))
  local needs newest
  needs="$(glibc_needs "$file")"
  newest="$(tail -n 1 <<<"$needs")"
  local arch; arch="$(readelf -h "$file" | sed -n 's/^ *Machine: *//p')"
  if [[ -z "$newest" ]]; then
    echo "glibc-check: ok    $shown ($arch): no versioned glibc symbols"
    return
  fi
  if ! version_newer "$newest" "$floor"; then
    echo "glibc-check: ok    $shown ($arch): needs GLIBC_$newest <= $floor"
    return
  fi
  failed=$((failed + 1))
  echo "glibc-check: FAIL  $shown ($arch): needs GLIBC_$newest > floor $floor; symbols above the floor:"
  local version
  for version in $needs; do
    version_newer "$version" "$floor" || continue
    readelf --dyn-syms --wide "$file" | grep -oE "[^ ]+@GLIBC_${version//./\\.}( |$)" | tr -d ' ' | sort -u |
      sed 's/^/    /'
  done
}

check_zip() {
  local zip="$1" dir="$work/zip$checked-$RANDOM" entry
  mkdir -p "$dir"
  python3 "$SCRIPT_LIB/zip_extract.py" "$zip" "$dir" --elf >/dev/null
  while IFS= read -r -d '' entry; do
    check_elf "$entry" "$zip!/${entry#"$dir"/}"
  done < <(find "$dir" -type f -print0 | sort -z)
}

check_path() {
  local path="$1" file
  if [[ -d "$path" ]]; then
    while IFS= read -r -d '' file; do
      if is_elf "$file"; then check_elf "$file" "$file"; elif is_zip "$file"; then check_zip "$file"; fi
    done < <(find "$path" -type f -print0 | sort -z)
  elif is_elf "$path"; then
    check_elf "$path" "$path"
  elif is_zip "$path"; then
    check_zip "$path"
  else
    echo "glibc-check: $path is neither an ELF file, a directory nor a jar" >&2
    failed=$((failed + 1))
  fi
}

for path in "${paths[@]}"; do
  check_path "$path"
done
if [[ $checked -eq 0 ]]; then
  echo "glibc-check: no ELF file found in ${paths[*]}" >&2
  exit 1
fi
echo "glibc-check: $checked ELF file(s), $failed above the GLIBC $floor floor"
[[ $failed -eq 0 ]]
