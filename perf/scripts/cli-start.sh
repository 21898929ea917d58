#!/usr/bin/env bash
# Wall time of the command line's start and of a short perf test, as a user types them (docs/tools.md, "Start-up"):
# `pacelink --version` and `pacelink perf -c 127.0.0.1 -t 2` against a perf server in another process, and
# `perf -c`, `ping` and `send` to a port where nothing listens, each run RUNS times alternated, with every line a
# command prints time-stamped from its start (so also the gap from its last line to its exit). Prints each run and the
# medians. Run it through quiet-run: the figures are the machine's otherwise.
#
# usage: perf/scripts/cli-start.sh [RUNS] [PACELINK]      (defaults: 5, bin/pacelink of this checkout)
#        PERF_ARGS="--insecure" adds options to both ends; the server and client keep their keys in a directory of
#        their own (XDG_CONFIG_HOME), the client trusting the server's key from the first run on.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-5}"
pacelink="${2:-$here/bin/pacelink}"
extra="${PERF_ARGS:-}"
work="$(mktemp -d)"
export XDG_CONFIG_HOME="$work/config"
port=$((20000 + RANDOM % 20000))
# shellcheck disable=SC2086 # PERF_ARGS holds several options
"$pacelink" perf -s -B 127.0.0.1 -p "$port" $extra > "$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
    grep -q "Server listening" "$work/server.log" && break
    sleep 0.1
done
# One unmeasured test: the client learns the server's key (a returning client is what is timed).
# shellcheck disable=SC2086
"$pacelink" perf -c 127.0.0.1 -p "$port" -t 0.2 $extra > /dev/null 2>&1

stamp() # CMD...: runs it, prints each output line with the seconds since the start, then "exit STATUS"
{
    python3 -c '
import subprocess, sys, time
start = time.monotonic()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
for line in child.stdout:
    print("%7.3f %s" % (time.monotonic() - start, line.rstrip()))
child.wait()
print("%7.3f exit %d" % (time.monotonic() - start, child.returncode))
' "$@"
}

closed=$((port + 1))
echo x > "$work/x.txt"
versions=()
perfs=()
gaps=()
refusals=()
for run in $(seq 1 "$runs"); do
    version="$(stamp "$pacelink" --version | tail -1)"
    versions+=("${version%% exit*}")
    # shellcheck disable=SC2086
    stamp "$pacelink" perf -c 127.0.0.1 -p "$port" -t 2 $extra > "$work/perf-$run.log"
    perfs+=("$(tail -1 "$work/perf-$run.log" | awk '{print $1}')")
    connected="$(grep -m1 'connected to' "$work/perf-$run.log" | awk '{print $1}')"
    last="$(tail -2 "$work/perf-$run.log" | head -1 | awk '{print $1}')"
    gaps+=("$(awk -v a="$last" -v b="${perfs[-1]}" 'BEGIN { printf "%.3f", b - a }')")
    echo "run $run: --version ${versions[-1]} s; perf -t 2 ${perfs[-1]} s (connected line at $connected s, last line" \
        "at $last s, exit ${gaps[-1]} s after it), $(grep -c . "$work/perf-$run.log") lines," \
        "$(tail -1 "$work/perf-$run.log" | cut -c9-)"
    for command in "perf -c 127.0.0.1 -p $closed -t 2" "ping 127.0.0.1:$closed -c 1" "send $work/x.txt 127.0.0.1:$closed"
    do
        # shellcheck disable=SC2086
        stamp "$pacelink" $command $extra > "$work/closed.log"
        refusals+=("$(tail -1 "$work/closed.log" | awk '{print $1}')")
        echo "  closed port: pacelink ${command%% *} ${refusals[-1]} s, $(tail -1 "$work/closed.log" | cut -c9-):" \
            "$(grep -m1 -o 'nothing listens on its port (ICMP port unreachable)' "$work/closed.log" || \
            head -1 "$work/closed.log")"
    done
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "median of $runs: pacelink --version $(median "${versions[@]}") s, pacelink perf -c 127.0.0.1 -t 2" \
    "$(median "${perfs[@]}") s (exit $(median "${gaps[@]}") s after the last line); closed port: longest of" \
    "$((runs * 3)) $(printf '%s\n' "${refusals[@]}" | sort -n | tail -1) s"
echo "last perf run:"
cat "$work/perf-$runs.log"
