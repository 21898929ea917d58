#!/bin/bash
# The scale suite (io.pacelink.perf.scale.ScaleSuite): memory per connection, idle CPU, handshake rate and
# concurrent connects on loopback. Options are the suite's (--help); see perf/README.md.
#
# One connect at a time (--one-at-a-time) is judged as "p50 of one connect <= 1 RTT + 1 ms". Its column gives two
# readings of that RTT: the least RTT any of those connections measured (the reading so far) and the median of each
# connection's least RTT. The median is the like-for-like one: the p50 is a median, and on a VM whose idle threads
# take hundreds of microseconds to wake, and more in some runs than in others, the least of 60 samples is the one
# connect whose two wake-ups were both quick, while a typical connect pays the typical wake-ups of its round trip
# (the hello's answer read by the client's agent after the server's agent woke) - which its RTT samples show too.
# Both readings are reported; perf/FINDINGS.md ("The flood check 3 of 3, and one connect on this VM") gives the
# figures both ways.
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=${BENCH:-$REPO/perf/target/benchmarks.jar}
[ -f "$BENCH" ] || { echo "scale.sh: $BENCH not found; build it: mvn -B -q -pl perf -am package -DskipTests" >&2; exit 2; }
exec java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -cp "$BENCH" io.pacelink.perf.scale.ScaleSuite "$@"
