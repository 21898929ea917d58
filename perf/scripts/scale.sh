#!/bin/bash
# The scale suite (io.pacelink.perf.scale.ScaleSuite): memory per connection, idle CPU, handshake rate and
# concurrent connects on loopback. Options are the suite's (--help); see perf/README.md.
#
# One connect at a time (--one-at-a-time) is judged as "p50 of one connect <= 1 RTT + 1 ms". Its column gives two
# readings of that RTT beside the p50. The least RTT any of those connections measured (the reading so far) is a
# minimum of 60 set against a median: the one connect whose idle threads all woke quickly, on a VM where a wake-up
# costs from a hundred microseconds to more than a millisecond, and more in some runs than in others. The median of
# each connection's least RTT (its handshake's sample, hello sent to answer read) is the same statistic as the p50 and
# carries the typical wake-ups of a round trip, but also the server's work on the hello (its connection's creation,
# ~0.2-0.35 ms here), which the "+ 1 ms" is meant to cover: it reads the RTT high. The path's round trip at the
# connects' moment lies between the two (a ping between the same two idle endpoints, interleaved with the connects,
# would measure it; not built). Both are reported; perf/FINDINGS.md ("The flood check: the probes follow the
# attacker") gives the figures both ways.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=${BENCH:-$REPO/perf/target/benchmarks.jar}
[ -f "$BENCH" ] || { echo "scale.sh: $BENCH not found; build it: mvn -B -q -pl perf -am package -DskipTests" >&2; exit 2; }
exec java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -cp "$BENCH" io.pacelink.perf.scale.ScaleSuite "$@"
