#!/usr/bin/env bash
# paynotify end-to-end benchmark (issue 6), one command:
#   builds the service and the bench project, creates a scratch database, starts the service in the prod profile
#   on 127.0.0.1, measures the PostgreSQL ceiling with pgbench (the intake's own SQL, the service's pool size as
#   concurrency), then drives the open-loop load (bench/src/main/java/io/paynotify/bench/LoadDriver.java), checks
#   the database; then restarts the service with a merchant client subscribed to a local webhook receiver (in the
#   driver), measures the max rate again, and the lag of the order.paid webhooks at 50 % of it; prints one table.
#   The scratch database and the service are removed at the end.
#
# Needs: JDK 17, Maven 3.8, a PostgreSQL 15 reachable at 127.0.0.1:5432 as user postgres without a password (as
# for the tests), psql and pgbench (postgresql-client-15 / the server package). Everything else comes from Maven.
#
# Environment (all optional):
#   PGBENCH=path        pgbench binary (default: /usr/lib/postgresql/15/bin/pgbench, else the one on PATH)
#   PORT=18089          the service's HTTP port
#   MGMT_PORT=19089     its management port (health, metrics)
#   DUP=0.5             share of duplicate deliveries
#   STEP_SECONDS=15     length of the confirm and 25/50/75 % steps (probes are 5 s)
#   PGBENCH_SECONDS=15  length of the pgbench run
#   PROFILE=1           record a JFR profile of the service into the run directory
#   SKIP_BUILD=1        reuse the last build
#   SERVICE_JAVA_OPTS   JVM options of the service (default: -Xms256m -Xmx512m)
#   POOL=n              the service's connection pool size and pgbench's clients (default: the
#                       quarkus.datasource.jdbc.max-size of application.properties)
#   WEBHOOK_PORT=18090  the webhook receiver's port on 127.0.0.1
#   WEBHOOKS=0          skip the webhook run (max rate with a subscribed webhook, delivery lag)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH="$ROOT/bench"
PORT=${PORT:-18089}
MGMT_PORT=${MGMT_PORT:-19089}
DUP=${DUP:-0.5}
STEP_SECONDS=${STEP_SECONDS:-15}
PGBENCH_SECONDS=${PGBENCH_SECONDS:-15}
SERVICE_JAVA_OPTS=${SERVICE_JAVA_OPTS:--Xms256m -Xmx512m}
WEBHOOK_PORT=${WEBHOOK_PORT:-18090}
WEBHOOKS=${WEBHOOKS:-1}
PGHOST=127.0.0.1
PGUSER=postgres
export PGHOST PGUSER
DB="paynotify_bench_$$"
RUN="$BENCH/target/run-$(date -u +%Y%m%dT%H%M%SZ)"
SERVICE_PID=""

PGBENCH=${PGBENCH:-/usr/lib/postgresql/15/bin/pgbench}
[ -x "$PGBENCH" ] || PGBENCH=$(command -v pgbench || true)
for tool in java mvn psql "$PGBENCH"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "run.sh: $tool not found (see the README's Performance section)" >&2; exit 2; }
done
psql -d postgres -Atqc 'select 1' >/dev/null || { echo "run.sh: PostgreSQL is not reachable at 127.0.0.1:5432" >&2; exit 2; }

stop_service() {
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill "$SERVICE_PID" 2>/dev/null || true
    wait "$SERVICE_PID" 2>/dev/null || true
  fi
  SERVICE_PID=""
}

cleanup() {
  stop_service
  psql -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT

started=$(date +%s)
if [ -z "${SKIP_BUILD:-}" ]; then
  echo "== build"
  (cd "$ROOT" && mvn -B -q install -DskipTests)
  (cd "$BENCH" && mvn -B -q package)
fi
mkdir -p "$RUN"
CP="$BENCH/target/classes:$(cat "$BENCH/target/classpath.txt")"

echo "== scratch database $DB, run directory $RUN"
psql -d postgres -qc "CREATE DATABASE $DB" >/dev/null
java -cp "$CP" io.paynotify.bench.LoadDriver config "$RUN" "$WEBHOOK_PORT"

POOL=${POOL:-$(sed -n 's/^quarkus\.datasource\.jdbc\.max-size=\([0-9]*\).*/\1/p' "$ROOT/src/main/resources/application.properties" | head -1)}
POOL=${POOL:-20}

# start_service CONFIG_LOCATIONS LOG JFR_FILE: the service from target/quarkus-app in the prod profile, until ready
start_service() {
  local jfr=""
  if [ -n "${PROFILE:-}" ]; then
    jfr="-XX:StartFlightRecording=filename=$3,settings=profile,dumponexit=true"
  fi
  # shellcheck disable=SC2086
  QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:5432/$DB" \
    java $SERVICE_JAVA_OPTS $jfr \
      -Dquarkus.config.locations="$1" \
      -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$PORT" -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$MGMT_PORT" -Dquarkus.datasource.jdbc.max-size="$POOL" \
      -jar "$ROOT/target/quarkus-app/quarkus-run.jar" >"$2" 2>&1 &
  SERVICE_PID=$!
  for _ in $(seq 1 120); do
    if curl -fs "http://127.0.0.1:$MGMT_PORT/q/health/ready" >/dev/null 2>&1; then break; fi
    kill -0 "$SERVICE_PID" 2>/dev/null || { echo "run.sh: the service did not start:" >&2; tail -20 "$2" >&2; exit 1; }
    sleep 0.5
  done
  curl -fs "http://127.0.0.1:$MGMT_PORT/q/health/ready" >/dev/null || { echo "run.sh: the service is not ready" >&2; exit 1; }
}

echo "== service (prod profile) on 127.0.0.1:$PORT, connection pool $POOL, no webhook subscribed"
start_service "$RUN/service.properties" "$RUN/service.log" "$RUN/service.jfr"

echo "== ceiling: pgbench, the intake's SQL, at the service's concurrency"
NORDERS=300000
psql -d "$DB" -qc "INSERT INTO paynotify.orders (channel, out_trade_no, provider, amount_minor, currency, state, created_at, updated_at)
  SELECT 'pgbench', 'P' || g, 'ALIPAY', 1999, 'CNY', 'PENDING', now(), now() FROM generate_series(1, $NORDERS) g" >/dev/null
# a raw body of the size of a real Alipay notice (~1.2 KiB), sent as a literal like the service's bound bytes
BODY="'\\x$(head -c 1200 /dev/zero | tr '\0' 'a' | od -An -tx1 | tr -d ' \n')'::bytea"
APPLIED_WEIGHT=$(awk -v d="$DUP" 'BEGIN { printf "%d", (1 - d) * 100 }')
DUP_WEIGHT=$((100 - APPLIED_WEIGHT))
sed "s|@BODY@|$BODY|" "$BENCH/pgbench/applied.sql" >"$RUN/applied.sql"
sed "s|@BODY@|$BODY|" "$BENCH/pgbench/duplicate.sql" >"$RUN/duplicate.sql"
SCRIPTS=(-f "$RUN/applied.sql@$APPLIED_WEIGHT")
[ "$DUP_WEIGHT" -gt 0 ] && SCRIPTS+=(-f "$RUN/duplicate.sql@$DUP_WEIGHT")
psql -d "$DB" -qc "VACUUM ANALYZE paynotify.orders" >/dev/null
# flush what the build and the bulk insert left in the page cache, and checkpoint: otherwise pgbench's commits wait
# on fsyncs queued behind hundreds of megabytes of unrelated writes (seen here: 850 instead of 4,600 tps)
sync
psql -d "$DB" -qc "CHECKPOINT" >/dev/null
# the service is paused while pgbench runs: its idle JVM (JIT, timers, pool validation) must not share the two
# cores with the ceiling it is compared against
kill -STOP "$SERVICE_PID"
# (pgbench's -d is --debug, not the database: the database is the last, positional argument)
PGOPTIONS="-c search_path=paynotify" "$PGBENCH" -n -M prepared -c "$POOL" -j 2 -T "$PGBENCH_SECONDS" \
  -D norders=$NORDERS "${SCRIPTS[@]}" "$DB" >"$RUN/pgbench.log" 2>&1 || { cat "$RUN/pgbench.log" >&2; exit 1; }
kill -CONT "$SERVICE_PID"
TPS=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' "$RUN/pgbench.log")
FAILED=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$RUN/pgbench.log")
echo "pgbench: $TPS transactions/s at $POOL clients ($APPLIED_WEIGHT % applied, $DUP_WEIGHT % duplicate; failed: ${FAILED:-0})"
# the pgbench rows stay (another channel) but their dead tuples should not weigh on the load
psql -d "$DB" -q -c "VACUUM ANALYZE paynotify.orders" -c "VACUUM ANALYZE paynotify.notifications" >/dev/null

echo "== load"
LOADAVG=$(cut -d' ' -f1-3 /proc/loadavg)
set +e
java -Xms1g -Xmx2g -cp "$CP" io.paynotify.bench.LoadDriver run \
  url="http://127.0.0.1:$PORT" \
  jdbc="jdbc:postgresql://127.0.0.1:5432/$DB?user=postgres&reWriteBatchedInserts=true" \
  keys="$RUN/driver.keys" dup="$DUP" step-seconds="$STEP_SECONDS" \
  pgbench-tps="$TPS" service-pid="$SERVICE_PID" out="$RUN/result.md" baseline-out="$RUN/baseline.properties" \
  | tee "$RUN/load.log"
status=${PIPESTATUS[0]}
set -e
LOADAVG_END=$(cut -d' ' -f1-3 /proc/loadavg)

LOADAVG_HOOKS="-"
if [ "$WEBHOOKS" != 0 ]; then
  echo "== the service again, with merchant $RUN/webhooks.properties subscribed to a receiver on 127.0.0.1:$WEBHOOK_PORT"
  stop_service
  # the same state as before the first load: statistics fresh, nothing left to flush
  psql -d "$DB" -q -c "VACUUM ANALYZE paynotify.orders" -c "VACUUM ANALYZE paynotify.notifications" \
    -c "VACUUM ANALYZE paynotify.events" >/dev/null
  sync
  psql -d "$DB" -qc "CHECKPOINT" >/dev/null
  start_service "$RUN/service.properties,$RUN/webhooks.properties" "$RUN/service-webhooks.log" "$RUN/service-webhooks.jfr"
  LOADAVG_HOOKS=$(cut -d' ' -f1-3 /proc/loadavg)
  set +e
  java -Xms1g -Xmx2g -cp "$CP" io.paynotify.bench.LoadDriver webhooks \
    url="http://127.0.0.1:$PORT" \
    jdbc="jdbc:postgresql://127.0.0.1:5432/$DB?user=postgres&reWriteBatchedInserts=true" \
    keys="$RUN/driver.keys" dup="$DUP" step-seconds="$STEP_SECONDS" service-pid="$SERVICE_PID" \
    webhook-port="$WEBHOOK_PORT" baseline="$RUN/baseline.properties" out="$RUN/result.md" | tee "$RUN/webhooks.log"
  hooks_status=${PIPESTATUS[0]}
  set -e
  [ "$status" -ne 0 ] || status=$hooks_status
fi

{
  echo
  echo "run: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores; load average (1, 5, 15 min) before the load: $LOADAVG;"
  echo "after it: $LOADAVG_END; before the webhook run: $LOADAVG_HOOKS; at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "service log lines: $(wc -l <"$RUN/service.log"); total time $(( $(date +%s) - started )) s; files in $RUN"
} >>"$RUN/result.md"
echo
echo "== result ($RUN/result.md)"
cat "$RUN/result.md"
if [ -n "${PROFILE:-}" ]; then
  stop_service
  echo "JFR profiles: $RUN/service.jfr, $RUN/service-webhooks.jfr (bench/tools/jfr-top.py FILE)"
fi
exit "$status"
