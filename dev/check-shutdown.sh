#!/usr/bin/env bash
# Shows the graceful shutdown of the JVM build in the prod profile: after SIGTERM, /q/health/ready answers 503 at
# once while /q/health/live (and every endpoint) still answers, for quarkus.shutdown.delay (5 s); then the server
# stops, giving in-flight requests up to quarkus.shutdown.timeout. Scratch database on the local PostgreSQL.
#
#   dev/check-shutdown.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18081}
MGMT_PORT=${MGMT_PORT:-19000}
PGHOST=${PGHOST:-127.0.0.1}
DB="paynotify_shutdown_$$"
LOG=$(mktemp)
APP_PID=""
cleanup() {
    if [ -n "$APP_PID" ] && kill -0 "$APP_PID" 2>/dev/null; then kill -9 "$APP_PID"; fi
    psql -q -h "$PGHOST" -U postgres -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null || true
    rm -f "$LOG"
}
trap cleanup EXIT
[ -f target/quarkus-app/quarkus-run.jar ] || mvn -B -o -q package -DskipTests
psql -q -h "$PGHOST" -U postgres -d postgres -c "CREATE DATABASE $DB" >/dev/null
QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$PGHOST:5432/$DB" QUARKUS_HTTP_PORT="$PORT" QUARKUS_MANAGEMENT_PORT="$MGMT_PORT" \
    java -jar target/quarkus-app/quarkus-run.jar > "$LOG" 2>&1 &
APP_PID=$!
for _ in $(seq 1 120); do grep -q 'started in' "$LOG" && break; sleep 0.5; done
# health is on the management port; the application port never serves /q
code() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$MGMT_PORT$1" || true; }
echo "before SIGTERM: ready=$(code /q/health/ready) live=$(code /q/health/live)"
kill -TERM "$APP_PID"
START=$(date +%s%N)
for _ in $(seq 1 16); do
    echo "+$(( ($(date +%s%N) - START) / 1000000 )) ms: ready=$(code /q/health/ready) live=$(code /q/health/live)"
    sleep 0.5
done
wait "$APP_PID" || true
APP_PID=""
grep -o 'paynotify stopped in [0-9.]*s' "$LOG" || true
