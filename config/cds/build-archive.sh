#!/usr/bin/env bash
# Builds the class-data-sharing archive of the pacelink command line (AppCDS, JEP 310) at package time: training runs
# of the commands a user starts most (--version and --help, perf and ping over loopback, stat, a short loopback demo)
# record the classes they load, and one static dump maps them into pacelink.jsa beside the jar. bin/pacelink uses it;
# a JVM that cannot (another JDK, a rebuilt jar) ignores it and starts as without. Everything runs on loopback.
#
# usage: build-archive.sh JAR ARCHIVE
set -euo pipefail
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
# A perf server serving one test, a ping and a client against it. Its log exists before it starts: the background
# job opens it only once it runs, and a sed on a missing file (exit 2 under set -e) failed the build on a loaded machine.
: > "$work/server.log"
java -Xshare:off -XX:DumpLoadedClassList="$work/server.classes" "${flags[@]}" -cp "$jar" \
    io.pacelink.cli.PacelinkCommand perf -s -1 -B 127.0.0.1 -p 0 > "$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 1200); do # two minutes: a JVM without its archive starts slowly on a loaded machine
    port="$(sed -n 's/^Server listening on 127\.0\.0\.1 port \([0-9]*\).*/\1/p' "$work/server.log")"
    [[ -n "$port" ]] && break
    sleep 0.1
done
if [[ -z "$port" ]]; then
    kill "$server" 2>/dev/null || true
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
