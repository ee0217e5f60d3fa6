# Functions of scripts/cluster-test.sh (sourced, not run): a standalone Flink 2.2 cluster assembled
# from the PyPI wheel (one JobManager, TaskManagers as separate JVMs), a KRaft broker as its own
# process, the SQL client in embedded mode, and the REST calls the scenarios need. Everything
# listens on 127.0.0.1. Expects: CACHE, WORK, PORT_BASE, HERE, JAVA.
# shellcheck shell=bash

# shellcheck source=../lib/common.sh
source "$HERE/lib/common.sh"
FLINK_VERSION=$FLINK_2_2_VERSION
KAFKA_PORT=$((PORT_BASE + 20))
KAFKA_CONTROLLER_PORT=$((PORT_BASE + 21))
REST_PORT=$((PORT_BASE + 2))
BOOTSTRAP=127.0.0.1:$KAFKA_PORT
REST=http://127.0.0.1:$REST_PORT
PIDS=()

# The JVM flags Flink's config.yaml passes to every process (env.java.opts.all); the wheel has no
# bin/ scripts to add them. java.nio is opened for Arrow.
FLINK_JAVA_OPTS=(
  --add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED
  --add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

log() { printf '[cluster %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# The last warnings and errors of each process's log, for a failed run whose machine is gone (CI).
show_log_warnings() {
  local file
  for file in "$WORK"/log/*.log; do
    [[ -f $file ]] || continue
    echo "--- last warnings and errors in $(basename "$file")"
    grep -E '^[0-9-]+ [0-9:,]+ (WARN|ERROR) ' "$file" | grep -vE 'Name collision|RECEIVED SIGNAL' \
      | tail -n 4 | cut -c 1-400
  done >&2
}

# --- assembly ---------------------------------------------------------------------------------

# The distribution's lib/, opt/, plugins/ and bin/bash-java-utils.jar, unpacked once: from the
# wheel's pyflink/ folder (2.x), or from the deps/ folder of the source archive (1.20 has no wheel).
prepare_flink() {
  FLINK_HOME=$CACHE/flink-$FLINK_VERSION
  [[ -f $FLINK_HOME/lib/flink-dist-$FLINK_VERSION.jar ]] && return
  log "downloading apache-flink-libraries==$FLINK_VERSION from PyPI"
  mkdir -p "$CACHE/wheel"
  pip download --quiet --no-deps "apache-flink-libraries==$FLINK_VERSION" -d "$CACHE/wheel" \
    || die "pip download apache-flink-libraries==$FLINK_VERSION failed"
  local unpack=$CACHE/flink-unpack.$$ wheel sdist
  wheel=$(compgen -G "$CACHE/wheel/apache_flink_libraries-$FLINK_VERSION-*.whl" | head -1 || true)
  sdist=$CACHE/wheel/apache-flink-libraries-$FLINK_VERSION.tar.gz
  rm -rf "$unpack" && mkdir -p "$unpack"
  if [[ -n $wheel ]]; then
    (cd "$unpack" && unzip -q "$wheel" 'pyflink/lib/*' 'pyflink/opt/*' 'pyflink/bin/*' && mv pyflink dist) \
      || die "unpacking $wheel failed"
  elif [[ -f $sdist ]]; then
    { tar -xzf "$sdist" -C "$unpack" "apache-flink-libraries-$FLINK_VERSION/deps" \
      && mv "$unpack/apache-flink-libraries-$FLINK_VERSION/deps" "$unpack/dist"; } || die "unpacking $sdist failed"
  else
    die "pip left neither a wheel nor a source archive of apache-flink-libraries $FLINK_VERSION in $CACHE/wheel"
  fi
  rm -rf "$FLINK_HOME" && mv "$unpack/dist" "$FLINK_HOME" && rm -rf "$unpack"
}

# Kafka broker classpath, the stock Kafka SQL connector and the SQL gateway jar, from Maven Central once.
prepare_jars() {
  JARS=$CACHE/cluster-jars-$FLINK_VERSION
  [[ -f $JARS/done ]] && return
  log "resolving the Kafka broker and Flink jars with Maven"
  mvn -q -f "$HERE/cluster/pom.xml" -Pbroker dependency:copy-dependencies -DoutputDirectory="$JARS/broker" \
    || die "resolving the Kafka broker jars failed"
  mvn -q -f "$HERE/cluster/pom.xml" -Pflink dependency:copy-dependencies -DoutputDirectory="$JARS/flink" \
    || die "resolving flink-sql-connector-kafka / flink-sql-gateway failed"
  touch "$JARS/done"
}

# lib/ of this run: the wheel's lib/, the stock Kafka SQL connector and the kjson connector.
write_lib() {
  mkdir -p "$WORK/lib"
  ln -sf "$FLINK_HOME"/lib/*.jar "$JARS"/flink/flink-sql-connector-kafka-*.jar "$WORK/lib/"
  ln -sf "$CONNECTOR_JAR" "$WORK/lib/"
  local jar
  FLINK_CLASSPATH=""
  for jar in "$WORK"/lib/*.jar; do
    [[ $jar == */flink-dist* ]] || FLINK_CLASSPATH+="$jar:"
  done
  FLINK_CLASSPATH+=$FLINK_HOME/lib/flink-dist-$FLINK_VERSION.jar
}

write_config() {
  mkdir -p "$WORK/conf" "$WORK/log" "$WORK/checkpoints" "$WORK/savepoints"
  sed -e "s|@PORT_BASE@|$PORT_BASE|g" -e "s|@WORK@|$WORK|g" \
    -e "s|@JM_RPC_PORT@|$((PORT_BASE + 1))|g" -e "s|@REST_PORT@|$REST_PORT|g" \
    -e "s|@BLOB_PORT@|$((PORT_BASE + 3))|g" "$HERE/cluster/config.yaml" > "$WORK/conf/config.yaml"
  cp "$HERE/cluster/log4j.properties" "$WORK/conf/log4j.properties"
  cp "$HERE/cluster/log4j.properties" "$WORK/conf/log4j-cli.properties"
}

# The connector jar for lib/ (sets CONNECTOR_JAR): KJSON_CLUSTER_JAR, or jvm/kjson-flink-sql built now.
connector_jar() {
  if [[ -n ${KJSON_CLUSTER_JAR:-} ]]; then
    [[ -f $KJSON_CLUSTER_JAR ]] || die "KJSON_CLUSTER_JAR=$KJSON_CLUSTER_JAR does not exist"
    CONNECTOR_JAR=$(realpath "$KJSON_CLUSTER_JAR")   # lib/ links to it from the work directory
    return
  fi
  log "building the connector jar (mvn -pl kjson-flink-sql -am package)"
  nice mvn -q -f "$KJSON_ROOT/jvm/pom.xml" -pl kjson-flink-sql -am package -DskipTests > "$WORK/log/build.log" 2>&1 \
    || die "building kjson-flink-sql failed: $(tail -20 "$WORK/log/build.log")"
  CONNECTOR_JAR=$(compgen -G "$KJSON_ROOT/jvm/kjson-flink-sql/target/kjson-flink-sql-connector-kafka-*-2.2.jar" | head -1) \
    || die "no connector jar in $KJSON_ROOT/jvm/kjson-flink-sql/target"
}

# render TEMPLATE KEY=VALUE...: scripts/cluster/sql/TEMPLATE with @KEY@ replaced.
render() {
  local file=$1 pair args=()
  shift
  for pair in "$@"; do args+=(-e "s|@${pair%%=*}@|${pair#*=}|g"); done
  sed "${args[@]}" "$HERE/cluster/sql/$file"
}

# --- processes --------------------------------------------------------------------------------

# The memory flags and dynamic options BashJavaUtils derives from config.yaml (as Flink's scripts do).
resource_params() { # GET_JM_RESOURCE_PARAMS | GET_TM_RESOURCE_PARAMS
  "$JAVA" -cp "$FLINK_HOME/bin/bash-java-utils.jar:$FLINK_HOME/lib/flink-dist-$FLINK_VERSION.jar" \
    org.apache.flink.runtime.util.bash.BashJavaUtils "$1" --configDir "$WORK/conf" 2>/dev/null \
    | grep '^BASH_JAVA_UTILS_EXEC_RESULT:' | sed 's/^BASH_JAVA_UTILS_EXEC_RESULT://' | tail -2
}

start_flink_process() { # NAME MAIN_CLASS PARAMS_COMMAND [ARGS...]
  local name=$1 main=$2 params jvm dynamic
  params=$(resource_params "$3") || die "BashJavaUtils $3 failed"
  jvm=$(sed -n 1p <<< "$params")
  dynamic=$(sed -n 2p <<< "$params")
  [[ -n $jvm ]] || die "BashJavaUtils $3 printed no JVM parameters"
  # shellcheck disable=SC2086 # the flags are space-separated words
  nice -n 5 "$JAVA" $jvm "${FLINK_JAVA_OPTS[@]}" -Dlog.file="$WORK/log/$name.log" \
    -Dlog4j.configurationFile="file:$WORK/conf/log4j.properties" -classpath "$FLINK_CLASSPATH" \
    "$main" --configDir "$WORK/conf" "${@:4}" $dynamic > "$WORK/log/$name.out" 2>&1 &
  echo $!
}

start_jobmanager() {
  JM_PID=$(start_flink_process jobmanager org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
    GET_JM_RESOURCE_PARAMS --executionMode cluster)
  PIDS+=("$JM_PID")
  wait_until 180 "the JobManager's REST API on $REST" rest_up
}

# Every TaskManager of a run gets an RPC port no earlier one had: a replacement on the killed one's
# address can find the JobManager's remoting still holding the dead association and never register.
TM_PORTS_USED=0
start_taskmanager() { # NAME; sets TM_PID
  local port=$((PORT_BASE + 4 + TM_PORTS_USED))
  ((port < KAFKA_PORT)) || die "no RPC port left for $1 (a run starts at most 16 TaskManagers)"
  TM_PORTS_USED=$((TM_PORTS_USED + 1))
  TM_PID=$(start_flink_process "$1" org.apache.flink.runtime.taskexecutor.TaskManagerRunner GET_TM_RESOURCE_PARAMS \
    -D "taskmanager.rpc.port=$port")
  PIDS+=("$TM_PID")
}

rest_up() { curl -sf "$REST/overview" > /dev/null; }

taskmanagers_registered() { # COUNT
  [[ $(curl -sf "$REST/overview" | json "d['taskmanagers']") -ge $1 ]] 2>/dev/null
}

start_broker() {
  mkdir -p "$WORK/kafka"
  sed -e "s|@KAFKA_PORT@|$KAFKA_PORT|g" -e "s|@KAFKA_CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" \
    -e "s|@LOG_DIR@|$WORK/kafka/data|g" "$HERE/cluster/server.properties" > "$WORK/kafka/server.properties"
  local uuid
  uuid=$("$JAVA" -cp "$JARS/broker/*" kafka.tools.StorageTool random-uuid 2> "$WORK/log/kafka-format.log") \
    || die "kafka.tools.StorageTool random-uuid failed: $(tail -5 "$WORK/log/kafka-format.log")"
  "$JAVA" -cp "$JARS/broker/*" kafka.tools.StorageTool format -t "$uuid" -c "$WORK/kafka/server.properties" \
    >> "$WORK/log/kafka-format.log" 2>&1 || die "formatting the Kafka log directory failed: $(tail -5 "$WORK/log/kafka-format.log")"
  nice -n 5 "$JAVA" -Xms256m -Xmx512m -XX:+UseG1GC -Dlog4j2.configurationFile="file:$HERE/cluster/log4j2-kafka.properties" \
    -cp "$JARS/broker/*" kafka.Kafka "$WORK/kafka/server.properties" > "$WORK/log/kafka.log" 2>&1 &
  KAFKA_PID=$!
  PIDS+=("$KAFKA_PID")
  wait_until 180 "the Kafka broker on $BOOTSTRAP" broker_up
}

broker_up() { (exec 3<> "/dev/tcp/127.0.0.1/$KAFKA_PORT") 2> /dev/null && grep -q "Kafka Server started" "$WORK/log/kafka.log"; }

# TopicCheck.java with the project's read_committed reader (a test class of jvm/kjson-flink-sql that
# needs kafka-clients only), compiled once per run against the broker's jars.
topic_check() {
  local classes=$WORK/topic-check
  if [[ ! -f $classes/TopicCheck.class ]]; then
    mkdir -p "$classes"
    "${JAVA%java}javac" -nowarn -d "$classes" -cp "$JARS/broker/*" "$HERE/cluster/TopicCheck.java" \
      "$HERE/../jvm/kjson-flink-sql/src/test/java/org/kjson/flink/sql/broker/TopicReader.java" \
      "$HERE/../jvm/kjson-flink-sql/src/test/java/org/kjson/flink/sql/broker/TopicRecord.java" \
      >> "$WORK/log/topic-check.log" 2>&1 || die "compiling TopicCheck failed: $(tail -20 "$WORK/log/topic-check.log")"
  fi
  "$JAVA" -cp "$JARS/broker/*:$classes" TopicCheck "$@" 2>> "$WORK/log/topic-check.log"
}

stop_all() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 30); do kill -0 "$pid" 2> /dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2> /dev/null || true
  done
  PIDS=()
}

# --- SQL client and REST ----------------------------------------------------------------------

# Runs a SQL file in the embedded SQL client (it submits the INSERTs and returns).
sql_client() { # FILE
  FLINK_CONF_DIR=$WORK/conf timeout 300 nice -n 5 "$JAVA" -Xmx512m "${FLINK_JAVA_OPTS[@]}" \
    -Dlog.file="$WORK/log/sql-client.log" -Dlog4j.configurationFile="file:$WORK/conf/log4j-cli.properties" \
    -classpath "$FLINK_HOME/opt/flink-sql-client-$FLINK_VERSION.jar:$JARS/flink/flink-sql-gateway-$FLINK_VERSION.jar:$FLINK_HOME/opt/flink-python-$FLINK_VERSION.jar:$FLINK_CLASSPATH" \
    org.apache.flink.table.client.SqlClient -f "$1" > "$1.out" 2>&1 \
    || die "the SQL client failed on $1: $(tail -20 "$1.out")"
  # The client reports a failed statement on its output and still exits 0.
  if grep -q 'ERROR\]' "$1.out"; then
    die "the SQL client failed on $1: $(grep -A 12 'ERROR\]' "$1.out" | head -30)"
  fi
}

json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)" 2> /dev/null; }

job_id() { # NAME: the newest job of that name
  curl -sf "$REST/jobs/overview" | json "max((j for j in d['jobs'] if j['name']=='$1'), key=lambda j: j['start-time'])['jid']"
}
job_state() { curl -sf "$REST/jobs/$1" | json "d['state']"; }
# Restarts of the job so far (the JobManager logs each one; metrics vanish when the job ends).
job_restarts() { grep -c "($1) switched from state RUNNING to RESTARTING" "$WORK/log/jobmanager.log" || true; }
completed_checkpoints() { curl -sf "$REST/jobs/$1/checkpoints" | json "d['counts']['completed']"; }
job_running() { [[ $(job_state "$1") == RUNNING ]] 2> /dev/null; }
job_finished() {
  local state
  state=$(job_state "$1") || return 1
  [[ $state == FAILED || $state == CANCELED ]] && die "job $1 is $state: $(curl -sf "$REST/jobs/$1/exceptions" | head -c 3000)"
  [[ $state == FINISHED ]]
}
checkpoints_at_least() { [[ $(completed_checkpoints "$1") -ge $2 ]] 2> /dev/null; }

# Every subtask of the job RUNNING (after a restart the job is RUNNING before its tasks are).
all_tasks_running() {
  [[ $(curl -sf "$REST/jobs/$1" | json "all(v['status']=='RUNNING' for v in d['vertices'])") == True ]] 2> /dev/null
}

# stop-with-savepoint; prints the savepoint path.
stop_with_savepoint() { # JOB_ID
  local trigger location=""
  trigger=$(curl -sf -X POST -H 'Content-Type: application/json' \
    -d "{\"drain\": false, \"targetDirectory\": \"file://$WORK/savepoints\"}" "$REST/jobs/$1/stop" | json "d['request-id']") \
    || die "stop-with-savepoint of job $1 was refused"
  for _ in $(seq 1 120); do
    location=$(curl -sf "$REST/jobs/$1/savepoints/$trigger" \
      | json "d['operation'].get('location') or ('FAILED: ' + str(d['operation'].get('failure-cause',{}).get('stack-trace','')[:2000])) if d['status']['id']=='COMPLETED' else ''")
    [[ -n $location ]] && break
    sleep 1
  done
  [[ $location == FAILED* || -z $location ]] && die "stop-with-savepoint of job $1: ${location:-no result within 120 s}"
  echo "$location"
}

# Polls CONDITION ARGS... every second for at most SECONDS; fails naming WHAT.
wait_until() { # SECONDS WHAT CONDITION [ARGS...]
  local limit=$1 what=$2 i
  for ((i = 0; i < limit; i++)); do
    "${@:3}" && return 0
    sleep 1
  done
  die "timed out after ${limit}s waiting for $what (logs: $WORK/log)"
}
