#!/usr/bin/env bash
# Builds the ahead-of-time cache of the pacelink command line for a JDK 25 or newer (JEP 483 and JEP 515: classes
# loaded and linked, method profiles) with one training run: a perf client's short loopback test against a perf server,
# recorded with -XX:AOTCacheOutput (JEP 514). bin/pacelink starts the jar on that JDK with the cache when both are there
# (docs/tools.md, "Start-up"). The cache only fits the JDK that wrote it, so the path of its java is kept beside it.
# Everything runs on loopback.
#
# usage: build-cache.sh JAVA JAR CACHE        (JAVA: a java of JDK 25 or newer)
set -euo pipefail
# shellcheck source=config/training-server.sh
source "$(dirname "${BASH_SOURCE[0]}")/../training-server.sh"
java="$(readlink -f "$1")"
jar="$(readlink -f "$2")"
cache="$3"
work="$(dirname "$cache")/aot"
rm -rf "$work" "$cache" "$cache.java"
mkdir -p "$work"
version="$("$java" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -c ' AOTCacheOutput ' || true)"
if [[ "$version" != 1 ]]; then
    echo "aot: $java cannot write an AOT cache (-XX:AOTCacheOutput needs JDK 25 or newer): $("$java" -version 2>&1 \
        | head -1)" >&2
    exit 2
fi
# The options bin/pacelink starts this JDK with: a cache is used only by a JVM started as the one that wrote it.
# They keep JDK 25's warnings about the native port's library and Agrona's and JCTools' Unsafe off the output.
flags=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dpacelink.config.dir="$work/config")
if ! start_training_server "$work/server.log" "$java" "${flags[@]}" -jar "$jar" perf -s -1 -B 127.0.0.1 -p 0; then
    echo "aot: the training perf server did not start: $(cat "$work/server.log")" >&2
    exit 1
fi
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
# Two seconds of test: long enough for the transport's hot path to be profiled (JEP 515), so that the JIT of a
# started client compiles it sooner.
if ! "$java" -XX:AOTCacheOutput="$cache" "${flags[@]}" -jar "$jar" perf -c 127.0.0.1 -p "$port" -t 2 \
    > "$work/client.log" 2>&1 || [[ ! -s "$cache" ]]; then
    echo "aot: the training run failed or wrote no cache: $(tail -3 "$work/client.log")" >&2
    exit 1
fi
echo "$java" > "$cache.java"
echo "aot: cache $cache ($(du -h "$cache" | cut -f1)) for $("$java" -version 2>&1 | head -1)"
