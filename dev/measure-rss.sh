#!/usr/bin/env bash
# Measures the JVM build of paynotify: start time, and resident memory (VmRSS) after start and after N correctly
# signed WeChat Pay v2 notifications (default 10,000), each paying its own PENDING order (one transaction, one
# notification row and one order update each). Runs the prod profile with the k8s ConfigMap's application.properties,
# exactly as the pod gets it, against a scratch database on the local PostgreSQL that is dropped afterwards.
#
#   dev/measure-rss.sh                      # N=10000 THREADS=8, default JVM ergonomics
#   JAVA_OPTS="-Xmx128m" dev/measure-rss.sh # as capped in the container
#
# Needs: java 17, psql, openssl, and target/quarkus-app (built by `mvn -B -o package -DskipTests` if missing).
# Traffic goes to 127.0.0.1 only and stops after N requests.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-10000}
THREADS=${THREADS:-8}
PORT=${PORT:-18080}
MGMT_PORT=${MGMT_PORT:-19000}
PGHOST=${PGHOST:-127.0.0.1}
DB="paynotify_measure_$$"
TMP=$(mktemp -d)
APP_PID=""

cleanup() {
    if [ -n "$APP_PID" ] && kill -0 "$APP_PID" 2>/dev/null; then
        kill "$APP_PID"
        wait "$APP_PID" 2>/dev/null || true
    fi
    psql -q -h "$PGHOST" -U postgres -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

[ -f target/quarkus-app/quarkus-run.jar ] || mvn -B -o -q package -DskipTests

psql -q -h "$PGHOST" -U postgres -d postgres -c "CREATE DATABASE $DB" >/dev/null

# The ConfigMap's application.properties block, de-indented: the same file the pod mounts at /config.
awk '/^  application.properties: \|/ {on=1; next} on && /^    / {sub(/^    /, ""); print; next} on && !/^ *$/ {on=0}' \
    k8s/configmap.yaml > "$TMP/application.properties"

export QUARKUS_CONFIG_LOCATIONS="$TMP/application.properties"
export QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$PGHOST:5432/$DB"
export QUARKUS_DATASOURCE_USERNAME=postgres
export QUARKUS_DATASOURCE_PASSWORD=""
export QUARKUS_HTTP_PORT="$PORT" QUARKUS_MANAGEMENT_PORT="$MGMT_PORT"
export QUARKUS_SHUTDOWN_DELAY=0S
# throwaway secrets, never printed
PAYNOTIFY_ADMIN_TOKENS=$(openssl rand -hex 16); export PAYNOTIFY_ADMIN_TOKENS
WX_MAIN_API_KEY=$(openssl rand -hex 16); export WX_MAIN_API_KEY
SHOP_BACKEND_SECRET=$(openssl rand -hex 16); export SHOP_BACKEND_SECRET

# shellcheck disable=SC2086
java ${JAVA_OPTS:-} -jar target/quarkus-app/quarkus-run.jar > "$TMP/app.log" 2>&1 &
APP_PID=$!

for _ in $(seq 1 120); do
    grep -q 'started in' "$TMP/app.log" && break
    kill -0 "$APP_PID" 2>/dev/null || { cat "$TMP/app.log"; echo "the application did not start" >&2; exit 1; }
    sleep 0.5
done
STARTED=$(grep -o 'started in [0-9.]*s' "$TMP/app.log" | head -1)
[ -n "$STARTED" ] || { echo "no start line" >&2; exit 1; }
curl -sf "http://127.0.0.1:$MGMT_PORT/q/health/ready" >/dev/null || { echo "not ready" >&2; exit 1; }
RSS_START=$(rss_kib "$APP_PID")

psql -q -h "$PGHOST" -U postgres -d "$DB" -c "INSERT INTO paynotify.orders (channel, out_trade_no, provider,
    amount_minor, currency, state, created_at, updated_at) SELECT 'wx-main', 'M' || g, 'WECHATPAY_V2', 100, 'CNY',
    'PENDING', now(), now() FROM generate_series(0, $N - 1) g" >/dev/null

APPID=$(sed -n 's/^paynotify.channels."wx-main".app-id=//p' "$TMP/application.properties")
MCHID=$(sed -n 's/^paynotify.channels."wx-main".mch-id=//p' "$TMP/application.properties")
LOAD=$(java src/test/java/io/paynotify/deploy/NotifyLoad.java "http://127.0.0.1:$PORT" wx-main "$APPID" "$MCHID" \
    "$WX_MAIN_API_KEY" M "$N" "$THREADS")
RSS_AFTER=$(rss_kib "$APP_PID")
PAID=$(psql -tA -h "$PGHOST" -U postgres -d "$DB" -c "SELECT count(*) FROM paynotify.orders WHERE state = 'SUCCESS'")

echo "java:        $(java -version 2>&1 | head -1)"
echo "JAVA_OPTS:   ${JAVA_OPTS:-(none)}"
echo "start:       $STARTED"
echo "RSS start:   $((RSS_START / 1024)) MiB"
echo "load:        $LOAD"
echo "orders paid: $PAID of $N"
echo "RSS after:   $((RSS_AFTER / 1024)) MiB"
