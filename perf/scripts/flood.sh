#!/bin/bash
# Flood acceptance: the command-line servers, each a JVM of its own on loopback in its default secure mode and JVM
# settings (as users run them), flooded from raw UDP sockets of another loopback host (127.0.0.2 and up,
# io.pacelink.perf.soak.HelloFlood) while a legitimate client uses them (docs/security.md, "Floods, measured"):
#
#   half-open  for `pacelink receive` and `pacelink perf -s` in turn: HALF_OPEN_RATE hellos a second for DURATION s,
#              each a new client id with a genuine Noise message and a MAC that checks, following every RETRY with its
#              token, never confirming. Beside it io.pacelink.perf.soak.ConnectProbe connects to the server through a
#              `pacelink netem` relay (DELAY ms each way) every 100-250 ms from 3 s before the flood until PROBE_AFTER s
#              after the attacker's last datagram, from one endpoint (a returning client). Passes if every connect that
#              ended after the flood's first datagram (every one under the flood, the one in flight when it began, and
#              those in the seconds after it, while the server drops the flood's half-open handshakes) succeeded within
#              MAX_RTTS round-trip times of that path: under a flood a tokenless hello draws a RETRY (two round trips
#              plus the work of both ends and the relay's lateness), while a hello carrying the NEW_TOKEN token the
#              probe's previous connection brought takes one; a hello lost, dropped or answered late costs a
#              retransmission timeout more (the summary counts the attempts over 3 RTTs apart, gives the first connect
#              apart from the returning ones, and the server's CPU per thread class over the flood, thread_cpu.py). A
#              second probe beside it (ConnectProbe --first-contacts) is a new client at every connect — its own
#              endpoint, no token — as a server sees a client it never met; it is judged by the same MAX_RTTS.
#              The connects that ended before the flood began are not judged: they are reported on a line of their own
#              (count, p50, max, every one over MAX_RTTS), and the whole run as the check used to judge it on another.
#              Why: the probes start 3 s and 2 s before the flood (their JVMs' start-up kept out of the flood's first
#              seconds, the returning client holding its token when it begins), so their first seconds are a cold,
#              unprimed client process (PROBE_PRIMING_MS 0, as a client launches by default) against a server nobody
#              floods — a fresh process's first connects, a figure of its own (perf/FINDINGS.md, "A client's first
#              connect"), which no flood can have caused; counted, they failed the check on this VM in runs whose every
#              connect under the flood was within 2 RTTs (perf/FINDINGS.md, "The flood check: what it counts"). The
#              tokened case judges its duty-cycle samples from the flood's start on for the same reason. The flood's
#              span is the attacker's own (its first and last datagram on the wall clock, HelloFlood's summary), each
#              connect placed by the probe's (ConnectProbe's start_unix_s); with tools that give no such times every
#              connect is judged, as before. The probes stop PROBE_AFTER s after the attacker's last datagram, read from
#              the summary it writes as it ends (ConnectProbe --until-flood-ends), not at a fixed time from their own
#              start: the attacker is a JVM started after them, and on a loaded two-core machine its start slipped by
#              seconds (5.8 s into the probe instead of ~3 in one run), so a probe of fixed length lost the seconds
#              after the flood — the server dropping the flood's half-open handshakes — that the check is meant to judge
#              (perf/FINDINGS.md, "The flood check: what it counts", what next).
#   tokened    for `pacelink ping --echo`: TOKENED_RATE valid-MAC hellos a second for DURATION s from SOURCES
#              addresses, spending every token a RETRY brings on a genuine hello and repeating it in between (the
#              Diffie-Hellman work is what this costs the server), while `pacelink ping` sends a request every 0.2 s.
#              The ping and `pacelink stat` (sampling the server every second) start TOOLS_LEAD s before the attack.
#              Passes if the server's duty-cycle thread (the CLI servers run their endpoint on their main thread)
#              used at most CPU_LIMIT % of a core over the flood, its longest duty cycle during the flood (its
#              longest-recent-duty-cycle-ns, sampled every second from the flood's start on) stayed at most
#              DUTY_LIMIT_MS, its resident memory
#              SETTLE s after the flood was within RSS_LIMIT_MB of what it was before it (taken after a collection,
#              `jcmd GC.run`, so that the launch's garbage is not in it), and the ping got every echo.
#
# Both also check that the attack's answers stayed smaller than the attack (no amplification). It writes
# OUT/summary.md (what each check saw, the servers' defence counters, the last lines of a failed run's log), prints
# it, and exits 0 if every check passed, 1 if one failed, 2 on a usage error. Everything it started is stopped when it
# ends, also when it is interrupted.
#
#   perf/scripts/flood.sh [--duration SECONDS] [--out DIR] [--cases half-open,tokened] [--servers receive,perf]
#                         [--settle SECONDS] [--half-open-rate PPS] [--tokened-rate PPS] [--sources N] [--delay MS]
#   perf/scripts/flood.sh --report DIR [--cases …] [--servers …] [the run's other options]
#
# --report runs nothing: it judges an earlier run's output folder DIR again and writes its summary.md anew (with the
# checks as they are now; give the run's --cases, --servers and the options its summary line names).
#
# Defaults: 60 s floods, OUT a new folder under /tmp, both cases, both servers of the half-open case, 60 s settle,
# 1000 half-open hellos/s, 20000 tokened hellos/s from 8 sources, 10 ms relay delay each way.
# Environment: JAR (examples/target/pacelink.jar), BENCH (perf/target/benchmarks.jar, for the attacker and the
# probe), JAVA_OPTS (none: the servers as users run them), TOOL_OPTS ("-Xmx256m -XX:+UseSerialGC", the attacker,
# probe, relay and ping), PROBE_PRIMING_MS (0: the probes' endpoints launch as clients do by default, unprimed, so
# their first connects run on a cold JIT; ConnectProbe --priming-ms), MAX_RTTS (2), CPU_LIMIT (25), DUTY_LIMIT_MS
# (20), RSS_LIMIT_MB (10), ATTACK_FROM (127.0.0.2: the attacker's first source address, its others consecutive),
# PROBE_AFTER (2: seconds the probes go on connecting after the flood's last datagram), ATTACK_NICE (19),
# RELAY_NICE (-10), RELAY_RT (20: the relay's `netem --rt`, its forwarding thread SCHED_FIFO at that priority; 0
# leaves it at RELAY_NICE alone), TOOLS_LEAD (3), REVERSE_DELAY (--delay: the relay's delay toward the
# clients, in ms; a diagnostic — the probes' unit stays 2 × --delay, so a longer one stands for a server that answers
# late, which the check must catch). The attacker, the relay and the probes stand for other hosts and the network
# between them, but here they share the server's two cores: at nice 0 the attacker (a JVM building 20,000 hellos a
# second) kept the server's duty-cycle thread waiting for a core for 0.4-0.7 s of each of the flood's first seconds,
# and its longest duty cycles (30-40 ms) timed that wait, not the server's work (perf/FINDINGS.md, "The relay warmed
# before it relays"); at nice 19 it still floods at its full rate (the summary's "attack at its rate" says whether it
# did). The relay runs at -10, and its forwarding thread SCHED_FIFO (`netem --rt`) as netem-tun's forwarding threads
# run: a path's delay must not grow with the endpoints' load (the summary gives the relay's own lateness per second,
# from its log). At nice -10 alone it released 1-5 ms late in most seconds on a two-core VM: a normal thread that
# wakes while both cores are busy waits for the fair scheduler's next preemption point, up to a 4-ms tick. The probes start one second
# apart (each stands for a client process of its own; started at once on two cores they slowed each other's first
# connect) and with a class-data archive of the probe's classes, trained by the script once per run, as bin/pacelink
# starts a user's client with the jar's archive. The tools keep their host key and known hosts in OUT/config
# (XDG_CONFIG_HOME).
set -u
set -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-$REPO/examples/target/pacelink.jar}
BENCH=${BENCH:-$REPO/perf/target/benchmarks.jar}
JAVA_OPTS=${JAVA_OPTS:-}
TOOL_OPTS=${TOOL_OPTS:--Xmx256m -XX:+UseSerialGC}
MAX_RTTS=${MAX_RTTS:-2}
PROBE_PRIMING_MS=${PROBE_PRIMING_MS:-0}
CPU_LIMIT=${CPU_LIMIT:-25}
DUTY_LIMIT_MS=${DUTY_LIMIT_MS:-20}
RSS_LIMIT_MB=${RSS_LIMIT_MB:-10}
ATTACK_FROM=${ATTACK_FROM:-127.0.0.2}
REVERSE_DELAY=${REVERSE_DELAY:-}
ATTACK_NICE=${ATTACK_NICE:-19}
RELAY_NICE=${RELAY_NICE:--10}
RELAY_RT=${RELAY_RT:-20}
TOOLS_LEAD=${TOOLS_LEAD:-3}
PROBE_AFTER=${PROBE_AFTER:-2}
DURATION=60
OUT=""
REPORT=0
CASES=half-open,tokened
SERVERS=receive,perf
SETTLE=60
HALF_OPEN_RATE=1000
TOKENED_RATE=20000
SOURCES=8
DELAY=10

usage() {
  sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION=${2:-}; shift 2 ;;
    --out) OUT=${2:-}; shift 2 ;;
    --cases) CASES=${2:-}; shift 2 ;;
    --servers) SERVERS=${2:-}; shift 2 ;;
    --settle) SETTLE=${2:-}; shift 2 ;;
    --half-open-rate) HALF_OPEN_RATE=${2:-}; shift 2 ;;
    --tokened-rate) TOKENED_RATE=${2:-}; shift 2 ;;
    --sources) SOURCES=${2:-}; shift 2 ;;
    --delay) DELAY=${2:-}; shift 2 ;;
    --report) OUT=${2:-}; REPORT=1; shift 2 ;;
    -h|--help) usage ;;
    *) echo "flood.sh: unknown option '$1' (--help lists them)" >&2; exit 2 ;;
  esac
done
for n in DURATION SETTLE HALF_OPEN_RATE TOKENED_RATE SOURCES DELAY CPU_LIMIT DUTY_LIMIT_MS RSS_LIMIT_MB PROBE_PRIMING_MS \
  TOOLS_LEAD RELAY_RT PROBE_AFTER ${REVERSE_DELAY:+REVERSE_DELAY}; do
  case "${!n}" in ''|*[!0-9]*) echo "flood.sh: $n must be a whole number, got '${!n}'" >&2; exit 2 ;; esac
done
case "$MAX_RTTS" in ''|*[!0-9.]*) echo "flood.sh: MAX_RTTS must be a number, got '$MAX_RTTS'" >&2; exit 2 ;; esac
[ "$DURATION" -ge 1 ] || { echo "flood.sh: --duration must be at least 1 s" >&2; exit 2; }
[ "$DELAY" -ge 1 ] || { echo "flood.sh: --delay must be at least 1 ms (the probe's unit is the path's RTT)" >&2; exit 2; }
[ "$SOURCES" -ge 1 ] && [ "$SOURCES" -le 200 ] || { echo "flood.sh: --sources must be 1-200" >&2; exit 2; }
for c in ${CASES//,/ }; do
  case "$c" in half-open|tokened) ;; *) echo "flood.sh: --cases takes half-open and tokened, got '$c'" >&2; exit 2 ;; esac
done
for s in ${SERVERS//,/ }; do
  case "$s" in receive|perf) ;; *) echo "flood.sh: --servers takes receive and perf, got '$s'" >&2; exit 2 ;; esac
done
if [ "$REPORT" = 1 ]; then
  [ -d "$OUT" ] || { echo "flood.sh: --report needs an earlier run's output folder, got '$OUT'" >&2; exit 2; }
else
  [ -f "$JAR" ] || { echo "flood.sh: $JAR not found; build it: mvn -B -q -pl examples -am package -DskipTests" >&2; exit 2; }
  [ -f "$BENCH" ] || { echo "flood.sh: $BENCH not found; build it: mvn -B -q -pl perf -am package -DskipTests" >&2; exit 2; }
  OUT=${OUT:-/tmp/flood-$(date +%Y%m%d-%H%M%S)}
  rm -rf "$OUT/logs" "$OUT/incoming"
  mkdir -p "$OUT/logs" "$OUT/incoming" "$OUT/config"
fi
# Absolute: a relative XDG_CONFIG_HOME is ignored (XDG Base Directory spec).
OUT=$(cd "$OUT" && pwd)
export XDG_CONFIG_HOME="$OUT/config"
AGRONA="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED"
PIDS=()

# free_port, await_line
. "$HERE/processes.sh"

cleanup() { # every process this script started, by the pid it recorded
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM

stop() { # pid...: stop them and wait for them
  for pid in "$@"; do kill "$pid" 2>/dev/null; done
  for pid in "$@"; do wait "$pid" 2>/dev/null; done
}

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

stat_json() { # pid file: the process's counters, one JSON document
  java $TOOL_OPTS -jar "$JAR" stat --json --count 1 --pid "$1" > "$2" 2>/dev/null
}

start_server() { # name port: starts the server in its own JVM (SERVER_PID) and waits for it to listen
  case "$1" in
    receive) java $JAVA_OPTS -jar "$JAR" receive --listen "127.0.0.1:$2" --dir "$OUT/incoming" > "$OUT/logs/$1.log" 2>&1 & ;;
    perf) java $JAVA_OPTS -jar "$JAR" perf -s -B 127.0.0.1 -p "$2" > "$OUT/logs/$1.log" 2>&1 & ;;
    echo) java $JAVA_OPTS -jar "$JAR" ping --echo -B 127.0.0.1 -p "$2" > "$OUT/logs/$1.log" 2>&1 & ;;
  esac
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  await_line "$OUT/logs/$1.log" listening
}

flood() { # name port mode rate sources: the attacker in the background (ATTACK_PID), waiting until it floods
  nice -n "$ATTACK_NICE" java $TOOL_OPTS $AGRONA -cp "$BENCH" io.pacelink.perf.soak.HelloFlood --target "127.0.0.1:$2" --mode "$3" \
    --from "$ATTACK_FROM" --rate "$4" --sources "$5" --duration "$DURATION" --summary "$OUT/$1.attack.json" > "$OUT/logs/$1.attack.log" 2>&1 &
  ATTACK_PID=$!
  PIDS+=("$ATTACK_PID")
  await_line "$OUT/logs/$1.attack.log" "hello-flood: flooding"
}

START_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
CASES_RUN=$CASES
if [ "$REPORT" = 1 ]; then
  CASES_RUN=""
  START_LOAD="- (judged again by --report)"
else
  echo "flood.sh: cases $CASES, $DURATION s floods, load $START_LOAD, output in $OUT"
fi

PROBE_CDS=""
probe_archive() { # port: once per run, a class-data archive of the probe's classes from a short run against the server
  [ -n "$PROBE_CDS" ] && return 0
  if java $TOOL_OPTS -XX:ArchiveClassesAtExit="$OUT/probe.jsa" $AGRONA -cp "$BENCH" io.pacelink.perf.soak.ConnectProbe \
      --target "127.0.0.1:$1" --peer-key "$OUT/config/pacelink/host.pub" --rtt-ms 1 --duration 0.3 --hold-rtts 0 \
      > "$OUT/logs/probe-archive.log" 2>&1 && [ -s "$OUT/probe.jsa" ]; then
    PROBE_CDS="-XX:SharedArchiveFile=$OUT/probe.jsa -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off"
  else
    echo "flood.sh: no class-data archive for the probes (logs/probe-archive.log); they start without one" >&2
    PROBE_CDS=" "
  fi
}

half_open() { # server: receive or perf
  local name="half-open-$1" port relay
  port=$(free_port)
  start_server "$1" "$port" || { echo "flood.sh: $1 did not start (logs/$1.log)" >&2; return 1; }
  mv "$OUT/logs/$1.log" "$OUT/logs/$name.server.log"
  relay=$(free_port)
  probe_archive "$port"
  local relay_rt=()
  [ "$RELAY_RT" -gt 0 ] && relay_rt=(--rt "$RELAY_RT")
  nice -n "$RELAY_NICE" java $TOOL_OPTS -jar "$JAR" netem --listen "127.0.0.1:$relay" --forward "127.0.0.1:$port" \
    --path "delay=${DELAY}ms" --reverse-path "delay=${REVERSE_DELAY:-$DELAY}ms" "${relay_rt[@]}" > "$OUT/logs/$name.relay.log" 2>&1 &
  local relay_pid=$!
  PIDS+=("$relay_pid")
  await_line "$OUT/logs/$name.relay.log" relaying || return 1
  # The probes stop PROBE_AFTER s after the attacker's last datagram (its summary, written as it ends); their
  # --duration only bounds them should the attacker never write one.
  rm -f "$OUT/$name.attack.json" "$OUT/$name.probe.json" "$OUT/$name.first.probe.json"
  local until=(--until-flood-ends "$OUT/$name.attack.json" --after-flood "$PROBE_AFTER")
  java $TOOL_OPTS $PROBE_CDS $AGRONA -cp "$BENCH" io.pacelink.perf.soak.ConnectProbe --target "127.0.0.1:$relay" \
    --peer-key "$OUT/config/pacelink/host.pub" --rtt-ms "$((2 * DELAY))" --duration "$((DURATION + 60))" \
    "${until[@]}" --priming-ms "$PROBE_PRIMING_MS" --summary "$OUT/$name.probe.json" > "$OUT/logs/$name.probe.log" 2>&1 &
  local probe_pid=$!
  PIDS+=("$probe_pid")
  sleep 1
  # Beside the returning client, new ones: every connect from an endpoint of its own, without a token.
  java $TOOL_OPTS $PROBE_CDS $AGRONA -cp "$BENCH" io.pacelink.perf.soak.ConnectProbe --target "127.0.0.1:$relay" \
    --peer-key "$OUT/config/pacelink/host.pub" --rtt-ms "$((2 * DELAY))" --duration "$((DURATION + 60))" \
    "${until[@]}" --first-contacts --priming-ms "$PROBE_PRIMING_MS" --summary "$OUT/$name.first.probe.json" \
    > "$OUT/logs/$name.first.probe.log" 2>&1 &
  local first_pid=$!
  PIDS+=("$first_pid")
  python3 "$HERE/thread_cpu.py" watch "$SERVER_PID" "$OUT/$name.threads.json" 0.5 > /dev/null 2>&1 &
  local watch_pid=$!
  PIDS+=("$watch_pid")
  sleep 2
  flood "$name" "$port" half-open "$HALF_OPEN_RATE" 1 || return 1
  local flood_start flood_end
  flood_start=$(date +%s.%N)
  wait "$ATTACK_PID"
  flood_end=$(date +%s.%N)
  # The flood's span as this script saw it (the attacker's summary gives its own, to its first and last datagram).
  printf '{"flood_start": %s, "flood_end": %s}\n' "$flood_start" "$flood_end" > "$OUT/$name.flood.json"
  wait "$probe_pid"
  wait "$first_pid"
  stat_json "$SERVER_PID" "$OUT/$name.stat.json"
  stop "$relay_pid" "$SERVER_PID"
  wait "$watch_pid" 2>/dev/null
  python3 "$HERE/thread_cpu.py" report "$OUT/$name.threads.json" "$flood_start" "$flood_end" \
    > "$OUT/$name.threads.txt" 2>&1
}

tokened() {
  local name=tokened port
  port=$(free_port)
  start_server echo "$port" || { echo "flood.sh: ping --echo did not start (logs/echo.log)" >&2; return 1; }
  mv "$OUT/logs/echo.log" "$OUT/logs/$name.server.log"
  python3 "$HERE/thread_cpu.py" watch "$SERVER_PID" "$OUT/$name.threads.json" 0.5 > /dev/null 2>&1 &
  local watch_pid=$!
  PIDS+=("$watch_pid")
  # A legitimate client first, as a server sees before any flood: the handshake code is compiled, the heap warm.
  java $TOOL_OPTS -jar "$JAR" ping "127.0.0.1:$port" -c 20 -i 0.05 -q > "$OUT/logs/$name.warmup.log" 2>&1
  # The "before" is the server's idle memory with its launch's garbage collected: the handshake priming leaves tens
  # of MiB of it until the first collection, and a "before" holding it would let the check pass whatever the flood
  # left. (The attach's own memory is then in "before" and "after" alike.)
  jcmd "$SERVER_PID" GC.run > "$OUT/logs/$name.gc-before.log" 2>&1
  sleep 1
  stat_json "$SERVER_PID" "$OUT/$name.before.stat.json"
  local rss_before
  rss_before=$(rss_kb "$SERVER_PID")
  grep -E '^(VmRSS|RssAnon|RssFile|RssShmem):' "/proc/$SERVER_PID/status" > "$OUT/$name.status.before.txt" 2>/dev/null
  # The legitimate client and the operator's sampler of the server's longest duty cycle of the last one to two
  # seconds (every second) start TOOLS_LEAD s before the attack, as they would be running when an attack begins:
  # started with it, their two JVMs' start-ups took half a core in the flood's first second, beside the server's own
  # compiler, and the server's longest duty cycles timed its wait for a core (perf/FINDINGS.md, "The flood's first
  # second"). Only the samples taken from the flood's start on are judged.
  local pings=$(((DURATION + TOOLS_LEAD + 2) * 5))
  java $TOOL_OPTS -jar "$JAR" ping "127.0.0.1:$port" -c "$pings" -i 0.2 -W 10s -q > "$OUT/logs/$name.ping.log" 2>&1 &
  local ping_pid=$!
  PIDS+=("$ping_pid")
  java $TOOL_OPTS -jar "$JAR" stat --json --pid "$SERVER_PID" --interval 1s --count "$((DURATION + TOOLS_LEAD + 2))" \
    > "$OUT/$name.duty.jsonl" 2>/dev/null &
  local duty_pid=$!
  PIDS+=("$duty_pid")
  sleep "$TOOLS_LEAD"
  flood "$name" "$port" tokened "$TOKENED_RATE" "$SOURCES" || return 1
  local flood_start
  flood_start=$(date +%s.%N)
  local rss_peak=$rss_before
  while kill -0 "$ATTACK_PID" 2>/dev/null; do
    local r
    r=$(rss_kb "$SERVER_PID")
    [ "${r:-0}" -gt "$rss_peak" ] && rss_peak=$r
    sleep 1
  done
  wait "$ATTACK_PID"
  local flood_end
  flood_end=$(date +%s.%N)
  stop "$duty_pid"
  wait "$ping_pid"
  local ping_exit=$?
  stat_json "$SERVER_PID" "$OUT/$name.after.stat.json"
  local rss_end
  rss_end=$(rss_kb "$SERVER_PID")
  sleep "$SETTLE"
  local rss_settled
  rss_settled=$(rss_kb "$SERVER_PID")
  # What the resident memory is made of (anonymous: Java and C heaps, stacks; file: the jar and CDS archive mapped),
  # then the Java heap as the JVM sees it — read after the figure, as an attach costs memory of its own.
  grep -E '^(VmRSS|RssAnon|RssFile|RssShmem):' "/proc/$SERVER_PID/status" > "$OUT/$name.status.settled.txt" 2>/dev/null
  jcmd "$SERVER_PID" GC.heap_info > "$OUT/$name.heap.settled.txt" 2>&1
  printf '{"rss_before_kb": %s, "rss_peak_kb": %s, "rss_flood_end_kb": %s, "rss_settled_kb": %s, "settle_s": %s, "ping_exit": %s, "flood_start": %s, "flood_end": %s}\n' \
    "$rss_before" "$rss_peak" "$rss_end" "$rss_settled" "$SETTLE" "$ping_exit" "$flood_start" "$flood_end" \
    > "$OUT/$name.server.json"
  stop "$SERVER_PID"
  wait "$watch_pid" 2>/dev/null
  python3 "$HERE/thread_cpu.py" report "$OUT/$name.threads.json" "$flood_start" "$flood_end" \
    > "$OUT/$name.threads.txt" 2>&1
}

for c in ${CASES_RUN//,/ }; do
  if [ "$c" = half-open ]; then
    for s in ${SERVERS//,/ }; do half_open "$s"; done
  else
    tokened
  fi
done

python3 - "$OUT" "$CASES" "$SERVERS" "$DURATION" "$HALF_OPEN_RATE" "$TOKENED_RATE" "$SOURCES" "$DELAY${REVERSE_DELAY:+ (toward the clients $REVERSE_DELAY)}" "$MAX_RTTS" \
  "$CPU_LIMIT" "$DUTY_LIMIT_MS" "$RSS_LIMIT_MB" "$START_LOAD" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import json, os, re, sys
(out, cases, servers, duration, half_rate, tok_rate, sources, delay, max_rtts, cpu_limit, duty_limit, rss_limit,
 start_load, load) = sys.argv[1:]
max_rtts, cpu_limit, duty_limit, rss_limit = float(max_rtts), float(cpu_limit), float(duty_limit), float(rss_limit)
FAILED_MS = 5000.0  # ConnectProbe's --timeout: how long a failed connect tried
checks, lines = [], []

def check(name, ok, detail, log=None):
    checks.append((name, ok, detail, log))

def load_json(name):
    path = os.path.join(out, name)
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None

def endpoint(stat):
    for p in (stat or {}).get('processes', []):
        if p.get('endpoint'):
            return p['endpoint']
    return {}

DEFENCES = ('retries-sent', 'retry-tokens-reused', 'retry-tokens-invalid', 'new-tokens-sent', 'new-tokens-accepted',
            'new-tokens-reused', 'new-tokens-invalid', 'new-tokens-expired', 'handshakes-unvalidated',
            'handshakes-evicted', 'key-exchanges-limited', 'answers-rate-limited', 'handshakes-rate-limited',
            'handshake-timeouts', 'handshake-auth-failures', 'hellos-bad-mac', 'connections-opened', 'errors',
            'longest-duty-cycle-ns', 'longest-recent-duty-cycle-ns')

def defences(e):
    return ', '.join('%s %s' % (k, e[k]) for k in DEFENCES if k in e)

def over_rtts(attempts, limit):
    return [a for a in attempts if 'failed' in a or a['rtts'] > limit]

def connects(attempts, limit):
    """How many, failed, p50 and max, and every one over the limit with its time on the probe's clock."""
    done = sorted(a['rtts'] for a in attempts if 'failed' not in a)
    over = over_rtts(attempts, limit)
    third = [a for a in attempts if 'failed' not in a and a['rtts'] > 3]
    return ('%d connects, %d failed; p50 %s RTTs, max %s; %d over %g RTTs, %d of them over 3 (a third round trip or '
            'a stall): %s' % (len(attempts), len(attempts) - len(done),
                              '%.2f' % done[len(done) // 2] if done else '-', '%.2f' % done[-1] if done else '-',
                              len(over), limit, len(third),
                              ', '.join('%s s: %s' % (a['at_s'], a.get('failed') or '%.2f' % a['rtts'])
                                        for a in over) or 'none'))

def attack_check(name, a, log):
    if a is None:
        check('%s: attack ran' % name, False, 'no attack summary', log)
        return
    ratio = a['answer_to_attack_bytes']
    check('%s: attack at its rate, answered without amplification' % name,
          a['datagrams_sent'] > 0 and ratio < 1.0,
          '%d datagrams in %.1f s (%.0f/s; %d fresh, %d with a new token, %d repeated; %d Noise messages built), '
          '%.1f MB; answers %d (%d RETRY, %d HANDSHAKE, %d CLOSE, %d other), %.3f of the bytes sent' % (
              a['datagrams_sent'], a['duration_s'], a['rate_achieved'], a['sent_fresh'], a['sent_tokened'],
              a['sent_repeated'], a['noise_messages_built'], a['bytes_sent'] / 1e6, a['datagrams_received'],
              a['retries_received'], a['handshakes_received'], a['closes_received'], a['other_received'], ratio),
          log)

for c in cases.split(','):
    if c == 'half-open':
        for s in servers.split(','):
            name = 'half-open-' + s
            # The flood's span on the wall clock: the attacker's own first and last datagram, else the script's view.
            attack = load_json(name + '.attack.json') or {}
            span = load_json(name + '.flood.json') or {}
            flood_start = attack.get('flood_start_unix_s') or span.get('flood_start')
            flood_end = attack.get('flood_end_unix_s') or span.get('flood_end')
            for probe, who in (('probe', 'a returning client'), ('first.probe', 'new clients')):
                p = load_json('%s.%s.json' % (name, probe))
                if p is None:
                    check('%s, %s: every connect within %g RTTs from the flood\'s start on' % (name, who, max_rtts),
                          False, 'no probe summary', 'logs/%s.%s.log' % (name, probe))
                    continue
                every = p['attempt_list']
                zero = p.get('start_unix_s')
                if zero and flood_start:
                    # A connect is before the flood only if it ended before the flood's first datagram: one in flight
                    # then met the flood's start and is judged (a failed one is taken to have lasted its timeout).
                    before = [a for a in every if zero + a['at_s'] + a.get('ms', FAILED_MS) / 1e3 < flood_start]
                    judged = [a for a in every if zero + a['at_s'] + a.get('ms', FAILED_MS) / 1e3 >= flood_start]
                    under = sum(1 for a in judged if not flood_end or zero + a['at_s'] <= flood_end)
                    where = ('judged: the connects that ended after the flood\'s first datagram (%.2f s on the '
                             'probe\'s clock), %d begun before its end, %d after it' % (
                                 flood_start - zero, under, len(judged) - under))
                else:
                    before, judged = [], every
                    where = ('%d connects, every one judged: the probe or the attacker gave no wall-clock times '
                             '(an older benchmarks jar), so none can be placed before the flood' % len(judged))
                check('%s, %s: every connect within %g RTTs from the flood\'s start on' % (name, who, max_rtts),
                      bool(judged) and not over_rtts(judged, max_rtts),
                      '%s; through a %.0f ms RTT path, %s' % (where, p['rtt_ms'], connects(judged, max_rtts)),
                      'logs/%s.%s.log' % (name, probe))
                lines.append('- %s, %s, before the flood (not judged: the probe\'s first connects, its JVM cold and '
                             'unprimed, the server not yet flooded): %s' % (name, who, connects(before, max_rtts)))
                lines.append('- %s, %s, every connect of the run (as the check judged them before it left out those '
                             'before the flood: %s): %s' % (
                                 name, who, 'pass' if every and not over_rtts(every, max_rtts) else 'FAIL',
                                 connects(every, max_rtts)))
                if probe == 'probe' and 'first_rtts' in p:
                    lines.append('- %s: the first connect (no token yet) %.2f RTTs; the %d returning ones (each '
                                 'hello carrying the NEW_TOKEN token the connection before brought) p50 %.2f RTTs, '
                                 'max %.2f' % (name, p['first_rtts'], p['returning_connected'],
                                               p['returning_p50_rtts'], p['returning_max_rtts']))
            # The relay stands for the network: where it released late, the path was longer than DELAY and the
            # connects through it slower than the endpoints made them. Its per-second lateness, read from its log.
            late = []
            try:
                for l in open(os.path.join(out, 'logs', name + '.relay.log')):
                    m = re.search(r'^\s*([0-9.]+)s .*late p50 (\d+)us p99 (\d+)us', l)
                    if m:
                        late.append((float(m.group(1)), int(m.group(2)), int(m.group(3))))
            except OSError:
                pass
            if late:
                worst = max(late, key=lambda t: t[2])
                lines.append('- %s relay: released late by p99 %.1f ms at most (second %.0f), p99 over 1 ms in %d of %d '
                             'seconds: %s' % (name, worst[2] / 1e3, worst[0], sum(1 for t in late if t[2] > 1000),
                                              len(late), ', '.join('%.0f s: %.1f ms' % (t[0], t[2] / 1e3)
                                                                   for t in late if t[2] > 1000) or 'none'))
            threads = os.path.join(out, name + '.threads.txt')
            if os.path.exists(threads):
                lines.append('- %s server threads over the flood (%% of a core): %s' % (name, ' '.join(
                    l.strip() for l in open(threads) if l.startswith('window')) or 'not read'))
            attack_check(name, load_json(name + '.attack.json'), 'logs/%s.attack.log' % name)
            e = endpoint(load_json(name + '.stat.json'))
            lines.append('- %s server counters: %s' % (name, defences(e) or 'not read'))
    else:
        name = 'tokened'
        srv = load_json('tokened.server.json')
        before = endpoint(load_json('tokened.before.stat.json'))
        after = endpoint(load_json('tokened.after.stat.json'))
        if srv is None:
            check('tokened: server measured', False, 'no server figures', 'logs/tokened.server.log')
        else:
            cpu = None
            try:
                text = open(os.path.join(out, 'tokened.threads.txt')).read()
                m = re.search(r'window \(([\d.]+) s\): main ([\d.]+) %\s+agent ([\d.]+) %', text)
                if m:
                    cpu = float(m.group(2)) + float(m.group(3))
                    window = float(m.group(1))
            except OSError:
                pass
            check('tokened: duty-cycle thread CPU at most %.0f %% of a core' % cpu_limit,
                  cpu is not None and cpu <= cpu_limit,
                  ('%.1f %% of a core over the %.0f s flood (main + agent threads, thread_cpu.py)' % (cpu, window))
                  if cpu is not None else 'no thread CPU figures (tokened.threads.txt)', 'tokened.threads.txt')
            b, a = before.get('longest-duty-cycle-ns'), after.get('longest-duty-cycle-ns')
            recent = []
            try:
                for line in open(os.path.join(out, 'tokened.duty.jsonl')):
                    sample = json.loads(line)
                    if not srv['flood_start'] * 1000 <= sample.get('time_ms', 0) <= srv['flood_end'] * 1000 + 1000:
                        continue
                    value = endpoint(sample).get('longest-recent-duty-cycle-ns')
                    if value is not None:
                        recent.append(value)
            except (OSError, ValueError):
                pass
            check('tokened: no duty cycle over %.0f ms' % duty_limit,
                  bool(recent) and max(recent) <= duty_limit * 1e6,
                  ('longest duty cycle during the flood %.2f ms (the longest of the last 1-2 s, sampled %d times, '
                   'median sample %.2f ms); since the start %.2f ms before the flood (start-up and warm-up '
                   'included), %.2f ms after it' % (max(recent) / 1e6, len(recent),
                                                   sorted(recent)[len(recent) // 2] / 1e6, (b or 0) / 1e6,
                                                   (a or 0) / 1e6))
                  if recent else 'no samples of longest-recent-duty-cycle-ns (tokened.duty.jsonl)',
                  'logs/tokened.server.log')
            grown = (srv['rss_settled_kb'] - srv['rss_before_kb']) / 1024.0
            check('tokened: RSS within %.0f MiB of its start %d s after the flood' % (rss_limit, srv['settle_s']),
                  grown <= rss_limit,
                  'RSS %.1f MiB before, %.1f peak, %.1f at the end of the flood, %.1f %d s later (%+.1f MiB)' % (
                      srv['rss_before_kb'] / 1024.0, srv['rss_peak_kb'] / 1024.0, srv['rss_flood_end_kb'] / 1024.0,
                      srv['rss_settled_kb'] / 1024.0, srv['settle_s'], grown), 'logs/tokened.server.log')
            parts = []
            for when in ('before', 'settled'):
                try:
                    kb = dict((l.split(':')[0], int(l.split()[1])) for l in open(
                        os.path.join(out, 'tokened.status.%s.txt' % when)))
                    parts.append('%s: anonymous %.1f, file %.1f MiB' % (
                        when, kb.get('RssAnon', 0) / 1024.0, kb.get('RssFile', 0) / 1024.0))
                except (OSError, ValueError, IndexError):
                    pass
            if parts:
                lines.append('- tokened server RSS, ' + '; '.join(parts) + ' (tokened.heap.settled.txt: the Java heap)')
            ping = ''
            try:
                ping = [l for l in open(os.path.join(out, 'logs/tokened.ping.log')) if 'received' in l]
                ping = ping[-1].strip() if ping else ''
            except OSError:
                pass
            check('tokened: the ping got every echo', srv['ping_exit'] == 0 and ' 0% packet loss' in ping,
                  'exit %d: %s' % (srv['ping_exit'], ping or 'no summary'), 'logs/tokened.ping.log')
        attack_check(name, load_json('tokened.attack.json'), 'logs/tokened.attack.log')
        lines.append('- tokened server counters after the flood: %s' % (defences(after) or 'not read'))

passed = all(ok for _, ok, _, _ in checks) and checks
head = ['# Flood summary', '',
        '%s: cases %s, %s s floods (half-open %s/s, tokened %s/s from %s sources), relay delay %s ms each way; '
        'load %s at the start, %s at the end' % ('PASS' if passed else 'FAIL', cases, duration, half_rate, tok_rate,
                                                  sources, delay, start_load, load), '',
        '| check | result | detail |', '|---|---|---|']
for name, ok, detail, _ in checks:
    head.append('| %s | %s | %s |' % (name, 'ok' if ok else 'FAILED', detail))
text = '\n'.join(head + [''] + lines)
TAIL_LINES = 15
for name, ok, detail, log in checks:
    if not ok and log and os.path.exists(os.path.join(out, log)):
        with open(os.path.join(out, log), errors='replace') as f:
            tail = [l.rstrip('\n') for l in f.readlines()[-TAIL_LINES:]]
        text += '\n\n%s (%s, last lines):\n```\n%s\n```' % (name, log, '\n'.join(tail) or '(empty)')
text += '\n'
open(os.path.join(out, 'summary.md'), 'w').write(text)
print(text)
sys.exit(0 if passed else 1)
PY
