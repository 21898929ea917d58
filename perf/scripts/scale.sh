#!/bin/bash
# The scale suite (io.pacelink.perf.scale.ScaleSuite): memory per connection, idle CPU, handshake rate and
# concurrent connects on loopback. Options are the suite's (--help); see perf/README.md.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=${BENCH:-$REPO/perf/target/benchmarks.jar}
[ -f "$BENCH" ] || { echo "scale.sh: $BENCH not found; build it: mvn -B -q -pl perf -am package -DskipTests" >&2; exit 2; }
exec java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -cp "$BENCH" io.pacelink.perf.scale.ScaleSuite "$@"
