#!/bin/bash
# Idle CPU of the `pacelink netem` relay: a relay with one client that sent one datagram and then went quiet (so the
# relay holds a socket towards the server for it, as after any transfer), its process CPU over IDLE seconds, read from
# /proc/PID/stat. With BASELINE_JAR the two builds alternate, RUNS each. Prints one line per run and the medians.
#
#   perf/scripts/relay-idle.sh [--runs N] [--idle SECONDS] [--port PORT]
#
# Defaults: 3 runs, 20 s idle, listen port 47300 (the server port, one above it, need not be served).
# Environment: JAR (examples/target/pacelink.jar), BASELINE_JAR (none), JAVA_OPTS (none).
set -u
set -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-$REPO/examples/target/pacelink.jar}
BASELINE_JAR=${BASELINE_JAR:-}
JAVA_OPTS=${JAVA_OPTS:-}
RUNS=3
IDLE=20
PORT=47300
usage() { echo "usage: $0 [--runs N] [--idle SECONDS] [--port PORT]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=${2:-}; shift 2 ;;
    --idle) IDLE=${2:-}; shift 2 ;;
    --port) PORT=${2:-}; shift 2 ;;
    *) usage ;;
  esac
done
[[ "$RUNS" =~ ^[1-9][0-9]*$ && "$IDLE" =~ ^[1-9][0-9]*$ && "$PORT" =~ ^[1-9][0-9]*$ ]] || usage
[ -f "$JAR" ] || { echo "relay-idle.sh: $JAR not found; build it: mvn -B -q package -DskipTests" >&2; exit 2; }
[ -z "$BASELINE_JAR" ] || [ -f "$BASELINE_JAR" ] || { echo "relay-idle.sh: $BASELINE_JAR not found" >&2; exit 2; }
TICKS=$(getconf CLK_TCK)
RELAY=""
trap '[ -n "$RELAY" ] && kill "$RELAY" 2>/dev/null' EXIT

# measure JAR LABEL: prints "LABEL PERCENT"
measure() {
  local jar=$1 label=$2 log
  log=$(mktemp)
  # shellcheck disable=SC2086
  java $JAVA_OPTS -jar "$jar" netem --listen "$PORT" --forward "127.0.0.1:$((PORT + 1))" \
    --path "rate=50mbit delay=10ms" --duration "$((IDLE + 30))s" > "$log" 2>&1 &
  RELAY=$!
  for _ in $(seq 100); do grep -q "relaying\|netem" "$log" 2>/dev/null && break; sleep 0.1; done
  sleep 2
  python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x' * 100, ('127.0.0.1', $PORT))"
  sleep 2
  local t0 t1
  t0=$(awk '{print $14 + $15}' "/proc/$RELAY/stat") || { echo "relay-idle.sh: the relay exited: $(cat "$log")" >&2; exit 1; }
  sleep "$IDLE"
  t1=$(awk '{print $14 + $15}' "/proc/$RELAY/stat") || { echo "relay-idle.sh: the relay exited: $(cat "$log")" >&2; exit 1; }
  kill "$RELAY" 2>/dev/null; wait "$RELAY" 2>/dev/null; RELAY=""
  rm -f "$log"
  echo "$label $(awk -v d="$((t1 - t0))" -v hz="$TICKS" -v s="$IDLE" 'BEGIN { printf "%.2f", 100 * d / hz / s }')"
}

results=$(mktemp)
for run in $(seq "$RUNS"); do
  if [ -n "$BASELINE_JAR" ]; then
    line=$(measure "$BASELINE_JAR" baseline) || exit 1
    echo "run $run: $line % of a core" >&2; echo "$line" >> "$results"
  fi
  line=$(measure "$JAR" relay) || exit 1
  echo "run $run: $line % of a core" >&2; echo "$line" >> "$results"
done
echo "| relay | idle CPU, % of a core, median (runs) |"
echo "|---|---|"
for label in baseline relay; do
  values=$(awk -v l="$label" '$1 == l { print $2 }' "$results" | sort -g)
  [ -n "$values" ] || continue
  n=$(echo "$values" | wc -l)
  median=$(echo "$values" | sed -n "$(( (n + 1) / 2 ))p")
  echo "| $label ($( [ "$label" = relay ] && echo "$JAR" || echo "$BASELINE_JAR")) | $median ($(echo $values | tr ' ' ',')) |"
done
rm -f "$results"
