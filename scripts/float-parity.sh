#!/usr/bin/env bash
# Compares kjson's Double/Float.toString with the real JDKs on random values.
# Usage: scripts/float-parity.sh [seed] [count]   (count doubles and count floats per JDK)
# JDK 17 (legacy FloatingDecimal) is checked against --spelling jdk17, JDK 25 against jdk19.
set -euo pipefail
cd "$(dirname "$0")/.."

seed="${1:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
count="${2:-1000000}"
# shellcheck source=lib/common.sh
source scripts/lib/common.sh   # JDK17_JAVA, JDK25_JAVA, cargo_release_build
jdk17_java="$JDK17_JAVA"
jdk25_java="$JDK25_JAVA"
echo "float parity: seed ${seed}, ${count} doubles + ${count} floats per JDK"

cargo_release_build --quiet
target_dir="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
checker="${target_dir}/release/examples/float_check"

status=0
for pair in "${jdk17_java}:jdk17" "${jdk25_java}:jdk19"; do
    java="${pair%:*}"
    spelling="${pair##*:}"
    echo "== $("${java}" -version 2>&1 | head -n 1) vs --spelling ${spelling}"
    if ! "${java}" tests/float_oracle/FloatOracle.java "${seed}" "${count}" | "${checker}" --spelling "${spelling}"; then
        status=1
    fi
done
if [ "${status}" -eq 0 ]; then
    echo "float parity: OK (seed ${seed})"
else
    echo "float parity: FAILED (seed ${seed})"
fi
exit "${status}"
