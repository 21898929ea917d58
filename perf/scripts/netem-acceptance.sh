#!/bin/bash
# Acceptance runs through `pacelink netem` on loopback, server, relay and client each in its own JVM:
#
#  busy  issue 9 item 11: `-C bbr` for DURATION s through rate=200mbit delay=19ms loss=1% queue=1bdp (reverse
#        delay=19ms) with a competing busy process (`yes > /dev/null`): the sender's min RTT never below 38 ms, and no
#        collapse (every 1-s interval after the first 2 s at least 50 % of the run's median interval);
#  long  issue 13: `-C bbr -P 4` through the lossy long path (100 Mbit/s, 150 +- 15 ms, 8 % loss), RUNS times, at
#        least 60 Mbit/s at the receiver in every run; and `-C cubic -P 4` CUBIC_RUNS times, below 2 Mbit/s.
#
#   perf/scripts/netem-acceptance.sh [busy] [long]
#
# Environment: JAR (examples/target/pacelink.jar), OUT (a new folder under /tmp), DURATION (30), RUNS (5),
# CUBIC_RUNS (2). Prints one line per run (with the load average) and a verdict per check; exits 1 if one failed.
set -u
set -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-$REPO/examples/target/pacelink.jar}
OUT=${OUT:-/tmp/netem-acceptance-$(date +%Y%m%d-%H%M%S)}
DURATION=${DURATION:-30}
RUNS=${RUNS:-5}
CUBIC_RUNS=${CUBIC_RUNS:-2}
[ -f "$JAR" ] || { echo "netem-acceptance.sh: $JAR not found; build it: mvn -B -q -pl examples -am package -DskipTests" >&2; exit 2; }
mkdir -p "$OUT"
CHECKS=${*:-busy long}
FAILED=0

# free_port, await_line
. "$HERE/processes.sh"

# run NAME FORWARD REVERSE BUSY CLIENT_ARGS...: one test, its JSON in $OUT/NAME.json
run() {
  local name=$1 forward=$2 reverse=$3 busy=$4
  shift 4
  local sp np
  sp=$(free_port)
  np=$(free_port)
  java -jar "$JAR" perf -s -1 -B 127.0.0.1 -p "$sp" > "$OUT/$name.server.log" 2>&1 &
  local server=$!
  java -jar "$JAR" netem --listen "127.0.0.1:$np" --forward "127.0.0.1:$sp" --path "$forward" \
    --reverse-path "$reverse" > "$OUT/$name.netem.log" 2>&1 &
  local relay=$!
  await_line "$OUT/$name.server.log" listening && await_line "$OUT/$name.netem.log" relaying
  local hog=""
  if [ "$busy" = 1 ]; then
    yes > /dev/null &
    hog=$!
  fi
  echo "$(cut -d' ' -f1-3 /proc/loadavg)" > "$OUT/$name.load"
  java -jar "$JAR" perf -c 127.0.0.1 -p "$np" -t "$DURATION" -i 1 -J "$@" > "$OUT/$name.json" 2> "$OUT/$name.err"
  echo "$?" > "$OUT/$name.exit"
  cut -d' ' -f1-3 /proc/loadavg >> "$OUT/$name.load"
  [ -n "$hog" ] && kill "$hog"
  kill "$relay" "$server" 2>/dev/null
  wait "$relay" "$server" 2>/dev/null
}

summary() { # NAME MIN_RTT_FLOOR_MS
  python3 - "$OUT/$1" "$2" <<'PY'
import json, statistics, sys
base, floor_ms = sys.argv[1], float(sys.argv[2])
load = open(base + '.load').read().split('\n')
try:
    j = json.load(open(base + '.json'))
except (ValueError, OSError):
    print('  %s: no JSON report (exit %s), see %s.err' % (base, open(base + '.exit').read().strip(), base))
    sys.exit(0)
received = j['end']['sum_received']['bits_per_second'] / 1e6
intervals = [i['sum']['bits_per_second'] / 1e6 for i in j['intervals']]
min_rtt_us = [s['pacelink']['min_rtt_us'] for i in j['intervals'] for s in i['streams'] if 'pacelink' in s]
min_rtt_ms = min(min_rtt_us) / 1e3 if min_rtt_us else float('nan')
after = [v for i, v in zip(j['intervals'], intervals) if i['sum']['start'] >= 2.0]
median = statistics.median(after) if after else float('nan')
lowest = min(after) if after else float('nan')
print('  %-12s received %7.2f Mbit/s  min RTT %7.2f ms (floor %g)  intervals after 2 s: median %.1f, lowest %.1f '
      '(%.0f %%)  load %s -> %s' % (base.split('/')[-1], received, min_rtt_ms, floor_ms, median, lowest,
                                    100 * lowest / median if median else 0, load[0], load[1] if len(load) > 1 else ''))
json.dump({'received_mbps': received, 'min_rtt_ms': min_rtt_ms, 'median_interval_mbps': median,
           'lowest_interval_mbps': lowest}, open(base + '.summary.json', 'w'))
PY
}

figure() { # NAME KEY
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$OUT/$1.summary.json" "$2" 2>/dev/null || echo nan
}

echo "netem acceptance: $CHECKS, $DURATION s per run, load $(cut -d' ' -f1-3 /proc/loadavg), out $OUT"
for check in $CHECKS; do
  case $check in
    busy)
      run busy-bbr "rate=200mbit delay=19ms loss=1% queue=1bdp" "delay=19ms" 1 -C bbr
      summary busy-bbr 38
      ok=$(python3 -c "import json; s = json.load(open('$OUT/busy-bbr.summary.json')); print(int(s['min_rtt_ms'] >= 38 and s['lowest_interval_mbps'] >= 0.5 * s['median_interval_mbps']))" 2>/dev/null || echo 0)
      if [ "$ok" = 1 ]; then echo "PASS busy: min RTT >= 38 ms and no interval below half the median"; else echo "FAIL busy"; FAILED=1; fi
      ;;
    long)
      LONG="rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp"
      LONG_REVERSE="delay=75ms jitter=7.5ms"
      for r in $(seq 1 "$RUNS"); do
        run "long-bbr-$r" "$LONG" "$LONG_REVERSE" 0 -C bbr -P 4
        summary "long-bbr-$r" 135
        if [ "$r" -le "$CUBIC_RUNS" ]; then
          run "long-cubic-$r" "$LONG" "$LONG_REVERSE" 0 -C cubic -P 4
          summary "long-cubic-$r" 135
        fi
      done
      bbr=$(for r in $(seq 1 "$RUNS"); do figure "long-bbr-$r" received_mbps; done | sort -g | tr '\n' ' ')
      cubic=$(for r in $(seq 1 "$CUBIC_RUNS"); do figure "long-cubic-$r" received_mbps; done | sort -g | tr '\n' ' ')
      echo "  bbr -P 4 received (Mbit/s, sorted): $bbr"
      echo "  cubic -P 4 received (Mbit/s, sorted): $cubic"
      if python3 -c "import sys; b = [float(x) for x in sys.argv[1].split()]; c = [float(x) for x in sys.argv[2].split()]; sys.exit(0 if min(b) >= 60 and max(c) < 2 else 1)" "$bbr" "$cubic"; then
        echo "PASS long: bbr >= 60 Mbit/s in every run, cubic < 2"
      else
        echo "FAIL long"; FAILED=1
      fi
      ;;
    *) echo "netem-acceptance.sh: unknown check '$check' (busy, long)" >&2; exit 2 ;;
  esac
done
exit $FAILED
