#!/usr/bin/env bash
# Builds the ahead-of-time cache `pacelink sim` starts with on JDK 25 or newer (JEP 483: classes loaded and linked;
# JEP 515: method profiles) from one training run of the simulator, recorded with -XX:AOTCacheOutput (JEP 514).
# bin/pacelink runs it the first time `sim` finds no cache for its JDK and jar; it can be run ahead of time too.
#
# Why a cache of its own: a 10-s simulation spends as much CPU in the JIT as in simulating, and starts interpreted;
# with the training run's profiles the JIT compiles the transport's and the simulator's hot methods for their real
# types sooner, and the classes of 100 endpoints are already loaded and linked (perf/FINDINGS.md, "Simulator speed,
# round 9"). The training is one simulation of one controller (CUBIC, Linux's default): a profile that saw several
# controllers would tell the JIT their calls are polymorphic, and a run of one controller (most runs) would get
# slower code. A run of another controller still finds its classes loaded and the rest of the transport
# profiled. The cache fits only the JVM that wrote it (its version and the options below), so the java that wrote it is
# kept beside it (CACHE.java); the result of a simulation is the same with or without it.
#
# usage: build-sim-cache.sh JAVA JAR CACHE [one|flows]       (JAVA: a java of JDK 25 or newer)
#
# The shape: "one" (the default) trains on one flow, for runs of one flow; "flows" on 50 flows sharing 1 Gbit/s, for
# runs of several flows, whose hosts see one packet at a time and whose duty cycles serve many connections: branches
# a one-flow training never takes, which C2 otherwise compiles out and recompiles after a trap (perf/FINDINGS.md,
# "Simulator speed, round 16" and "round 17"). bin/pacelink keeps one cache of each beside the jar.
set -euo pipefail
java="$(readlink -f "$1")"
jar="$(readlink -f "$2")"
cache="$3"
shape="${4:-one}"
training=(--path 'rate=1gbit delay=5ms queue=1bdp' --cc cubic --duration 3s --seed 1 --wakes exact)
[[ "$shape" == flows ]] && training+=(--flows 50)
# shellcheck source=cache-work.sh
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/cache-work.sh"
aot_work_dir sim "$java" "$cache"
# The options bin/pacelink starts `sim` with on this JDK (a cache is used only by a JVM started as the one that
# wrote it; the inlining limit too, so that the compilations the cache records are the ones a run makes). One flow at
# 1 Gbit/s for 3 s simulated: both ends' duty cycles, the links, the fq scheduler and CUBIC's congestion avoidance all
# get hot, in about two seconds of wall time. Measured against two flows for 2 s and 50 flows at 100 Mbit/s for 5 s,
# it gave the most to both sim-speed.sh scenarios (perf/FINDINGS.md, "round 9"). With exact wakes, although `sim`
# runs coalesced ones by default: a cache trained on coalesced wakes made the default's 10-s one-flow run slower (the
# JIT compiled more; perf/FINDINGS.md, "round 12"), one trained on exact wakes did not.
if ! "$java" -XX:+UseParallelGC -XX:+UseCompactObjectHeaders -XX:FreqInlineSize=70 -XX:Tier2BackedgeNotifyFreqLog=18 \
    --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -XX:AOTCacheOutput="$work/sim.aot" \
    -jar "$jar" sim "${training[@]}" > "$work/training.log" 2>&1 ||
    [[ ! -s "$work/sim.aot" ]]; then
    echo "sim aot: the training run failed or wrote no cache: $(tail -3 "$work/training.log")" >&2
    exit 1
fi
mv -f "$work/sim.aot" "$cache"
echo "$java" > "$cache.java"
