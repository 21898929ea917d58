#!/usr/bin/env bash
# Wall time of the command line's start and of a short perf test, as a user types them (docs/tools.md, "Start-up"):
# `pacelink --version` and `pacelink perf -c 127.0.0.1 -t 2` against a perf server in another process, and
# `perf -c`, `ping` and `send` to a port where nothing listens, each run RUNS times alternated, with every line a
# command prints time-stamped from its start (so also the gap from its last line to its exit) and the command's own
# CPU-seconds. Prints each run and the medians. Run it through quiet-run: the figures are the machine's otherwise.
#
# usage: perf/scripts/cli-start.sh [RUNS] [PACELINK...]      (defaults: 5, bin/pacelink of this checkout)
#        Several launchers (another build's bin/pacelink, PACELINK_JAVA=... in a wrapper, examples/target/pacelink
#        built by -Pnative) are alternated inside every run, so a before/after shares one quiet-run; each gets its own
#        medians. The perf server is the first launcher's.
#        PERF_ARGS="--insecure" adds options to both ends; the server and client keep their keys in a directory of
#        their own (XDG_CONFIG_HOME), the clients trusting the server's key from the first run on.
#        LONG=N adds a perf -c -t N test per launcher and run: a faster start must not cost the test's throughput, so
#        its sender rate, both ends' CPU and the client's CPU-seconds are printed beside it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-5}"
shift || true
launchers=("$@")
[[ ${#launchers[@]} -gt 0 ]] || launchers=("$here/bin/pacelink")
extra="${PERF_ARGS:-}"
long="${LONG:-0}"
work="$(mktemp -d)"
export XDG_CONFIG_HOME="$work/config"
port=$((20000 + RANDOM % 20000))
# shellcheck disable=SC2086 # PERF_ARGS holds several options
"${launchers[0]}" perf -s -B 127.0.0.1 -p "$port" $extra > "$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
    grep -q "Server listening" "$work/server.log" && break
    sleep 0.1
done
# One unmeasured test each: the client learns the server's key (a returning client is what is timed).
for pacelink in "${launchers[@]}"; do
    # shellcheck disable=SC2086
    "$pacelink" perf -c 127.0.0.1 -p "$port" -t 0.2 $extra > /dev/null 2>&1
done

stamp() # CMD...: runs it, prints each output line with the seconds since the start, then "exit STATUS cpu SECONDS"
{
    python3 -c '
import resource, subprocess, sys, time
start = time.monotonic()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
for line in child.stdout:
    print("%7.3f %s" % (time.monotonic() - start, line.rstrip()))
child.wait()
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%7.3f exit %d cpu %.2f s" % (time.monotonic() - start, child.returncode, usage.ru_utime + usage.ru_stime))
' "$@"
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

closed=$((port + 1))
echo x > "$work/x.txt"
declare -A versions perfs gaps refusals rates cpus
for run in $(seq 1 "$runs"); do
    for i in "${!launchers[@]}"; do
        pacelink="${launchers[$i]}"
        name="[$i] $pacelink"
        version="$(stamp "$pacelink" --version | tail -1)"
        versions[$i]+="${version%% exit*} "
        # shellcheck disable=SC2086
        stamp "$pacelink" perf -c 127.0.0.1 -p "$port" -t 2 $extra > "$work/perf-$i-$run.log"
        wall="$(tail -1 "$work/perf-$i-$run.log" | awk '{print $1}')"
        perfs[$i]+="$wall "
        connected="$(grep -m1 'connected to' "$work/perf-$i-$run.log" | awk '{print $1}')"
        last="$(tail -2 "$work/perf-$i-$run.log" | head -1 | awk '{print $1}')"
        gap="$(awk -v a="$last" -v b="$wall" 'BEGIN { printf "%.3f", b - a }')"
        gaps[$i]+="$gap "
        moved="$(grep -m1 ' sender$' "$work/perf-$i-$run.log" | awk '{print $6, $7}')"
        echo "run $run $name: --version ${version%% exit*} s; perf -t 2 $wall s (connected line at $connected s," \
            "last line at $last s, exit $gap s after it; $moved sent), $(grep -c . "$work/perf-$i-$run.log") lines," \
            "$(tail -1 "$work/perf-$i-$run.log" | cut -c9-)"
        for command in "perf -c 127.0.0.1 -p $closed -t 2" "ping 127.0.0.1:$closed -c 1" \
            "send $work/x.txt 127.0.0.1:$closed"
        do
            # shellcheck disable=SC2086
            stamp "$pacelink" $command $extra > "$work/closed.log"
            refusal="$(tail -1 "$work/closed.log" | awk '{print $1}')"
            refusals[$i]+="$refusal "
            echo "  closed port: pacelink ${command%% *} $refusal s, $(tail -1 "$work/closed.log" | cut -c9-):" \
                "$(grep -m1 -o 'nothing listens on its port (ICMP port unreachable)' "$work/closed.log" || \
                head -1 "$work/closed.log")"
        done
        if [[ "$long" != 0 ]]; then
            # shellcheck disable=SC2086
            stamp "$pacelink" perf -c 127.0.0.1 -p "$port" -t "$long" $extra > "$work/long.log"
            rate="$(grep -m1 ' sender$' "$work/long.log" | \
                awk '{ r = $8; if ($9 ~ /^G/) r *= 1000; if ($9 ~ /^K/) r /= 1000; print r }')"
            cpu="$(tail -1 "$work/long.log" | awk '{print $5}')"
            rates[$i]+="$rate "
            cpus[$i]+="$cpu "
            echo "  perf -t $long: $(grep -m1 ' sender$' "$work/long.log" | cut -c9-); $(grep -m1 'CPU use' \
                "$work/long.log" | cut -c9-); the client's process $cpu CPU-s, $(tail -1 "$work/long.log" | cut -c9-)"
        fi
    done
done
for i in "${!launchers[@]}"; do
    # shellcheck disable=SC2086 # the lists are space-separated figures
    echo "median of $runs, [$i] ${launchers[$i]}: pacelink --version $(median ${versions[$i]}) s, pacelink perf -c" \
        "127.0.0.1 -t 2 $(median ${perfs[$i]}) s (exit $(median ${gaps[$i]}) s after the last line); closed port:" \
        "longest of $((runs * 3)) $(printf '%s\n' ${refusals[$i]} | sort -n | tail -1) s, median" \
        "$(median ${refusals[$i]}) s"
    if [[ "$long" != 0 ]]; then
        # shellcheck disable=SC2086
        echo "  perf -c 127.0.0.1 -t $long: sender $(median ${rates[$i]}) Mbits/sec (runs: ${rates[$i]% }), the" \
            "client's process $(median ${cpus[$i]}) CPU-s (runs: ${cpus[$i]% })"
    fi
done
echo "last perf run:"
cat "$work/perf-$((${#launchers[@]} - 1))-$runs.log"
