#!/usr/bin/env bash
# paynotify end-to-end benchmark (issues 6 and 14), one command:
#   builds the service and the bench project, creates a scratch database, starts the service in the prod profile
#   on 127.0.0.1, then
#   1. the pgbench ceiling: the statements the pre-batching intake runs (bench/pgbench/*.sql), one notification per
#      transaction, at the service's pool size, with the service paused and the disk settled;
#   2. the open-loop load against the one instance (bench/src/main/java/io/paynotify/bench/LoadDriver.java): the max
#      sustained rate, the CPU per notification of the service and of PostgreSQL at it, p99 at 50 % of it, the
#      database check;
#   3. a second instance on the same database, the load round-robin over both: the aggregate max rate and the
#      exactly-once check;
#   4. the pgbench ceiling again, the services paused and the disk settled;
#   5. the webhook run of issue 6 (WEBHOOKS=0 skips it): the service restarted with a subscribed merchant;
#   6. a short CPU-time pass of the verification benchmarks (CpuCheck; JMH=0 skips it);
#   and prints issue 24's table (every figure against its goal, the host's disturbance per step), then the detailed
#   table (result.md in the run directory). The services, the scratch database (and a PG=private cluster) are
#   removed at the end.
#
# Needs: JDK 17, Maven 3.8, a PostgreSQL 15 reachable at 127.0.0.1:5432 as user postgres without a password (as
# for the tests), psql and pgbench (postgresql-client-15 / the server package); for PG=private the server binaries
# (/usr/lib/postgresql/15/bin: initdb, pg_ctl). Everything else comes from Maven.
#
# Environment (all optional):
#   PGBENCH=path        pgbench binary (default: /usr/lib/postgresql/15/bin/pgbench, else the one on PATH)
#   PORT=18089          the first instance's HTTP port (the second: PORT2=18091)
#   MGMT_PORT=19089     its management port (health, metrics; the second: MGMT_PORT2=19091)
#   DUP=0.5             share of duplicate deliveries (the load's and pgbench's)
#   STEP_SECONDS=15     length of the confirmation and latency steps (probes are 5 s)
#   PGBENCH_SECONDS=15  length of each pgbench run
#   LATENCY_STEPS=50    the latency steps, in % of the max (e.g. 25,50,75)
#   TWO_INSTANCES=1     0 skips the two-instance run
#   SETTLE_MIB=32       the disk counts as settled when Dirty + Writeback (/proc/meminfo) fall below this ...
#   SETTLE_DEADLINE=90  ... or after this many seconds, whichever comes first (the table says which)
#   PROFILE=1           record a JFR profile of the first instance into the run directory, summarised in the table
#   ATTRIBUTE=1         attribute PostgreSQL's work per notification (pg_stat_statements, commits, WAL, tuples) over
#                       the 50 % step and the webhook run's same-rate step; implies PG=private unless PG is given
#   PG=shared|private   shared (default): the server at 127.0.0.1:5432; private: initdb a scratch cluster on a free
#                       port with pg_stat_statements preloaded and the shared server's settings, removed at the end
#                       (its figures are not comparable with the shared server's without saying so)
#   PG_BIN=dir          the server binaries for PG=private (default /usr/lib/postgresql/15/bin)
#   JMH=0               skip the CPU-time verification pass (CpuCheck); JMH_SECONDS=2 JMH_ROUNDS=3 its length
#   MVN_FLAGS           extra Maven flags for the build (e.g. -o)
#   SKIP_BUILD=1        reuse the last build
#   SERVICE_JAVA_OPTS   JVM options of the services (default: -Xms256m -Xmx512m)
#   POOL=n              each instance's connection pool size and pgbench's clients (default: the
#                       quarkus.datasource.jdbc.max-size of application.properties)
#   WEBHOOKS=0          skip the webhook run (max rate with a subscribed webhook, delivery lag; ~3 min)
#   WEBHOOK_PORT=18090  the webhook receiver's port on 127.0.0.1
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH="$ROOT/bench"
PORT=${PORT:-18089}
MGMT_PORT=${MGMT_PORT:-19089}
PORT2=${PORT2:-18091}
MGMT_PORT2=${MGMT_PORT2:-19091}
DUP=${DUP:-0.5}
STEP_SECONDS=${STEP_SECONDS:-15}
PGBENCH_SECONDS=${PGBENCH_SECONDS:-15}
LATENCY_STEPS=${LATENCY_STEPS:-50}
TWO_INSTANCES=${TWO_INSTANCES:-1}
SETTLE_MIB=${SETTLE_MIB:-32}
SETTLE_DEADLINE=${SETTLE_DEADLINE:-90}
SERVICE_JAVA_OPTS=${SERVICE_JAVA_OPTS:--Xms256m -Xmx512m}
WEBHOOK_PORT=${WEBHOOK_PORT:-18090}
WEBHOOKS=${WEBHOOKS:-1}
ATTRIBUTE=${ATTRIBUTE:-0}
PG=${PG:-$([ "$ATTRIBUTE" = 1 ] && echo private || echo shared)}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
JMH=${JMH:-1}
JMH_SECONDS=${JMH_SECONDS:-2}
JMH_ROUNDS=${JMH_ROUNDS:-3}
PGHOST=127.0.0.1
PGUSER=postgres
PGPORT=5432
export PGHOST PGUSER PGPORT
PRIVATE_DIR=""
DB="paynotify_bench_$$"
RUN="$BENCH/target/run-$(date -u +%Y%m%dT%H%M%SZ)"
SERVICE_PIDS=()
SYNC_PID=""
SAMPLER_PID=""

PGBENCH=${PGBENCH:-/usr/lib/postgresql/15/bin/pgbench}
[ -x "$PGBENCH" ] || PGBENCH=$(command -v pgbench || true)
for tool in java mvn psql "$PGBENCH"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "run.sh: $tool not found (see the README's Performance section)" >&2; exit 2; }
done
psql -d postgres -Atqc 'select 1' >/dev/null || { echo "run.sh: PostgreSQL is not reachable at 127.0.0.1:5432" >&2; exit 2; }
case "$PG" in shared|private) ;; *) echo "run.sh: PG must be shared or private" >&2; exit 2 ;; esac
AS_PG=()
[ "$(id -u)" = 0 ] && AS_PG=(runuser -u postgres --)

# every port must be free: a readiness probe answered by another checkout's service would measure that one. A port
# in use moves to the next free one (said so)
TAKEN=" "
free_port() {
  local want=${!1} p=${!1}
  while (echo >"/dev/tcp/127.0.0.1/$p") 2>/dev/null || [[ "$TAKEN" == *" $p "* ]]; do p=$((p + 1)); done
  TAKEN="$TAKEN$p "
  [ "$p" = "$want" ] || echo "run.sh: port $want ($1) is in use, using $p" >&2
  printf -v "$1" '%s' "$p"
}
for var in PORT MGMT_PORT PORT2 MGMT_PORT2 WEBHOOK_PORT; do free_port "$var"; done

stop_services() {
  local pid
  for pid in "${SERVICE_PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -CONT "$pid" 2>/dev/null || true
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  SERVICE_PIDS=()
}

cleanup() {
  stop_services
  if [ -n "$SAMPLER_PID" ] && kill -0 "$SAMPLER_PID" 2>/dev/null; then
    kill "$SAMPLER_PID" 2>/dev/null || true
    wait "$SAMPLER_PID" 2>/dev/null || true
  fi
  if [ -n "$SYNC_PID" ] && kill -0 "$SYNC_PID" 2>/dev/null; then
    echo "run.sh: waiting for the last sync to finish" >&2
    wait "$SYNC_PID" 2>/dev/null || true
  fi
  psql -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  if [ -n "$PRIVATE_DIR" ]; then
    "${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$PRIVATE_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    [ -d "$RUN" ] && cp "$PRIVATE_DIR/postgres.log" "$RUN/private-postgres.log" 2>/dev/null || true
    rm -rf "$PRIVATE_DIR"
  fi
}
trap cleanup EXIT

started=$(date +%s)
if [ -z "${SKIP_BUILD:-}" ]; then
  echo "== build"
  # the simulator (its own project, for the tests) is left out: its verify would run its tests despite -DskipTests.
  # Nothing is installed into the local Maven repository (other checkouts share it): the bench compiles against a
  # jar of this checkout's classes, and target/classes comes first on the class path (as bench/jmh.sh does)
  # shellcheck disable=SC2086
  (cd "$ROOT" && mvn -B -q ${MVN_FLAGS:-} package -DskipTests -Dsimulator.skip=true)
  mkdir -p "$BENCH/target"
  jar cf "$BENCH/target/paynotify-classes.jar" -C "$ROOT/target/classes" .
  # shellcheck disable=SC2086
  (cd "$BENCH" && mvn -B -q ${MVN_FLAGS:-} package -Dpaynotify.classes="$BENCH/target/paynotify-classes.jar")
fi
mkdir -p "$RUN"
CP="$ROOT/target/classes:$BENCH/target/classes:$(cat "$BENCH/target/classpath.txt")"

# PG=private: a scratch cluster of our own, on a free port, with pg_stat_statements preloaded (the shared server
# on 5432 is never restarted or reconfigured: other work uses it) and the shared server's settings that shape the
# work per notification copied over
if [ "$PG" = private ]; then
  PRIVATE_DIR=$(mktemp -d /tmp/paynotify-bench-pg.XXXXXX)
  chmod 755 "$PRIVATE_DIR"
  [ "${#AS_PG[@]}" -gt 0 ] && chown postgres "$PRIVATE_DIR"
  "${AS_PG[@]}" "$PG_BIN/initdb" -D "$PRIVATE_DIR/data" -U postgres --auth=trust -E UTF8 --no-instructions >/dev/null
  {
    echo "# copied from the shared server by bench/run.sh"
    for name in shared_buffers synchronous_commit fsync full_page_writes wal_level wal_buffers wal_compression \
        max_wal_size min_wal_size checkpoint_timeout checkpoint_completion_target commit_delay commit_siblings \
        work_mem maintenance_work_mem autovacuum jit default_toast_compression random_page_cost \
        effective_io_concurrency effective_cache_size max_connections huge_pages wal_writer_delay bgwriter_delay; do
      echo "$name = '$(psql -d postgres -Atqc "SELECT current_setting('$name')")'"
    done
    echo "shared_preload_libraries = 'pg_stat_statements'"
    echo "pg_stat_statements.track = top"
    echo "pg_stat_statements.max = 10000"
    echo "cluster_name = 'paynotify-bench'"
    echo "listen_addresses = '127.0.0.1'"
    echo "unix_socket_directories = '$PRIVATE_DIR'"
  } >>"$PRIVATE_DIR/data/postgresql.conf"
  # a free port: another checkout may start its own cluster at the same moment, so a failed start tries another
  started_pg=""
  for _ in 1 2 3 4 5; do
    port=$((55432 + RANDOM % 2000))
    (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && continue
    if "${AS_PG[@]}" "$PG_BIN/pg_ctl" -D "$PRIVATE_DIR/data" -l "$PRIVATE_DIR/postgres.log" -o "-p $port" -w start >/dev/null; then
      started_pg=1
      break
    fi
  done
  [ -n "$started_pg" ] || { echo "run.sh: the private cluster did not start:" >&2; tail -5 "$PRIVATE_DIR/postgres.log" >&2; exit 1; }
  PGPORT=$port
  echo "== PG=private: a scratch cluster on 127.0.0.1:$PGPORT ($PRIVATE_DIR), the shared server's settings, pg_stat_statements preloaded"
fi
JDBC="jdbc:postgresql://127.0.0.1:$PGPORT/$DB?user=postgres&reWriteBatchedInserts=true"

echo "== scratch database $DB, run directory $RUN"
psql -d postgres -qc "CREATE DATABASE $DB" >/dev/null
if [ "$ATTRIBUTE" = 1 ]; then
  if [ "$(psql -d postgres -Atqc "SELECT current_setting('shared_preload_libraries') LIKE '%pg_stat_statements%'")" = t ]; then
    psql -d "$DB" -qc "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
  else
    echo "run.sh: ATTRIBUTE=1 without pg_stat_statements preloaded (PG=$PG): no statement list, the rest only" >&2
  fi
fi
ATTRIBUTE_OPTS=(attribute="$ATTRIBUTE" attribution-out="$RUN/attribution.md")
# on a private cluster only its own shared processes (WAL writer, checkpointer, background writer) are the run's
CLUSTER_OPTS=()
[ "$PG" = private ] && CLUSTER_OPTS=(pg-cluster=paynotify-bench)
java -cp "$CP" io.paynotify.bench.LoadDriver config "$RUN" "$WEBHOOK_PORT"

POOL=${POOL:-$(sed -n 's/^quarkus\.datasource\.jdbc\.max-size=\([0-9]*\).*/\1/p' "$ROOT/src/main/resources/application.properties" | head -1)}
POOL=${POOL:-20}

# start_service CONFIG_LOCATIONS LOG JFR_FILE HTTP_PORT MGMT_PORT: one instance from target/quarkus-app in the prod
# profile, on 127.0.0.1, until ready; its pid is appended to SERVICE_PIDS
start_service() {
  local jfr="" pid
  if [ -n "${PROFILE:-}" ] && [ -n "$3" ]; then
    jfr="-XX:StartFlightRecording=filename=$3,settings=profile,dumponexit=true"
  fi
  # shellcheck disable=SC2086
  QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:$PGPORT/$DB" \
    java $SERVICE_JAVA_OPTS $jfr \
      -Dquarkus.config.locations="$1" \
      -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$4" -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$5" -Dquarkus.datasource.jdbc.max-size="$POOL" \
      -jar "$ROOT/target/quarkus-app/quarkus-run.jar" >"$2" 2>&1 &
  pid=$!
  SERVICE_PIDS+=("$pid")
  for _ in $(seq 1 180); do
    if curl -fs "http://127.0.0.1:$5/q/health/ready" >/dev/null 2>&1; then break; fi
    kill -0 "$pid" 2>/dev/null || { echo "run.sh: the service did not start:" >&2; tail -20 "$2" >&2; exit 1; }
    sleep 0.5
  done
  curl -fs "http://127.0.0.1:$5/q/health/ready" >/dev/null || { echo "run.sh: the service is not ready" >&2; exit 1; }
}

# settle_disk: CHECKPOINT (PostgreSQL writes and fsyncs its dirty buffers), then a sync of everything else the
# machine has dirty (the build's, the bulk inserts', the neighbours'), polling /proc/meminfo until Dirty + Writeback
# fall below SETTLE_MIB or SETTLE_DEADLINE passes. Sets SETTLE_SECONDS, SETTLE_MIB_NOW, SETTLE_REACHED.
dirty_mib() { awk '/^(Dirty|Writeback):/ { s += $2 } END { printf "%.1f", s / 1024 }' /proc/meminfo; }
settle_disk() {
  local t0 now
  t0=$(date +%s.%N)
  psql -d "$DB" -qc "CHECKPOINT" >/dev/null
  if [ -z "$SYNC_PID" ] || ! kill -0 "$SYNC_PID" 2>/dev/null; then
    sync &
    SYNC_PID=$!
  fi
  SETTLE_REACHED=false
  while :; do
    SETTLE_MIB_NOW=$(dirty_mib)
    now=$(date +%s.%N)
    SETTLE_SECONDS=$(awk -v a="$t0" -v b="$now" 'BEGIN { printf "%.1f", b - a }')
    if awk -v m="$SETTLE_MIB_NOW" -v t="$SETTLE_MIB" 'BEGIN { exit !(m < t) }'; then SETTLE_REACHED=true; break; fi
    if awk -v s="$SETTLE_SECONDS" -v d="$SETTLE_DEADLINE" 'BEGIN { exit !(s >= d) }'; then break; fi
    sleep 0.2
  done
  echo "disk settled: ${SETTLE_SECONDS} s after the CHECKPOINT, Dirty + Writeback ${SETTLE_MIB_NOW} MiB" \
    "(threshold $SETTLE_MIB MiB: $([ "$SETTLE_REACHED" = true ] && echo reached || echo "NOT reached, deadline ${SETTLE_DEADLINE} s"))"
}

# the pgbench data: PENDING orders for each ceiling run ('P' || n, a disjoint range each, every one paid once at
# most), and paid orders for the duplicates ('D' || n, each with its transaction id and one APPLIED notification)
SPAN=$(( PGBENCH_SECONDS * 10000 > 50000 ? PGBENCH_SECONDS * 10000 : 50000 ))
NPAID=20000
# raw body, decoded JSON and event JSON of the sizes the load's notifications have on average (measured in the
# notifications and events tables after a run: raw_body 913 B, decoded 134 B over all three providers (404 B on v3,
# none on v2 and Alipay), the order.paid event 454 B)
hex() { head -c "$1" /dev/zero | tr '\0' "$2" | od -v -An -tx1 | tr -d ' \n'; }
PG_BODY="\\x$(hex 913 a)"
PG_DECODED=$(head -c 134 /dev/zero | tr '\0' 'd')
PG_EVENT="\\x$(hex 454 e)"
APPLIED_WEIGHT=$(awk -v d="$DUP" 'BEGIN { printf "%d", (1 - d) * 100 + 0.5 }')
DUP_WEIGHT=$((100 - APPLIED_WEIGHT))
SCRIPTS=(-f "$BENCH/pgbench/applied.sql@$APPLIED_WEIGHT")
[ "$DUP_WEIGHT" -gt 0 ] && SCRIPTS+=(-f "$BENCH/pgbench/duplicate.sql@$DUP_WEIGHT")

# ceiling LABEL BASE: pgbench with every service paused (SIGSTOP: an idle JVM's JIT, timers and pool validation
# must not share the two cores) and the disk settled; writes $RUN/ceiling-LABEL.properties and pgbench-LABEL.log
ceiling() {
  local label=$1 base=$2 pid tps failed txns pgbench_us rc
  for pid in "${SERVICE_PIDS[@]}"; do kill -STOP "$pid"; done
  settle_disk
  # the CPU of the database's backends while pgbench runs (they end with it: a sampler keeps their last readings)
  rm -f "$RUN/pgcpu-$label.ready" "$RUN/pgcpu-$label.properties"
  java -cp "$CP" io.paynotify.bench.LoadDriver pgsample db="$DB" out="$RUN/pgcpu-$label.properties" \
    ready="$RUN/pgcpu-$label.ready" "${CLUSTER_OPTS[@]}" &
  SAMPLER_PID=$!
  for _ in $(seq 1 200); do [ -f "$RUN/pgcpu-$label.ready" ] && break; sleep 0.1; done
  # (pgbench's -d is --debug, not the database: the database is the last, positional argument); bash's time gives
  # pgbench's own CPU (user and system seconds), which the host's disturbance figure must not count as a neighbour's
  local TIMEFORMAT='%U %S'
  rc=0
  { time PGOPTIONS="-c search_path=paynotify" "$PGBENCH" -n -M prepared -c "$POOL" -j 2 -T "$PGBENCH_SECONDS" \
      -D ch=pgbench -D k=0 -D clients="$POOL" -D base="$base" -D span="$SPAN" -D npaid="$NPAID" \
      -D body="$PG_BODY" -D decoded="$PG_DECODED" -D event="$PG_EVENT" \
      "${SCRIPTS[@]}" "$DB" >"$RUN/pgbench-$label.log" 2>&1 || rc=$?; } 2>"$RUN/pgbench-$label.time"
  pgbench_us=$(awk '{ printf "%.0f", ($1 + $2) * 1e6 }' "$RUN/pgbench-$label.time")
  if [ "$rc" -ne 0 ]; then
    for pid in "${SERVICE_PIDS[@]}"; do kill -CONT "$pid"; done
    cat "$RUN/pgbench-$label.log" >&2
    exit 1
  fi
  for pid in "${SERVICE_PIDS[@]}"; do kill -CONT "$pid"; done
  kill "$SAMPLER_PID" 2>/dev/null || true
  wait "$SAMPLER_PID" 2>/dev/null || true
  SAMPLER_PID=""
  pgcpu=$(sed -n 's/^us=//p' "$RUN/pgcpu-$label.properties" 2>/dev/null || true)
  tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' "$RUN/pgbench-$label.log")
  failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$RUN/pgbench-$label.log")
  txns=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$RUN/pgbench-$label.log")
  printf 'tps=%s\nfailed=%s\ntransactions=%s\nclients=%s\nseconds=%s\nsettle.seconds=%s\nsettle.mib=%s\nsettle.reached=%s\npg-cpu-us=%s\npgbench-us=%s\nloadavg=%s\n' \
    "$tps" "${failed:-0}" "$txns" "$POOL" "$PGBENCH_SECONDS" "$SETTLE_SECONDS" "$SETTLE_MIB_NOW" "$SETTLE_REACHED" "$pgcpu" \
    "$pgbench_us" "$(cut -d' ' -f1 /proc/loadavg)" >"$RUN/ceiling-$label.properties"
  # the host during the run, as the sampler saw it (see Goals)
  grep -E '^(host\.|elapsed-us|pg-shared-us|sampler-us)' "$RUN/pgcpu-$label.properties" >>"$RUN/ceiling-$label.properties" || true
  echo "pgbench $label the load: $tps transactions/s at $POOL clients ($APPLIED_WEIGHT % applied, $DUP_WEIGHT % duplicate; $txns done, failed: ${failed:-0});" \
    "PostgreSQL backends $(awk -v u="$pgcpu" -v n="$txns" 'BEGIN { printf "%.0f", u / n }') us CPU per transaction"
  # the pgbench rows stay (their own channel) but their dead tuples should not weigh on what follows
  psql -d "$DB" -q -c "VACUUM ANALYZE paynotify.orders" -c "VACUUM ANALYZE paynotify.notifications" \
    -c "VACUUM ANALYZE paynotify.events" >/dev/null
}

echo "== instance 1 (prod profile) on 127.0.0.1:$PORT, connection pool $POOL, no webhook subscribed"
start_service "$RUN/service.properties" "$RUN/service.log" "$RUN/service.jfr" "$PORT" "$MGMT_PORT"
PID1=${SERVICE_PIDS[0]}

echo "== pgbench data: $((2 * SPAN)) pending orders, $NPAID paid ones"
psql -d "$DB" -q -v ON_ERROR_STOP=1 \
  -c "INSERT INTO paynotify.orders (channel, out_trade_no, provider, amount_minor, currency, state, created_at, updated_at)
      SELECT 'pgbench', 'P' || g, 'ALIPAY', 1999, 'CNY', 'PENDING', now(), now() FROM generate_series(1, $((2 * SPAN))) g" \
  -c "INSERT INTO paynotify.orders (channel, out_trade_no, provider, amount_minor, currency, state, transaction_id, paid_at,
        paid_provider_status, created_at, updated_at)
      SELECT 'pgbench', 'D' || g, 'ALIPAY', 1999, 'CNY', 'SUCCESS', 'TD' || g, now(), 'TRADE_SUCCESS', now(), now()
      FROM generate_series(1, $NPAID) g" \
  -c "INSERT INTO paynotify.notifications (channel, provider, out_trade_no, order_id, notify_id, provider_status,
        transaction_id, amount_minor, currency, outcome, raw_body, decoded, received_at)
      SELECT channel, provider, out_trade_no, id, 'N' || out_trade_no, 'TRADE_SUCCESS', transaction_id, 1999, 'CNY',
        'APPLIED', decode('$(hex 913 a)', 'hex'), repeat('d', 134), now()
      FROM paynotify.orders WHERE channel = 'pgbench' AND state = 'SUCCESS'" \
  -c "VACUUM ANALYZE paynotify.orders" -c "VACUUM ANALYZE paynotify.notifications" >/dev/null

echo "== ceiling before the load: pgbench, the pre-batching intake's statements, one notification per transaction"
LOADAVG_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
ceiling before 0

status=0
echo "== load, one instance"
LOADAVG_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
set +e
java -Xms1g -Xmx2g -cp "$CP" io.paynotify.bench.LoadDriver run \
  url="http://127.0.0.1:$PORT" jdbc="$JDBC" keys="$RUN/driver.keys" dup="$DUP" step-seconds="$STEP_SECONDS" \
  latency-steps="$LATENCY_STEPS" service-pid="$PID1" figures="$RUN/single.properties" \
  baseline-out="$RUN/baseline.properties" "${ATTRIBUTE_OPTS[@]}" "${CLUSTER_OPTS[@]}" | tee "$RUN/load.log"
status=${PIPESTATUS[0]}
set -e

# group commit at work: how many notifications shared an intake transaction over the whole one-instance load
batches() {
  curl -s "http://127.0.0.1:$1/q/metrics" | awk '
    /^paynotify_intake_batch_size_count/ { c = $2 } /^paynotify_intake_batch_size_sum/ { s = $2 }
    END { if (c > 0) printf "%.0f notifications in %.0f intake transactions, %.1f per transaction on average", s, c, s / c; else printf "-" }'
}
BATCHES1=$(batches "$MGMT_PORT")
echo "== intake batches, one instance: $BATCHES1"

# half the one-instance max: the rate at which an instance started later (the second, the webhook run's) warms its
# JIT before its search, so that its probes meet a compiled service as the first instance's did
MAX1=$(sed -n 's/^max=\([0-9.]*\)/\1/p' "$RUN/single.properties")
HALF=$(awk -v m="${MAX1:-500}" 'BEGIN { r = int(m / 2 / 50) * 50; print (r < 250 ? 250 : r) }')

LOADAVG_TWO="-"
if [ "$TWO_INSTANCES" != 0 ]; then
  echo "== instance 2 on 127.0.0.1:$PORT2, the same database; the load round-robin over both"
  start_service "$RUN/service.properties" "$RUN/service-2.log" "" "$PORT2" "$MGMT_PORT2"
  PID2=${SERVICE_PIDS[1]}
  LOADAVG_TWO=$(cut -d' ' -f1-3 /proc/loadavg)
  set +e
  java -Xms1g -Xmx2g -cp "$CP" io.paynotify.bench.LoadDriver run \
    url="http://127.0.0.1:$PORT,http://127.0.0.1:$PORT2" jdbc="$JDBC" keys="$RUN/driver.keys" dup="$DUP" \
    step-seconds="$STEP_SECONDS" latency-steps= start-rate="$((HALF * 2))" warm-rate="$HALF" \
    service-pid="$PID1,$PID2" figures="$RUN/dual.properties" "${CLUSTER_OPTS[@]}" | tee "$RUN/load-two.log"
  two_status=${PIPESTATUS[0]}
  set -e
  [ "$status" -ne 0 ] || status=$two_status
  BATCHES2="$(batches "$MGMT_PORT2") (instance 2 over the two-instance load)"
fi

echo "== ceiling after the load"
ceiling after "$SPAN"
LOADAVG_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

LOADAVG_HOOKS="-"
if [ "$WEBHOOKS" != 0 ]; then
  echo "== instance 1 again, alone, with merchant $RUN/webhooks.properties subscribed to a receiver on 127.0.0.1:$WEBHOOK_PORT"
  stop_services
  # the same state as before the first load: statistics fresh, nothing left to flush
  psql -d "$DB" -q -c "VACUUM ANALYZE paynotify.orders" -c "VACUUM ANALYZE paynotify.notifications" \
    -c "VACUUM ANALYZE paynotify.events" >/dev/null
  settle_disk
  # its own profile, not prod: prod refuses allow-loopback (the receiver is on 127.0.0.1); every other setting,
  # the JSON and asynchronous console included, is the same in both (docs/operations.md "Start-up checks")
  SERVICE_JAVA_OPTS="$SERVICE_JAVA_OPTS -Dquarkus.profile=bench" \
    start_service "$RUN/service.properties,$RUN/webhooks.properties" "$RUN/service-webhooks.log" "$RUN/service-webhooks.jfr" "$PORT" "$MGMT_PORT"
  LOADAVG_HOOKS=$(cut -d' ' -f1-3 /proc/loadavg)
  set +e
  java -Xms1g -Xmx2g -cp "$CP" io.paynotify.bench.LoadDriver webhooks \
    url="http://127.0.0.1:$PORT" jdbc="$JDBC" keys="$RUN/driver.keys" dup="$DUP" step-seconds="$STEP_SECONDS" \
    warm-rate="$HALF" service-pid="${SERVICE_PIDS[0]}" webhook-port="$WEBHOOK_PORT" baseline="$RUN/baseline.properties" \
    out="$RUN/webhooks.md" figures="$RUN/hooks.properties" "${ATTRIBUTE_OPTS[@]}" "${CLUSTER_OPTS[@]}" | tee "$RUN/webhooks.log"
  hooks_status=${PIPESTATUS[0]}
  set -e
  [ "$status" -ne 0 ] || status=$hooks_status
fi
stop_services

LOADAVG_JMH="-"
if [ "$JMH" != 0 ]; then
  # the verification benchmarks' CPU terms (issue 24's last row), with the services stopped: each contender is
  # measured in operations per second of its thread's own CPU time, interleaved round by round
  echo "== verification, CPU terms: CpuCheck, $JMH_ROUNDS rounds of $JMH_SECONDS s of CPU per contender"
  LOADAVG_JMH=$(cut -d' ' -f1-3 /proc/loadavg)
  java -Xms512m -Xmx512m -cp "$CP" io.paynotify.bench.CpuCheck "$JMH_SECONDS" \
    'alipayPaynotify|alipayFloor|v3Paynotify|v3Floor' "$JMH_ROUNDS" "$RUN/jmh.properties" | tee "$RUN/jmh.log"
fi

set +e
java -cp "$CP" io.paynotify.bench.LoadDriver report single="$RUN/single.properties" dual="$RUN/dual.properties" \
  before="$RUN/ceiling-before.properties" after="$RUN/ceiling-after.properties" out="$RUN/detail.md" >/dev/null
java -cp "$CP" io.paynotify.bench.LoadDriver goals single="$RUN/single.properties" dual="$RUN/dual.properties" \
  before="$RUN/ceiling-before.properties" after="$RUN/ceiling-after.properties" hooks="$RUN/hooks.properties" \
  jmh="$RUN/jmh.properties" out="$RUN/result.md" >/dev/null
goals_status=$?
set -e
{
  echo
  echo "Details (PostgreSQL: $PG$([ "$PG" = private ] && echo ", a scratch cluster with the shared server's settings and pg_stat_statements: not comparable with runs on the shared server"); group commit, webhooks):"
  echo
  cat "$RUN/detail.md"
  if [ -f "$RUN/webhooks.md" ]; then
    echo
    echo "Webhook run, the first instance alone, restarted with a subscribed merchant:"
    echo
    echo "| measure | value |"
    echo "|---|---|"
    cat "$RUN/webhooks.md"
  fi
  echo
  echo "Group commit: one instance, whole load: ${BATCHES1}; ${BATCHES2:--}."
  echo
  echo "run: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);"
  echo "load average (1, 5, 15 min): at the start $LOADAVG_BEFORE; before the one-instance load $LOADAVG_LOAD;"
  echo "before the two-instance load $LOADAVG_TWO; after the last pgbench $LOADAVG_AFTER; before the webhook run $LOADAVG_HOOKS;"
  echo "before the verification pass $LOADAVG_JMH;"
  echo "at the end $(cut -d' ' -f1-3 /proc/loadavg). Goals: $([ "$goals_status" -eq 0 ] && echo "all met" || echo "not all met")."
  echo "total time $(( $(date +%s) - started )) s; files in $RUN"
  if [ -f "$RUN/attribution.md" ]; then
    echo
    echo "### Attribution (ATTRIBUTE=1, PostgreSQL: $PG)"
    cat "$RUN/attribution.md"
  fi
  if [ -n "${PROFILE:-}" ]; then
    for jfr in "$RUN/service.jfr" "$RUN/service-webhooks.jfr"; do
      [ -f "$jfr" ] || continue
      echo
      echo "### Service-side profile: $(basename "$jfr") (JFR over the whole start, bench/tools/jfr-top.py)"
      echo
      echo '```text'
      python3 "$BENCH/tools/jfr-top.py" "$jfr" io.paynotify 15 2>&1 || echo "(jfr-top.py failed)"
      echo '```'
    done
  fi
} >>"$RUN/result.md"
echo
echo "== result ($RUN/result.md)"
cat "$RUN/result.md"
if [ -n "${PROFILE:-}" ]; then
  echo "JFR profiles: $RUN/service.jfr$([ "$WEBHOOKS" != 0 ] && echo ", $RUN/service-webhooks.jfr") (bench/tools/jfr-top.py FILE)"
fi
# the exit status says whether the measurement was sound (no error or lost ack at or below the max, the database
# checks clean), not whether the goals were met: the table says that
exit "$status"
