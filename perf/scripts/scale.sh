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
# ~0.2-0.35 ms here), which the "+ 1 ms" is meant to cover: it reads the RTT high. Both are still reported, and
# beside them the path's round trip at the connects' own moments, since on this VM it moves by 1-3 ms from run to run
# with the cost of waking an idle thread: right after each connect the client pings the server process twice, a bare
# UDP datagram that a thread of the server process blocked in its receive echoes ("ping udp": the kernel's loopback
# and one idle thread's wake-up at each end, what ping(8) between two hosts measures plus the wake-ups an endpoint's
# agent asleep in its port wait also pays) and a 16-byte message the server echoes through its endpoint on a
# connection of its own ("echo": both agents' wake-ups each way and the two applications' polls, the round trip an
# application sees). Each is given as its p50 and, in brackets, the median of every connect's excess over its own
# ping (the pairs, not the difference of two medians). "1 RTT" read as the UDP ping is the path's round trip as a
# reader of the figure would take it; what a connect pays beyond it is the endpoints' (perf/FINDINGS.md, "The server's
# first seconds under a flood, and one connect's round trip pinned").
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=${BENCH:-$REPO/perf/target/benchmarks.jar}
[ -f "$BENCH" ] || { echo "scale.sh: $BENCH not found; build it: mvn -B -q -pl perf -am package -DskipTests" >&2; exit 2; }
exec java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED \
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -cp "$BENCH" io.pacelink.perf.scale.ScaleSuite "$@"
