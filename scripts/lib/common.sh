# shellcheck shell=bash
# What every script shares (sourced, not run): the versions of Flink, the Kafka connector, Kafka and
# Arrow, the JDKs, and `step`, the one "run a step and time it" helper.
#
#   source "$ROOT/scripts/lib/common.sh"
#
# Versions: jvm/pom.xml's <properties> are the only place a version is written. Maven cannot read a
# shell file, but a shell can read a POM property with one sed, so this file reads them from there
# instead of keeping a second list that could drift (Flink 2.2 once had one patch version in the
# POM and another in the scripts). scripts/lib/check_versions.py (run by scripts/lint.sh) fails when a script or POM spells
# one of these versions, or a JDK path, literally.

KJSON_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# pom_property NAME: the value of <NAME> in jvm/pom.xml's <properties> (a value that is ${OTHER}
# is followed); fails when there is none.
pom_property() {
  local value
  value="$(sed -n "s|^ *<$1>\([^<]*\)</$1>.*|\1|p" "$KJSON_ROOT/jvm/pom.xml" | head -n 1)"
  if [[ -z "$value" ]]; then
    echo "common.sh: no property <$1> in $KJSON_ROOT/jvm/pom.xml" >&2
    return 1
  fi
  if [[ "$value" =~ ^\$\{([^}]+)\}$ ]]; then
    pom_property "${BASH_REMATCH[1]}"
  else
    echo "$value"
  fi
}

# The Flink lines the parity oracle judges on (all three); the jars are built for 1.20, 2.0, 2.1 and
# 2.2 (scripts/line-test.sh runs one line's tests), the clusters run 2.2.
FLINK_LINES="1.20 2.2 2.3"
FLINK_1_20_VERSION="$(pom_property flink.1.20.version)"
FLINK_2_2_VERSION="$(pom_property flink.2.2.version)"
FLINK_2_3_VERSION="$(pom_property flink.2.3.version)"
FLINK_2_1_VERSION="$(pom_property flink.2.1.version)"
FLINK_2_0_VERSION="$(pom_property flink.2.0.version)"
KAFKA_CONNECTOR_1_20_VERSION="$(pom_property flink.connector.kafka.1.20.version)"
KAFKA_CONNECTOR_2_2_VERSION="$(pom_property flink.connector.kafka.2.2.version)"
KAFKA_CONNECTOR_2_3_VERSION="$(pom_property flink.connector.kafka.2.3.version)"
KAFKA_CONNECTOR_2_1_VERSION="$(pom_property flink.connector.kafka.2.1.version)"
KAFKA_CONNECTOR_2_0_VERSION="$(pom_property flink.connector.kafka.2.0.version)"
# (kafka.version and arrow.version are read by the POMs only.)

# flink_version LINE / kafka_connector_version LINE: the versions of one Flink line.
flink_version() {
  case "$1" in
    1.20) echo "$FLINK_1_20_VERSION" ;;
    2.2) echo "$FLINK_2_2_VERSION" ;;
    2.3) echo "$FLINK_2_3_VERSION" ;;
    2.1) echo "$FLINK_2_1_VERSION" ;;
    2.0) echo "$FLINK_2_0_VERSION" ;;
    *) echo "common.sh: no Flink line $1 ($FLINK_LINES)" >&2; return 1 ;;
  esac
}
kafka_connector_version() {
  case "$1" in
    1.20) echo "$KAFKA_CONNECTOR_1_20_VERSION" ;;
    2.2) echo "$KAFKA_CONNECTOR_2_2_VERSION" ;;
    2.3) echo "$KAFKA_CONNECTOR_2_3_VERSION" ;;
    2.1) echo "$KAFKA_CONNECTOR_2_1_VERSION" ;;
    2.0) echo "$KAFKA_CONNECTOR_2_0_VERSION" ;;
    *) echo "common.sh: no Flink line $1 ($FLINK_LINES)" >&2; return 1 ;;
  esac
}

# The JDKs: 17 (Debian's openjdk-17, the build JDK) and a JDK >= 19 for the newer float spelling
# (the newest Temurin the machine kind ships, 25 today). Both can be named from outside.
KJSON_DEB_ARCH="$(dpkg --print-architecture 2>/dev/null || echo amd64)"
JDK17_HOME="/usr/lib/jvm/java-17-openjdk-$KJSON_DEB_ARCH"
JDK17_JAVA="${JDK17_JAVA:-$JDK17_HOME/bin/java}"
newest_temurin() {
  local dirs
  dirs="$(compgen -G "/usr/lib/jvm/temurin-*-jdk-$KJSON_DEB_ARCH" || true)"
  if [[ -n "$dirs" ]]; then sort -V <<< "$dirs" | tail -n 1; fi
}
if [[ -z "${JDK25_JAVA:-}" ]]; then
  JDK25_JAVA="$(newest_temurin)/bin/java"
  [[ "$JDK25_JAVA" == /bin/java ]] && JDK25_JAVA="/usr/lib/jvm/temurin-25-jdk-$KJSON_DEB_ARCH/bin/java"
fi
export JDK17_JAVA JDK25_JAVA

# cargo_release_build [CARGO ARGS...]: the release build the scripts share: every library (the JNI
# and C ones included), binary and example of the workspace. Building examples turns the
# dev-dependencies on, so features resolve as for `cargo test --release --workspace`: after the Rust
# tests no script compiles Arrow again with another feature set (one package alone, or the
# default members without dev-dependencies, each did).
cargo_release_build() {
  (cd "$KJSON_ROOT" && cargo build --release --workspace --lib --bins --examples "$@")
}

# two_at_a_time FUNCTION ITEM...: runs `FUNCTION ITEM` for every item, two at a time in the
# background (the machine has two cores: oracle JVMs, fuzz targets); fails when any run failed.
two_at_a_time() {
  local run="$1" item pid status=0
  local running=()
  shift
  for item in "$@"; do
    "$run" "$item" &
    running+=($!)
    if (( ${#running[@]} >= 2 )); then
      wait "${running[0]}" || status=1
      running=("${running[@]:1}")
    fi
  done
  for pid in "${running[@]}"; do
    wait "$pid" || status=1
  done
  return "$status"
}

# step NAME COMMAND...: runs one step of a script, printing
#   === NAME: COMMAND...
#   === NAME: OK in N s        (or FAILED (exit S) in N s)
# and returns the command's status, so that the caller decides: `step ... || exit 1` stops,
# `if step ...` counts. STEP_PREFIX, when set, goes before NAME (lint/fmt); with STEP_LOG_DIR set,
# the command's output goes to STEP_LOG_DIR/NAME.log instead, and its end is shown on failure.
step() {
  local name="$1" started status=0 label log
  shift
  label="${STEP_PREFIX:+$STEP_PREFIX/}$name"
  started=$(date +%s)
  echo "=== $label: $*"
  if [[ -n "${STEP_LOG_DIR:-}" ]]; then
    log="$STEP_LOG_DIR/$name.log"
    "$@" >"$log" 2>&1 || status=$?
  else
    "$@" || status=$?
  fi
  if (( status == 0 )); then
    echo "=== $label: OK in $(( $(date +%s) - started )) s"
  else
    echo "=== $label: FAILED (exit $status) in $(( $(date +%s) - started )) s"
    if [[ -n "${log:-}" ]]; then
      echo "end of $log:"
      tail -n 40 "$log" | sed 's/^/  | /'
    fi
  fi
  return "$status"
}
