#!/usr/bin/env bash
# kjson-kafka in minutes: the README's Flink SQL example on a local Flink 2.2 cluster, once on the
# stock 'kafka' connector and once on 'kjson-kafka', then the records of both topics and the speed.
#
#   scripts/quickstart.sh [ROWS]        (default 2000000)
#
# From the artifacts the cluster test uses (scripts/cluster/cluster.sh, cached under ~/.cache/kjson):
# Flink from the PyPI wheel apache-flink-libraries with flink-sql-connector-kafka and the kjson
# connector in lib/, a KRaft broker, one JobManager and one TaskManager, all on 127.0.0.1. Each job
# runs scripts/cluster/sql/quickstart.sql through the SQL client (parallelism 1, exactly-once).
# It prints the first records of each topic, whether the two topics hold the same records, and the
# rows/s of each job with the ratio; everything it started is stopped when it exits.
#
# Environment: KJSON_CLUSTER_JAR (the connector jar, e.g. a release's
# dist/jars/kjson-flink-sql-connector-kafka-<version>-2.2.jar; default: the one jvm/kjson-flink-sql
# built, else built now), KJSON_QUICKSTART_PORT_BASE (default 28500; uses base..base+21),
# KJSON_CACHE (default ~/.cache/kjson), JAVA_HOME (Java 17, default: the JDK 17 of scripts/lib/common.sh;
# on JDK 25 the embedded SQL client stops at start, see docs/flink-sql.md), KJSON_CLUSTER_KEEP=1 (keep the work directory and its logs).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${KJSON_CACHE:-$HOME/.cache/kjson}
PORT_BASE=${KJSON_QUICKSTART_PORT_BASE:-28500}
ROWS=${1:-2000000}
[[ $ROWS =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [ROWS]" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kjson-quickstart.XXXXXX")
mkdir -p "$WORK/log"
# shellcheck source=cluster/cluster.sh
source "$HERE/cluster/cluster.sh"   # also scripts/lib/common.sh: versions, JDK17_JAVA, step
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
[[ -z ${JAVA_HOME:-} && -x $JDK17_JAVA ]] && JAVA=$JDK17_JAVA

cleanup() {
  local status=$?
  stop_all
  if [[ $status -ne 0 || ${KJSON_CLUSTER_KEEP:-0} == 1 ]]; then
    log "logs kept in $WORK/log"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ -z ${KJSON_CLUSTER_JAR:-} ]]; then
  KJSON_CLUSTER_JAR=$(compgen -G "$KJSON_ROOT/jvm/kjson-flink-sql/target/kjson-flink-sql-connector-kafka-*-2.2.jar" | head -1 || true)
fi

artifacts() { prepare_flink && prepare_jars && connector_jar && log "connector jar: $CONNECTOR_JAR"; }

broker() {
  write_config
  write_lib
  start_broker
  topic_check create "$BOOTSTRAP" 1 nexmark_q0-kafka nexmark_q0-kjson \
    || die "creating topics failed: $(tail -5 "$WORK/log/topic-check.log")"
}

flink() {
  start_jobmanager
  start_taskmanager taskmanager-1
  wait_until 180 "the TaskManager to register" taskmanagers_registered 1
}

# run_job CONNECTOR TOPIC: the README's SQL on CONNECTOR into TOPIC; sets SECONDS_<TOPIC suffix>.
run_job() {
  local name=quickstart-$1 id millis
  render quickstart.sql "JOB=$name" "CONNECTOR=$1" "TOPIC=$2" "BOOTSTRAP=$BOOTSTRAP" "ROWS=$ROWS" > "$WORK/$name.sql"
  sql_client "$WORK/$name.sql"
  wait_until 60 "job $name to be submitted" job_id "$name" > /dev/null
  id=$(job_id "$name")
  log "job $name ($id) submitted; waiting for its $ROWS rows"
  wait_until 900 "job $name to finish" job_finished "$id"
  millis=$(curl -sf "$REST/jobs/$id" | json "d['duration']")
  log "job $name finished in $(awk -v m="$millis" 'BEGIN { printf "%.1f", m / 1000 }') s," \
    "$(awk -v r="$ROWS" -v m="$millis" 'BEGIN { printf "%.0f", r * 1000 / m }') rows/s"
  echo "$millis" > "$WORK/$1.millis"
}

records() { topic_check show "$BOOTSTRAP" nexmark_q0-kjson nexmark_q0-kafka 3; }

summary() {
  local stock kjson
  stock=$(cat "$WORK/kafka.millis")
  kjson=$(cat "$WORK/kjson-kafka.millis")
  awk -v r="$ROWS" -v s="$stock" -v k="$kjson" 'BEGIN {
    printf "%-12s %10s %12s\n", "connector", "job time", "rows/s"
    printf "%-12s %9.1fs %12.0f\n", "kafka", s / 1000, r * 1000 / s
    printf "%-12s %9.1fs %12.0f\n", "kjson-kafka", k / 1000, r * 1000 / k
    printf "kjson-kafka / kafka: %.2fx (job time, start and final commit included)\n", s / k
  }'
}

started=$SECONDS
log "quickstart: $ROWS rows on Flink $FLINK_VERSION; work directory $WORK"
step artifacts artifacts || exit 1
step broker broker || exit 1
step flink flink || exit 1
step job-kafka run_job kafka nexmark_q0-kafka || exit 1
step job-kjson-kafka run_job kjson-kafka nexmark_q0-kjson || exit 1
identical=0
step records records && identical=1
step summary summary
log "done in $((SECONDS - started)) s; stopping Flink and the broker"
[[ $identical == 1 ]] || die "the two topics hold different records (see above)"
