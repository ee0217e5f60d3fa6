#!/usr/bin/env bash
# The connector jars of a release, each on its own Flink line against a real KRaft broker. Only the
# jars under DIST/jars are tested; Flink comes from the PyPI apache-flink-libraries wheel of the
# line, the broker and the stock connector from Maven Central (all cached under ~/.cache/kjson).
#
#   scripts/dist-flink-test.sh DIST [LINE...]      (lines: 2.2 1.20; default both)
#
# For each line, two jobs, each in its own local MiniCluster (scripts/cluster/LocalSqlJob.java), write
# the same bid stream and count changelog, exactly-once with checkpoints every second: one through
# the stock 'kafka' / 'upsert-kafka' (Flink's flink-connector-kafka of the line and its
# dependencies, nothing of kjson on the classpath), one through 'kjson-kafka' / 'kjson-upsert-kafka'
# with the release jar as the only connector jar. A read_committed consumer then checks that every row arrived once and that the records
# equal the stock connectors' byte for byte (upsert: per key, tombstones included).
# Environment: KJSON_CACHE, KJSON_DIST_PORT_BASE (default 28500; uses base+20, base+21), JAVA_HOME,
# KJSON_DIST_ADD_JAR=1 (the kjson jobs get the jar through `ADD JAR` instead of the classpath).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${KJSON_CACHE:-$HOME/.cache/kjson}
PORT_BASE=${KJSON_DIST_PORT_BASE:-28500}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
ROWS=20000 RATE=5000 UPSERT_ROWS=6000 UPSERT_RATE=2000 KEYS=500

[[ $# -ge 1 && -d $1/jars ]] || { echo "usage: $0 DIST [2.2|1.20]..." >&2; exit 2; }
DIST=$(realpath "$1")
shift
LINES=("$@")
[[ ${#LINES[@]} -gt 0 ]] || LINES=(2.2 1.20)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kjson-dist-flink.XXXXXX")
# shellcheck source=cluster/cluster.sh
source "$HERE/cluster/cluster.sh"
cleanup() {
  local status=$?
  stop_all
  if [[ $status -eq 0 ]]; then rm -rf "$WORK"; else log "logs kept in $WORK/log"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The wheel and the stock Kafka connector of one Flink line.
select_line() { # LINE
  case $1 in
    2.2 | 1.20)
      FLINK_VERSION=$(flink_version "$1")
      STOCK_CONNECTOR_VERSION=$(kafka_connector_version "$1") ;;
    *) die "no Flink line $1 (2.2, 1.20)" ;;
  esac
}

# Flink's Kafka connector of the line and its runtime dependencies; sets STOCK_CLASSPATH.
prepare_stock_connector() {
  local dir=$CACHE/stock-kafka-$STOCK_CONNECTOR_VERSION
  if [[ ! -f $dir/done ]]; then
    log "resolving flink-connector-kafka $STOCK_CONNECTOR_VERSION with Maven"
    mvn -q -f "$HERE/cluster/pom.xml" -Pconnector dependency:copy-dependencies -DincludeScope=runtime \
      -Dflink.connector.kafka.version="$STOCK_CONNECTOR_VERSION" -DoutputDirectory="$dir" > "$WORK/log/mvn-stock.log" 2>&1 \
      || die "resolving flink-connector-kafka $STOCK_CONNECTOR_VERSION failed: $(tail -5 "$WORK/log/mvn-stock.log")"
    touch "$dir/done"
  fi
  STOCK_CLASSPATH=$(printf '%s:' "$dir"/*.jar)
}

# The release's connector jar of one line (kjson-flink-sql-connector-kafka-<version>-<line>.jar).
release_jar() { # LINE
  local jars=("$DIST"/jars/kjson-flink-sql-connector-kafka-*-"$1".jar)
  [[ -f ${jars[0]} && ${#jars[@]} -eq 1 ]] || die "expected one connector jar for Flink $1 in $DIST/jars, found: ${jars[*]}"
  echo "${jars[0]}"
}

render() { # TEMPLATE KEY=VALUE...
  local file=$1 pair args=()
  shift
  for pair in "$@"; do args+=(-e "s|@${pair%%=*}@|${pair#*=}|g"); done
  sed "${args[@]}" "$HERE/cluster/sql/$file"
}

# One job: the bids into CONNECTOR and the counts into UPSERT_CONNECTOR, topics named after SIDE.
write_job_sql() { # FILE TAG SIDE CONNECTOR UPSERT_CONNECTOR
  local name=$2-$3 common=("ROWS=$ROWS" "UPSERT_ROWS=$UPSERT_ROWS" "KEYS=$KEYS" "BOOTSTRAP=$BOOTSTRAP")
  {
    render settings.sql "JOB=dist-$name"
    render bids.sql "${common[@]}" "RATE=$RATE"
    render counts.sql "${common[@]}" "UPSERT_RATE=$UPSERT_RATE"
    render bids-sink.sql "${common[@]}" TABLE=bids_out "CONNECTOR=$4" "TOPIC=bids-$name" "PREFIX=bids-$name"
    render counts-sink.sql "${common[@]}" TABLE=counts_out "UPSERT_CONNECTOR=$5" "TOPIC=counts-$name" "PREFIX=counts-$name"
    printf 'INSERT INTO bids_out SELECT * FROM bids;\nINSERT INTO counts_out SELECT * FROM counts;\n'
  } > "$1"
}

# Runs FILE in a MiniCluster of FLINK_HOME with the connector classpath EXTRA.
run_job() { # FILE EXTRA_CLASSPATH
  local name
  name=$(basename "$1" .sql)
  nice -n 5 "$JAVA" -Xmx1g "${FLINK_JAVA_OPTS[@]}" -Dlog4j.configurationFile="file:$HERE/cluster/log4j.properties" \
    -Dlog.file="$WORK/log/$name.log" -cp "$(printf '%s:' "$FLINK_HOME"/lib/*.jar)$2" \
    "$HERE/cluster/LocalSqlJob.java" "$1" > "$WORK/log/$name.out" 2>&1 \
    || die "job $name failed: $(grep -m 8 -E '^Caused by|Exception' "$WORK/log/$name.out" | cut -c1-300)"
}

run_line() { # LINE
  local line=$1 tag=flink-${1//./-} jar started=$SECONDS
  select_line "$line"
  jar=$(release_jar "$line")
  prepare_flink
  prepare_stock_connector
  topic_check create "$BOOTSTRAP" 2 "bids-$tag-stock" "bids-$tag-kjson" "counts-$tag-stock" "counts-$tag-kjson" \
    || die "creating the topics of Flink $line failed: $(tail -5 "$WORK/log/topic-check.log")"
  write_job_sql "$WORK/$tag-stock.sql" "$tag" stock kafka upsert-kafka
  write_job_sql "$WORK/$tag-kjson.sql" "$tag" kjson kjson-kafka kjson-upsert-kafka
  log "Flink $FLINK_VERSION: flink-connector-kafka $STOCK_CONNECTOR_VERSION, then $(basename "$jar"); $ROWS bids, $UPSERT_ROWS changes"
  run_job "$WORK/$tag-stock.sql" "$STOCK_CLASSPATH"
  if [[ ${KJSON_DIST_ADD_JAR:-0} == 1 ]]; then
    # The jar reaches the job through ADD JAR (the SQL client's way), not the JVM's classpath.
    sed -i "1i ADD JAR '$jar';" "$WORK/$tag-kjson.sql"
    run_job "$WORK/$tag-kjson.sql" ""
  else
    run_job "$WORK/$tag-kjson.sql" "$jar"
  fi
  topic_check append "$BOOTSTRAP" "bids-$tag-kjson" "bids-$tag-stock" "$ROWS" || die "Flink $line: the bids differ"
  topic_check upsert "$BOOTSTRAP" "counts-$tag-kjson" "counts-$tag-stock" "$UPSERT_ROWS" || die "Flink $line: the counts differ"
  log "Flink $line: PASS in $((SECONDS - started))s"
}

mkdir -p "$WORK/log"
started=$SECONDS
prepare_jars   # the broker's classpath (Kafka 4.2, serves the clients of both lines)
start_broker
for line in "${LINES[@]}"; do run_line "$line"; done
log "connector jars of ${LINES[*]} byte-identical to the stock connectors in $((SECONDS - started))s"
