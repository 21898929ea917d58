#!/usr/bin/env bash
# Builds the ahead-of-time cache `pacelink perf` starts with on JDK 25 or newer (JEP 483: classes loaded and linked;
# JEP 515: method profiles) from one training run, recorded with -XX:AOTCacheOutput (JEP 514). bin/pacelink runs it
# the first time `perf` finds no cache for its JDK and jar; it can be run ahead of time too.
#
# Why: a perf test of 15 s on two cores spends seconds of it in the JIT. Started without profiles, C2 compiles the
# hot path's first versions, and then the duty-cycle roots and the per-ACK methods, inside the seconds a test
# measures; with a training run's profiles the JIT compiles them for the real types in the test's first second
# (perf/FINDINGS.md, "thr13"). The training is one process holding both ends (`perf --aot-training`: a one-off
# server and its client on loopback, the real batched port and duty cycles): a test with BBR, then one with CUBIC (the
# transport's default), each primed as a client is. So a client's and a server's paths are both in the profiles, and
# the two controllers most runs use are the two types their call sites saw (bimorphic: compiled inline, no trap).
# The cache fits only the JVM that wrote it (its version and the options below), so the java that wrote it is kept
# beside it (CACHE.java); a failed training leaves CACHE.failed, so that later runs do not retry it for this jar.
#
# usage: build-perf-cache.sh JAVA JAR CACHE        (JAVA: a java of JDK 25 or newer)
set -euo pipefail
java="$(readlink -f "$1")"
jar="$(readlink -f "$2")"
cache="$3"
# shellcheck source=cache-work.sh
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/cache-work.sh"
aot_work_dir perf "$java" "$cache"
# The options bin/pacelink starts `perf` with on this JDK (a cache is used only by a JVM started as the one that wrote
# it); its own config folder, so the training's stat files stay out of the user's. Plaintext, as a loopback test
# allows: a secure test's packet protection is then compiled without a profile, in its first second.
if ! "$java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
    -XX:AOTCacheOutput="$work/perf.aot" -Dpacelink.config.dir="$work/config" -jar "$jar" \
    perf -c 127.0.0.1 -p 1 --aot-training bbr,cubic -t 2 --insecure > "$work/training.log" 2>&1 ||
    [[ ! -s "$work/perf.aot" ]]; then
    echo "perf aot: the training run failed or wrote no cache: $(grep -v '\[aot\]' "$work/training.log" | tail -3)" >&2
    : > "$cache.failed"
    exit 1
fi
mv -f "$work/perf.aot" "$cache"
echo "$java" > "$cache.java"
rm -f "$cache.failed"
