#!/usr/bin/env bash
# paynotify statement benchmark (issue 23 item 2), one command:
#   builds the service (target/quarkus-app) and the bench project, creates a scratch database, starts the service in
#   the prod profile on 127.0.0.1 (its channels from LoadDriver config, plus an admin token), then LoadDriver bills:
#   writes a WeChat ALL bill (gzip) and an Alipay zip of LINES payment lines each, inserts the LINES paid orders each
#   bill lists, measures notifications' latency at RATE/s without statement work, uploads each bill
#   (POST /admin/statements/{channel}/{day}) while the same load runs, times it to the reconciled statement's answer,
#   samples the service's heap, and prints one table (bills.md in the run directory). The service and the scratch
#   database are removed at the end.
#
# Environment (all optional): LINES=1000000 RATE=200 STEP_SECONDS=15 PORT=18089 MGMT_PORT=19089
#   SERVICE_JAVA_OPTS (default -Xms256m -Xmx512m, as bench/run.sh) IDLE_TIMEOUT (default: the service's 30S) SKIP_BUILD=1 PROFILE=1 (a JFR profile of the
#   service into the run directory) SERVICE_JDBC_OPTIONS (appended to the service's JDBC URL, e.g.
#   '?reWriteBatchedInserts=true': bench/README.md "Statements" compares the two)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH="$ROOT/bench"
PORT=${PORT:-18089}
MGMT_PORT=${MGMT_PORT:-19089}
LINES=${LINES:-1000000}
RATE=${RATE:-200}
STEP_SECONDS=${STEP_SECONDS:-15}
SERVICE_JAVA_OPTS=${SERVICE_JAVA_OPTS:--Xms256m -Xmx512m}
# the upload answers once the day is reconciled; a long one keeps its connection with whitespace (docs/api.md "A long
# reconcile"), so the service runs with its own quarkus.http.idle-timeout (30S) unless IDLE_TIMEOUT sets another
IDLE_TIMEOUT=${IDLE_TIMEOUT:-}
PGHOST=127.0.0.1
PGUSER=postgres
export PGHOST PGUSER
DB="paynotify_bills_$$"
RUN="$BENCH/target/bills-$(date -u +%Y%m%dT%H%M%SZ)"
SERVICE_PID=""

psql -d postgres -Atqc 'select 1' >/dev/null || { echo "bills.sh: PostgreSQL is not reachable at 127.0.0.1:5432" >&2; exit 2; }

cleanup() {
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill "$SERVICE_PID" 2>/dev/null || true
    wait "$SERVICE_PID" 2>/dev/null || true
  fi
  psql -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  # the bill files are large (hundreds of MiB unpacked): keep only the figures and the logs
  rm -f "$RUN"/*.csv.gz "$RUN"/*.zip
}
trap cleanup EXIT

started=$(date +%s)
if [ -z "${SKIP_BUILD:-}" ]; then
  echo "== build"
  # the service's runnable app, and the bench compiled against this checkout's classes (nothing installed into the
  # local Maven repository that other checkouts share)
  (cd "$ROOT" && mvn -B -q package -DskipTests -Dsimulator.skip=true)
  mkdir -p "$BENCH/target"
  jar cf "$BENCH/target/paynotify-classes.jar" -C "$ROOT/target/classes" .
  (cd "$BENCH" && mvn -B -q package -Dpaynotify.classes="$BENCH/target/paynotify-classes.jar")
fi
mkdir -p "$RUN"
# the service's classes (the bench was compiled against a jar of them: not in classpath.txt)
CP="$BENCH/target/classes:$ROOT/target/classes:$(cat "$BENCH/target/classpath.txt")"
JDBC="jdbc:postgresql://127.0.0.1:5432/$DB?user=postgres&reWriteBatchedInserts=true"

echo "== scratch database $DB, run directory $RUN"
psql -d postgres -qc "CREATE DATABASE $DB" >/dev/null
java -cp "$CP" io.paynotify.bench.LoadDriver config "$RUN"
TOKEN=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf 'paynotify.admin.tokens=%s\n' "$TOKEN" >"$RUN/admin.properties"

idle=""
if [ -n "$IDLE_TIMEOUT" ]; then
  idle="-Dquarkus.http.idle-timeout=$IDLE_TIMEOUT"
fi
jfr=""
if [ -n "${PROFILE:-}" ]; then
  jfr="-XX:StartFlightRecording=filename=$RUN/service.jfr,settings=profile,dumponexit=true"
fi
echo "== the service (prod profile) on 127.0.0.1:$PORT, $SERVICE_JAVA_OPTS"
# shellcheck disable=SC2086
QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://127.0.0.1:5432/$DB${SERVICE_JDBC_OPTIONS:-}" \
  java $SERVICE_JAVA_OPTS $jfr -Dquarkus.config.locations="$RUN/service.properties,$RUN/admin.properties" \
    -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$PORT" -Dquarkus.management.host=127.0.0.1 \
    -Dquarkus.management.port="$MGMT_PORT" $idle -jar "$ROOT/target/quarkus-app/quarkus-run.jar" >"$RUN/service.log" 2>&1 &
SERVICE_PID=$!
for _ in $(seq 1 180); do
  if curl -fs "http://127.0.0.1:$MGMT_PORT/q/health/ready" >/dev/null 2>&1; then break; fi
  kill -0 "$SERVICE_PID" 2>/dev/null || { echo "bills.sh: the service did not start:" >&2; tail -20 "$RUN/service.log" >&2; exit 1; }
  sleep 0.5
done

LOADAVG_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
set +e
java -Xms1g -Xmx2g -cp "$CP" io.paynotify.bench.LoadDriver bills \
  url="http://127.0.0.1:$PORT" mgmt="http://127.0.0.1:$MGMT_PORT" jdbc="$JDBC" keys="$RUN/driver.keys" \
  admin-token="$TOKEN" dir="$RUN" lines="$LINES" rate="$RATE" step-seconds="$STEP_SECONDS" \
  service-pid="$SERVICE_PID" out="$RUN/bills.md" | tee "$RUN/bills.log"
status=${PIPESTATUS[0]}
set -e
{
  echo
  echo "run: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo);"
  echo "load average (1, 5, 15 min): before $LOADAVG_BEFORE, at the end $(cut -d' ' -f1-3 /proc/loadavg); total time $(( $(date +%s) - started )) s"
} >>"$RUN/bills.md"
echo
echo "== result ($RUN/bills.md)"
cat "$RUN/bills.md"
exit "$status"
