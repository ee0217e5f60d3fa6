#!/usr/bin/env bash
# kjson-kafka and kjson-upsert-kafka on a real standalone Flink 2.2 cluster, with a real crash.
#
#   scripts/cluster-test.sh [--quick] [--skip-switch] [--skip-crash] [--skip-copy] [--source-switch]
#
# Assembles Flink from the PyPI wheel apache-flink-libraries (cached under ~/.cache/kjson), starts a
# KRaft broker, one JobManager and two TaskManagers (one slot each) as separate JVMs on 127.0.0.1,
# and runs, through the SQL client:
#   1. reference: the SQL on the stock 'kafka' and 'upsert-kafka' connectors;
#   2. crash:     the same SQL on 'kjson-kafka' and 'kjson-upsert-kafka', exactly-once, parallelism 2,
#                 checkpoints every second; mid-run one TaskManager gets kill -9 and a replacement
#                 starts (the job needs its slot, so recovery runs on the replacement);
#   3. switch:    stop-with-savepoint on 'kafka', resume on 'kjson-kafka', stop-with-savepoint,
#                 resume on 'kafka' again, all into one topic;
#   4. copy:      Kafka -> Kafka: the reference's bid topic read back (bounded at its end offsets)
#                 and written again, by a reference job on 'kafka' at both ends, then on
#                 'kjson-kafka' at both ends with the reader throttled and a TaskManager killed
#                 (kill -9, replacement) as in 2;
#   5. source switch (only with --source-switch): the copy job with the sink on 'kafka' and the
#                 source on 'kafka', 'kjson-kafka', 'kafka' through two savepoints (the reader
#                 throttled until the last job). A Kafka source restored from a savepoint never
#                 finishes (Flink's enumerator), so the last job is stopped with a
#                 savepoint once the output holds every row.
# A read_committed consumer then checks every row arrived exactly once and the records equal the
# reference's byte for byte (append: the same multiset, and a changed byte must be caught; upsert:
# per key the same sequence, tombstones included). See docs/operations-cluster.md.
#
# Environment: KJSON_CLUSTER_JAR (connector jar for lib/; default: build jvm/kjson-flink-sql),
# KJSON_CLUSTER_PORT_BASE (default 28470; uses base..base+21), KJSON_CACHE (default ~/.cache/kjson),
# JAVA_HOME (Java 17), KJSON_CLUSTER_KEEP=1 (keep the work directory and its logs),
# KJSON_SWITCH_IGNORE_UNCLAIMED (default true) and KJSON_SWITCH_UID_GENERATION (table.exec.uid.generation
# of the switch jobs; default: Flink's, PLAN_ONLY).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${KJSON_CACHE:-$HOME/.cache/kjson}
PORT_BASE=${KJSON_CLUSTER_PORT_BASE:-28470}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
MODE=full
RUN_SWITCH=1
RUN_CRASH=1
RUN_COPY=1
RUN_SOURCE_SWITCH=0
SWITCH_IGNORE_UNCLAIMED=${KJSON_SWITCH_IGNORE_UNCLAIMED:-true}
SWITCH_UID_GENERATION=${KJSON_SWITCH_UID_GENERATION:-}
for arg in "$@"; do
  case $arg in
    --quick) MODE=quick ;;
    --skip-switch) RUN_SWITCH=0 ;;
    --skip-crash) RUN_CRASH=0 ;;
    --skip-copy) RUN_COPY=0 ;;
    --source-switch) RUN_SOURCE_SWITCH=1 ;;
    *) echo "usage: $0 [--quick] [--skip-switch] [--skip-crash] [--skip-copy] [--source-switch]" >&2; exit 2 ;;
  esac
done

if [[ $MODE == quick ]]; then
  ROWS=200000 RATE=10000 UPSERT_ROWS=60000 UPSERT_RATE=3000 KEYS=1000 SWITCH_RATE=4000
else
  ROWS=1000000 RATE=20000 UPSERT_ROWS=300000 UPSERT_RATE=6000 KEYS=5000 SWITCH_RATE=12000
fi
META_EVERY=10   # the metadata sink takes every 10th bid
# The throttled reader's fetch interval (bids-source.sql): at most 16 KB (about 60 bids) per
# partition per fetch, so about 6,000 bids/s over two partitions.
FETCH_WAIT_MS=20

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kjson-cluster.XXXXXX")
# shellcheck source=cluster/cluster.sh
source "$HERE/cluster/cluster.sh"

cleanup() {
  local status=$?
  stop_all
  if [[ $status -ne 0 || ${KJSON_CLUSTER_KEEP:-0} == 1 ]]; then
    ((status == 0)) || show_log_warnings
    log "logs kept in $WORK/log"
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

common_values() {
  echo "ROWS=$ROWS" "UPSERT_ROWS=$UPSERT_ROWS" "KEYS=$KEYS" "BOOTSTRAP=$BOOTSTRAP"
}

# One job writing the bid stream, the count changelog and every META_EVERY-th bid with a timestamp
# and headers (bids-meta-sink.sql) through CONNECTOR / UPSERT_CONNECTOR.
write_pair_sql() { # FILE JOB CONNECTOR UPSERT_CONNECTOR SUFFIX RATE_FACTOR
  local v
  read -ra v <<< "$(common_values)"
  {
    render settings.sql "JOB=$2"
    render bids.sql "${v[@]}" "RATE=$((RATE * $6))"
    render counts.sql "${v[@]}" "UPSERT_RATE=$((UPSERT_RATE * $6))"
    render bids-sink.sql "${v[@]}" TABLE=bids_out "CONNECTOR=$3" "TOPIC=bids-$5" "PREFIX=bids-$5"
    render counts-sink.sql "${v[@]}" TABLE=counts_out "UPSERT_CONNECTOR=$4" "TOPIC=counts-$5" "PREFIX=counts-$5"
    render bids-meta-sink.sql "${v[@]}" TABLE=bids_meta_out "CONNECTOR=$3" "TOPIC=bids-meta-$5" "PREFIX=bids-meta-$5"
    printf 'EXECUTE STATEMENT SET BEGIN\nINSERT INTO bids_out SELECT * FROM bids;\nINSERT INTO counts_out SELECT * FROM counts;\n'
    render bids-meta-insert.sql TABLE=bids_meta_out "EVERY=$META_EVERY"
    printf 'END;\n'
  } > "$1"
}

# The bids the reference wrote (bids-stock) read back through SOURCE and written through SINK into
# topic copy-SUFFIX: a Kafka -> Kafka job. THROTTLE=1 slows the reader (bids-source.sql).
write_copy_sql() { # FILE JOB SOURCE SINK SUFFIX THROTTLE [SAVEPOINT]
  local v fetch
  read -ra v <<< "$(common_values)"
  read -ra fetch <<< "$(fetch_settings "$6")"
  {
    render settings.sql "JOB=$2"
    if [[ -n ${7:-} ]]; then
      # Source and sink keep their operators, so every state must map: nothing is left behind.
      printf "SET 'execution.state-recovery.path' = '%s';\n" "$7"
      printf "SET 'execution.state-recovery.ignore-unclaimed-state' = 'false';\n"
    fi
    render bids-source.sql "${v[@]}" TABLE=bids_in "CONNECTOR=$3" TOPIC=bids-stock "GROUP=copy-$5" "${fetch[@]}"
    render bids-sink.sql "${v[@]}" TABLE=bids_out "CONNECTOR=$4" "TOPIC=copy-$5" "PREFIX=copy-$5"
    printf 'INSERT INTO bids_out SELECT * FROM bids_in;\n'
  } > "$1"
}

# FETCH_MIN_BYTES and FETCH_WAIT_MS of bids-source.sql: throttled, or the consumer's defaults.
fetch_settings() { # THROTTLE
  if [[ $1 == 1 ]]; then
    echo "FETCH_MIN_BYTES=1048576" "FETCH_WAIT_MS=$FETCH_WAIT_MS"
  else
    echo "FETCH_MIN_BYTES=1" "FETCH_WAIT_MS=500"
  fi
}

# One phase of the switch: the bid stream into topic bids-switch, optionally from a savepoint.
write_switch_sql() { # FILE JOB CONNECTOR [SAVEPOINT [LAST (unused)]]
  local v
  read -ra v <<< "$(common_values)"
  {
    render settings.sql "JOB=$2"
    if [[ -n $SWITCH_UID_GENERATION ]]; then
      printf "SET 'table.exec.uid.generation' = '%s';\n" "$SWITCH_UID_GENERATION"
    fi
    if [[ -n ${4:-} ]]; then
      printf "SET 'execution.state-recovery.path' = '%s';\n" "$4"
      printf "SET 'execution.state-recovery.ignore-unclaimed-state' = '%s';\n" "$SWITCH_IGNORE_UNCLAIMED"
    fi
    render bids.sql "${v[@]}" "RATE=$SWITCH_RATE"
    render bids-sink.sql "${v[@]}" TABLE=bids_out "CONNECTOR=$3" TOPIC=bids-switch PREFIX=bids-switch
    printf 'INSERT INTO bids_out SELECT * FROM bids;\n'
  } > "$1"
}

submit() { # SQL_FILE JOB; sets JOB_ID
  sql_client "$1"
  wait_until 60 "job $2 to be submitted" job_id "$2" > /dev/null
  JOB_ID=$(job_id "$2")
}

finish_timeout() { echo $((ROWS * 4 / RATE + 180)); }

run_reference() {
  local started=$SECONDS
  write_pair_sql "$WORK/reference.sql" reference kafka upsert-kafka stock 2
  submit "$WORK/reference.sql" reference
  wait_until "$(finish_timeout)" "the reference job to finish" job_finished "$JOB_ID"
  REFERENCE_SECONDS=$((SECONDS - started))
  log "reference (stock connectors) finished in ${REFERENCE_SECONDS}s"
}

run_crash() {
  local started=$SECONDS
  write_pair_sql "$WORK/crash.sql" kjson-crash kjson-kafka kjson-upsert-kafka kjson 1
  run_with_kill "$WORK/crash.sql" kjson-crash
  CRASH_RESTARTS=$(job_restarts "$JOB_ID")
  CRASH_SECONDS=$((SECONDS - started))
  log "kjson-crash finished in ${CRASH_SECONDS}s after $CRASH_RESTARTS restart(s)"
}

# The reference's bids read back and written again, stock on both sides (no crash: the records only).
run_copy_reference() {
  local started=$SECONDS
  write_copy_sql "$WORK/copy-reference.sql" copy-reference kafka kafka stock 0
  submit "$WORK/copy-reference.sql" copy-reference
  wait_until "$(finish_timeout)" "copy-reference to finish" job_finished "$JOB_ID"
  COPY_REFERENCE_SECONDS=$((SECONDS - started))
  log "copy-reference (kafka -> kafka) finished in ${COPY_REFERENCE_SECONDS}s"
}

# The same on kjson-kafka at both ends, throttled so that the kill lands while the source reads.
run_copy_crash() {
  local started=$SECONDS
  write_copy_sql "$WORK/copy-crash.sql" kjson-copy-crash kjson-kafka kjson-kafka kjson 1
  run_with_kill "$WORK/copy-crash.sql" kjson-copy-crash
  COPY_RESTARTS=$(job_restarts "$JOB_ID")
  COPY_CRASH_SECONDS=$((SECONDS - started))
  log "kjson-copy-crash finished in ${COPY_CRASH_SECONDS}s after $COPY_RESTARTS restart(s)"
}

# Submits the job, kill -9 of a TaskManager after two checkpoints, a replacement started; waits
# until the job recovered on the replacement and finished. Sets JOB_ID.
run_with_kill() { # SQL_FILE JOB
  submit "$1" "$2"
  wait_until 120 "job $2 to run all its tasks" all_tasks_running "$JOB_ID"
  wait_until 120 "two completed checkpoints of $2" checkpoints_at_least "$JOB_ID" 2
  job_finished "$JOB_ID" && die "$2 finished before the kill; raise the row count"
  local known
  known=$(taskmanager_ids)
  TASKMANAGERS_STARTED=$((TASKMANAGERS_STARTED + 1))
  log "kill -9 a TaskManager (pid $KILL_PID), then start taskmanager-$TASKMANAGERS_STARTED"
  kill -9 "$KILL_PID"
  start_taskmanager "taskmanager-$TASKMANAGERS_STARTED"
  KILL_PID=$TM_PID   # the next kill takes the replacement: the first victim is gone
  wait_until 180 "the replacement TaskManager to register" new_taskmanager "$known"
  wait_until 300 "a restart of $2" restarted "$JOB_ID"
  # A short run may finish soon after the restart: finished counts as having run again.
  wait_until 300 "$2 to run again on the replacement" running_or_finished "$JOB_ID"
  job_uses_taskmanager "$JOB_ID" "$NEW_TM" || die "$2 did not recover on the replacement TaskManager"
  wait_until "$(finish_timeout)" "$2 to finish" job_finished "$JOB_ID"
}

restarted() { [[ $(job_restarts "$1") -ge 1 ]] 2> /dev/null; }

running_or_finished() { all_tasks_running "$1" || job_finished "$1"; }

taskmanager_ids() { curl -sf "$REST/taskmanagers" | json "' '.join(sorted(t['id'] for t in d['taskmanagers']))"; }

# A TaskManager registered that is not among KNOWN_IDS; sets NEW_TM.
new_taskmanager() { # KNOWN_IDS
  local id
  for id in $(taskmanager_ids); do
    [[ " $1 " == *" $id "* ]] || { NEW_TM=$id; return 0; }
  done
  return 1
}

# Some subtask of the job runs on TaskManager TM_ID.
job_uses_taskmanager() { # JOB_ID TM_ID
  local v
  for v in $(curl -sf "$REST/jobs/$1" | json "' '.join(v['id'] for v in d['vertices'])"); do
    curl -sf "$REST/jobs/$1/vertices/$v/taskmanagers" | json "' '.join(t['taskmanager-id'] for t in d['taskmanagers'])" \
      | grep -qw -- "$2" && return 0
  done
  return 1
}

# The sink: stock -> kjson -> stock through two savepoints, each phase running a few checkpoints.
run_switch() {
  local started=$SECONDS
  run_switch_phases switch write_switch_sql await_finish
  SWITCH_SECONDS=$((SECONDS - started))
  log "switch kafka -> kjson-kafka -> kafka finished in ${SWITCH_SECONDS}s"
}

# The source: the copy job reading through kafka, kjson-kafka, kafka (the sink stays 'kafka').
run_source_switch() {
  local started=$SECONDS
  run_switch_phases source-switch write_source_switch_sql stop_when_copied
  SOURCE_SWITCH_SECONDS=$((SECONDS - started))
  log "source switch kafka -> kjson-kafka -> kafka finished in ${SOURCE_SWITCH_SECONDS}s"
}

# The first two phases read throttled, so that their savepoints land mid-topic; the last reads the
# rest at the consumer's defaults.
write_source_switch_sql() { # FILE JOB CONNECTOR SAVEPOINT LAST
  local throttle=1
  [[ $5 == 1 ]] && throttle=0
  write_copy_sql "$1" "$2" "$3" kafka source-switch "$throttle" "$4"
}

# The sink switch's last job: datagen ends, and so does the job.
await_finish() { # JOB
  wait_until "$(finish_timeout)" "$1 to finish" job_finished "$JOB_ID"
}

# The source switch's last job: a Kafka source restored from a savepoint never finishes, even a
# bounded one. Flink's enumerator (kjson-kafka's too) signals the end of the splits only after a discovery
# that finds new partitions, and a restored one finds none: the readers stop at the
# end offsets and wait. So once the output holds every row, the job is stopped with a savepoint,
# which commits its last transaction; should the job finish on its own, that is as good.
stop_when_copied() { # JOB
  local savepoint
  wait_until "$(finish_timeout)" "every row of $1 in copy-source-switch" copied "$JOB_ID"
  job_finished "$JOB_ID" && return
  savepoint=$(stop_with_savepoint "$JOB_ID")
  log "$1 (every row copied) stopped with savepoint $savepoint"
}

# The output topic holds every row. Counting it starts a JVM that reads the topic, so it waits
# until the source has read its splits to their end (or the job finished).
copied() { # JOB_ID
  { job_finished "$1" || source_drained "$1"; } && topic_check count "$BOOTSTRAP" copy-source-switch "$ROWS"
}

# No source subtask has a partition left: Flink's split reader unassigns a partition once it has
# read it to its stopping offset (the consumer's assigned-partitions metric, highest subtask).
source_drained() { # JOB_ID
  local vertex metrics name
  vertex=$(curl -sf "$REST/jobs/$1" | json "next(v['id'] for v in d['vertices'] if v['name'].startswith('Source'))") \
    || return 1
  metrics=$REST/jobs/$1/vertices/$vertex/subtasks/metrics
  name=$(curl -sf "$metrics" | json "next(m['id'] for m in d if m['id'].endswith('KafkaConsumer.assigned-partitions'))") \
    || return 1
  [[ $(curl -sfG "$metrics" --data-urlencode "get=$name" | json "d[0]['max']") == 0.0 ]]
}

# Three jobs NAME-1..3 on kafka, kjson-kafka, kafka, each resuming from the savepoint of the one
# before: WRITER FILE JOB CONNECTOR SAVEPOINT LAST writes a phase's SQL (LAST is 1 for the third);
# the first two stop with a savepoint after three checkpoints, ENDER JOB ends the third.
run_switch_phases() { # NAME WRITER ENDER
  local savepoint phase connector job previous=""
  for phase in 1 2 3; do
    connector=kafka
    [[ $phase == 2 ]] && connector=kjson-kafka
    job=$1-$phase
    "$2" "$WORK/$job.sql" "$job" "$connector" "$previous" "$((phase == 3))"
    submit "$WORK/$job.sql" "$job"
    wait_until 120 "job $job to run all its tasks" all_tasks_running "$JOB_ID"
    if [[ $phase == 3 ]]; then
      "$3" "$job"
      break
    fi
    wait_until 120 "three completed checkpoints of $job" checkpoints_at_least "$JOB_ID" 3
    job_finished "$JOB_ID" && die "$job finished before its savepoint; raise the row count"
    savepoint=$(stop_with_savepoint "$JOB_ID")
    log "$job ($connector) stopped with savepoint $savepoint"
    previous=$savepoint
  done
}

seconds_or_skipped() { if [[ -n $1 ]]; then echo "${1}s"; else echo skipped; fi; }

main() {
  local started=$SECONDS failed=0
  mkdir -p "$WORK/log"
  log "mode $MODE: $ROWS bid rows, $UPSERT_ROWS changelog rows over $KEYS keys; work directory $WORK"
  prepare_flink
  prepare_jars
  connector_jar
  write_config
  write_lib
  start_broker
  topic_check create "$BOOTSTRAP" 2 bids-stock bids-kjson counts-stock counts-kjson bids-switch \
    bids-meta-stock bids-meta-kjson copy-stock copy-kjson copy-source-switch \
    || die "creating topics failed: $(tail -5 "$WORK/log/topic-check.log")"
  start_jobmanager
  start_taskmanager taskmanager-1
  start_taskmanager taskmanager-2
  KILL_PID=$TM_PID
  TASKMANAGERS_STARTED=2
  wait_until 180 "two TaskManagers to register" taskmanagers_registered 2
  log "cluster up after $((SECONDS - started))s (REST $REST, broker $BOOTSTRAP)"

  run_reference
  [[ $RUN_CRASH == 1 ]] && run_crash
  [[ $RUN_SWITCH == 1 ]] && run_switch
  # The source switch's output is compared with the reference copy's.
  [[ $RUN_COPY == 1 || $RUN_SOURCE_SWITCH == 1 ]] && run_copy_reference
  [[ $RUN_COPY == 1 ]] && run_copy_crash
  [[ $RUN_SOURCE_SWITCH == 1 ]] && run_source_switch

  log "checking topics (read_committed)"
  if [[ $RUN_CRASH == 1 ]]; then
    topic_check append "$BOOTSTRAP" bids-kjson bids-stock "$ROWS" || failed=1
    topic_check upsert "$BOOTSTRAP" counts-kjson counts-stock "$UPSERT_ROWS" || failed=1
    topic_check metadata "$BOOTSTRAP" bids-meta-kjson bids-meta-stock "$ROWS" "$META_EVERY" || failed=1
  fi
  if [[ $RUN_SWITCH == 1 ]]; then
    topic_check append "$BOOTSTRAP" bids-switch bids-stock "$ROWS" || failed=1
  fi
  if [[ $RUN_COPY == 1 ]]; then
    topic_check append "$BOOTSTRAP" copy-kjson copy-stock "$ROWS" || failed=1
  fi
  if [[ $RUN_SOURCE_SWITCH == 1 ]]; then
    topic_check append "$BOOTSTRAP" copy-source-switch copy-stock "$ROWS" || failed=1
  fi
  echo "restarts after kill -9: crash ${CRASH_RESTARTS:-skipped}, copy ${COPY_RESTARTS:-skipped}; wall time:" \
    "reference job ${REFERENCE_SECONDS}s, crash job $(seconds_or_skipped "${CRASH_SECONDS:-}")," \
    "switch $(seconds_or_skipped "${SWITCH_SECONDS:-}"), copy reference $(seconds_or_skipped "${COPY_REFERENCE_SECONDS:-}")," \
    "copy crash $(seconds_or_skipped "${COPY_CRASH_SECONDS:-}"), source switch $(seconds_or_skipped "${SOURCE_SWITCH_SECONDS:-}")," \
    "total $((SECONDS - started))s ($MODE)"
  [[ $failed == 0 ]] || die "a topic check failed (see above)"
  log "PASS"
}

main
