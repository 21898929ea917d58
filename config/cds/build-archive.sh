#!/usr/bin/env bash
# Builds the class-data-sharing archive of the pacelink command line (AppCDS, JEP 310) at package time: training runs
# of the commands a user starts most (--version and --help, perf and ping over loopback, stat, a short loopback demo)
# record the classes they load, and one static dump maps them into pacelink.jsa beside the jar. bin/pacelink uses it;
# a JVM that cannot (another JDK, a rebuilt jar) ignores it and starts as without. Everything runs on loopback.
#
# usage: build-archive.sh JAR ARCHIVE
set -euo pipefail
# shellcheck source=config/training-server.sh
source "$(dirname "${BASH_SOURCE[0]}")/../training-server.sh"
jar="$(readlink -f "$1")"
archive="$2"
work="$(dirname "$archive")/cds"
rm -rf "$work" "$archive"
mkdir -p "$work"
# The training runs are secure as the tools are by default (a host key, a known_hosts entry): they keep those in a
# configuration directory of their own, never the building user's ~/.config/pacelink.
flags=(--add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-opens java.base/jdk.internal.misc=ALL-UNNAMED
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED -Dpacelink.config.dir="$work/config")
counters="$work/counters"
train() # NAME ARGS...: one training run, its class list in $work/NAME.classes
{
    local name="$1"
    shift
    # A training run that fails (a ping timing out on a machine loaded far beyond its cores) still listed the classes
    # it loaded up to there: the archive is only a little less complete, never wrong, so the build goes on and says so.
    if ! java -Xshare:off -XX:DumpLoadedClassList="$work/$name.classes" "${flags[@]}" -cp "$jar" \
        io.pacelink.cli.PacelinkCommand "$@" > "$work/$name.log" 2>&1; then
        echo "cds: the training run '$*' failed (the archive lists what it loaded until then): $(tail -1 "$work/$name.log")" >&2
    fi
}

train version --version
train help --help
train stat stat --dir "$counters" --count 1
train demo demo --loopback --size 4MiB --baseline 0s
# A perf server serving one test, a ping and a client against it.
if ! start_training_server "$work/server.log" java -Xshare:off -XX:DumpLoadedClassList="$work/server.classes" \
    "${flags[@]}" -cp "$jar" io.pacelink.cli.PacelinkCommand perf -s -1 -B 127.0.0.1 -p 0; then
    echo "cds: the training perf server did not start: $(cat "$work/server.log")" >&2
    exit 1
fi
train ping ping 127.0.0.1 -p "$port" -c 3 -i 0.05
train perf perf -c 127.0.0.1 -p "$port" -t 0.5 -i 0.25
# The server serves one test and exits; after a failed one it would wait for the next, so it gets 30 s, then a kill.
for _ in $(seq 1 300); do
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
kill "$server" 2>/dev/null || true
wait "$server" 2>/dev/null || true

cat "$work"/*.classes | grep -v '^#' | sort -u > "$work/classes.lst"
# Dumped without the module options: given on a command line they switch off the archived module graph, so
# bin/pacelink runs the jar with -jar and takes them from its manifest (Add-Exports, Add-Opens) instead.
java -Xshare:dump -XX:SharedClassListFile="$work/classes.lst" -XX:SharedArchiveFile="$archive" \
    -cp "$jar" > "$work/dump.log" 2>&1 || { cat "$work/dump.log" >&2; exit 1; }
echo "cds: $(wc -l < "$work/classes.lst") classes listed, archive $archive ($(du -h "$archive" | cut -f1))"
