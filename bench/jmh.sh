#!/usr/bin/env bash
# paynotify verification benchmarks (issue 6, part 1): JMH, paynotify's adapters against the official SDKs and the
# bare JDK crypto on the same notification; prints ops/s and the ratios. Not part of mvn verify or CI.
#
#   bench/jmh.sh                      # forks=2 warmups=5 iterations=5 seconds=2 (about 8 minutes)
#   bench/jmh.sh forks=1 warmups=2 iterations=3 seconds=1    # a quick look
#   bench/jmh.sh filter='alipay.*'    # only some contenders
#   CPU=1 bench/jmh.sh                # ops per CPU second instead (CpuCheck; for a machine shared with other work)
#
# Needs: JDK 17 and Maven 3.8 (the SDKs come from Maven Central). SKIP_BUILD=1 reuses the last build.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH="$ROOT/bench"
# The service's classes come from this checkout's target/classes, first on the class path: nothing is installed
# into the local Maven repository, which other checkouts of the project share.
if [ -z "${SKIP_BUILD:-}" ]; then
  (cd "$ROOT" && mvn -B -q compile)
  mkdir -p "$BENCH/target"
  jar cf "$BENCH/target/paynotify-classes.jar" -C "$ROOT/target/classes" .   # to compile against (a jar: Maven wants one)
  (cd "$BENCH" && mvn -B -q package -Dpaynotify.classes="$BENCH/target/paynotify-classes.jar")
fi
CP="$ROOT/target/classes:$BENCH/target/classes:$(cat "$BENCH/target/classpath.txt")"
if [ -n "${CPU:-}" ]; then
  exec java -Xms512m -Xmx512m -cp "$CP" io.paynotify.bench.CpuCheck 3 "${1:-.*}"
fi
args=(forks=2 warmups=5 iterations=5 seconds=2 "$@")
exec java -cp "$CP" io.paynotify.bench.VerifyReport "${args[@]}"
