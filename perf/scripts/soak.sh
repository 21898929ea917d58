#!/bin/bash
# Soak: the command-line tools running for a long time under mixed faults and attacks, every process a JVM of its own
# on loopback, all in the secure mode they use by default:
#
#   servers   `pacelink receive`, `pacelink perf -s` and `pacelink ping --echo`;
#   paths     a `pacelink netem` relay in front of each, both ways: rate 30 Mbit/s, 10 ms +- 1 ms (packets overtake
#             each other), loss, duplication, corruption, and a blackout every BLACKOUT_EVERY s (2, 5, then 8 s of
#             rate 0: packets held up to the 2000-packet queue, the rest dropped);
#   clients   SENDERS loops of `pacelink send` (random files and trees; every fourth transfer killed with -9 mid-way
#             and finished with --resume), a loop of `pacelink perf -c -P CONNECTIONS` (a new test, so new
#             connections, every 15 s, controllers in turn) and a loop of `pacelink ping` toward the echo server:
#             reconnects all the time
#             (each loop runs at least once, so a seconds-long run checks every part);
#   attacks   io.pacelink.perf.soak.AttackMix beside them, straight at the three servers: garbage, short, old-version,
#             plaintext, bad-MAC (with and without a valid token) and key-request hellos, forged CLOSE, PING and
#             sealed packets to random connection ids, ATTACK_RATE datagrams per second.
#
# It checks that every file arrived byte for byte (`cmp`, besides send's own SHA-256 verdict), every perf test and
# ping succeeded, the servers' and relays' resident memory and open files stayed bounded (below RSS_LIMIT_MB and
# FD_LIMIT always; for runs of at least 10 minutes also no growth from the middle third of the run to the last beyond
# RSS_GROWTH_MB and FD_GROWTH, the first third being the JVMs' warm-up), the servers' `errors` counters stayed 0, and the attack's answers stayed far smaller than the attack.
# It writes OUT/summary.md (with the last lines of every failed run's log), prints it, and exits 0 if every check
# passed, 1 if one failed, 2 on a usage error.
#
#   perf/scripts/soak.sh [--duration SECONDS] [--out DIR] [--senders N] [--connections N] [--attack-rate PPS]
#
# Defaults: 1800 s (30 minutes), OUT a new folder under /tmp, 2 senders, 8 perf connections, 300 attack datagrams/s.
# Environment: JAR (examples/target/pacelink.jar), BENCH (perf/target/benchmarks.jar, for the attacker),
# JAVA_OPTS ("-Xmx256m -XX:+UseSerialGC" for every JVM), BLACKOUT_EVERY (90), RSS_LIMIT_MB (768), RSS_GROWTH_MB (64),
# FD_LIMIT (512), FD_GROWTH (16). The tools keep their host key and known hosts in OUT/config (XDG_CONFIG_HOME).
set -u
set -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-$REPO/examples/target/pacelink.jar}
BENCH=${BENCH:-$REPO/perf/target/benchmarks.jar}
JAVA_OPTS=${JAVA_OPTS:--Xmx256m -XX:+UseSerialGC}
BLACKOUT_EVERY=${BLACKOUT_EVERY:-90}
RSS_LIMIT_MB=${RSS_LIMIT_MB:-768}
RSS_GROWTH_MB=${RSS_GROWTH_MB:-64}
FD_LIMIT=${FD_LIMIT:-512}
FD_GROWTH=${FD_GROWTH:-16}
DURATION=1800
OUT=""
SENDERS=2
CONNECTIONS=8
ATTACK_RATE=300

usage() {
  sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) DURATION=${2:-}; shift 2 ;;
    --out) OUT=${2:-}; shift 2 ;;
    --senders) SENDERS=${2:-}; shift 2 ;;
    --connections) CONNECTIONS=${2:-}; shift 2 ;;
    --attack-rate) ATTACK_RATE=${2:-}; shift 2 ;;
    -h|--help) usage ;;
    *) echo "soak.sh: unknown option '$1' (--help lists them)" >&2; exit 2 ;;
  esac
done
for n in DURATION SENDERS CONNECTIONS ATTACK_RATE BLACKOUT_EVERY; do
  case "${!n}" in ''|*[!0-9]*) echo "soak.sh: $n must be a whole number, got '${!n}'" >&2; exit 2 ;; esac
done
[ "$DURATION" -ge 1 ] || { echo "soak.sh: --duration must be at least 1 s" >&2; exit 2; }
[ "$CONNECTIONS" -ge 1 ] && [ "$CONNECTIONS" -le 16 ] || { echo "soak.sh: --connections must be 1-16 (perf -P)" >&2; exit 2; }
[ "$BLACKOUT_EVERY" -ge 10 ] || { echo "soak.sh: BLACKOUT_EVERY must be at least 10 s" >&2; exit 2; }
[ -f "$JAR" ] || { echo "soak.sh: $JAR not found; build it: mvn -B -q -pl examples -am package -DskipTests" >&2; exit 2; }
[ "$ATTACK_RATE" -eq 0 ] || [ -f "$BENCH" ] ||
  { echo "soak.sh: $BENCH not found; build it: mvn -B -q -pl perf -am package -DskipTests (or --attack-rate 0)" >&2; exit 2; }
OUT=${OUT:-/tmp/soak-$(date +%Y%m%d-%H%M%S)}
rm -rf "$OUT/incoming" "$OUT/sources" "$OUT/logs"
mkdir -p "$OUT/incoming" "$OUT/sources" "$OUT/logs" "$OUT/config"
# Absolute: a relative XDG_CONFIG_HOME is ignored (XDG Base Directory spec), and the tools would then keep their host
# key and known hosts in the user's own ~/.config (CI passes a relative --out).
OUT=$(cd "$OUT" && pwd)
export XDG_CONFIG_HOME="$OUT/config"
AGRONA="--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED"
PIDS=()
WORKERS=()
MONITOR_PID=""

pacelink() { # the CLI in a JVM of its own; started with & it is that JVM's pid that $! gives
  exec java $JAVA_OPTS -jar "$JAR" "$@"
}

# free_port, await_line
. "$HERE/processes.sh"

cleanup() { # servers, relays, and the client loops with the JVM each is running (by parent pid)
  for pid in "${WORKERS[@]}"; do pkill -P "$pid" 2>/dev/null; kill "$pid" 2>/dev/null; done
  for pid in "${PIDS[@]}" $MONITOR_PID; do kill "$pid" 2>/dev/null; done
  wait 2>/dev/null
}
trap cleanup EXIT

# Blackouts: rate 0 for 2, 5, 8, 2, ... s every BLACKOUT_EVERY s, both directions.
RATE=30mbit
steps="$RATE"
i=0
for ((t = BLACKOUT_EVERY; t < DURATION; t += BLACKOUT_EVERY)); do
  len=$((i % 3 == 0 ? 2 : i % 3 == 1 ? 5 : 8))
  steps="$steps,0bit@${t}s,$RATE@$((t + len))s"
  i=$((i + 1))
done
BLACKOUTS=$i
FORWARD="rate=$steps delay=10ms jitter=1ms loss=1% duplicate=1% corrupt=0.1% queue=2000p"
REVERSE="rate=$steps delay=10ms jitter=1ms loss=0.5% duplicate=0.5% corrupt=0.1% queue=2000p"

RECEIVE_PORT=$(free_port)
PERF_PORT=$(free_port)
ECHO_PORT=$(free_port)
pacelink receive --listen "127.0.0.1:$RECEIVE_PORT" --dir "$OUT/incoming" > "$OUT/logs/receive.log" 2>&1 &
RECEIVE_PID=$!
PIDS+=("$RECEIVE_PID")
pacelink perf -s -B 127.0.0.1 -p "$PERF_PORT" > "$OUT/logs/perf-server.log" 2>&1 &
PERF_SERVER_PID=$!
PIDS+=("$PERF_SERVER_PID")
pacelink ping --echo -B 127.0.0.1 -p "$ECHO_PORT" > "$OUT/logs/ping-echo.log" 2>&1 &
ECHO_PID=$!
PIDS+=("$ECHO_PID")
await_line "$OUT/logs/receive.log" listening && await_line "$OUT/logs/perf-server.log" listening &&
  await_line "$OUT/logs/ping-echo.log" listening || exit 1
RELAY_A_PORT=$(free_port)
RELAY_B_PORT=$(free_port)
RELAY_C_PORT=$(free_port)
pacelink netem --listen "127.0.0.1:$RELAY_A_PORT" --forward "127.0.0.1:$RECEIVE_PORT" --path "$FORWARD" \
  --reverse-path "$REVERSE" > "$OUT/logs/relay-receive.log" 2>&1 &
RELAY_A_PID=$!
PIDS+=("$RELAY_A_PID")
pacelink netem --listen "127.0.0.1:$RELAY_B_PORT" --forward "127.0.0.1:$PERF_PORT" --path "$FORWARD" \
  --reverse-path "$REVERSE" > "$OUT/logs/relay-perf.log" 2>&1 &
RELAY_B_PID=$!
PIDS+=("$RELAY_B_PID")
pacelink netem --listen "127.0.0.1:$RELAY_C_PORT" --forward "127.0.0.1:$ECHO_PORT" --path "$FORWARD" \
  --reverse-path "$REVERSE" > "$OUT/logs/relay-ping.log" 2>&1 &
RELAY_C_PID=$!
PIDS+=("$RELAY_C_PID")
await_line "$OUT/logs/relay-receive.log" relaying && await_line "$OUT/logs/relay-perf.log" relaying &&
  await_line "$OUT/logs/relay-ping.log" relaying || exit 1
START=$(date +%s)
END=$((START + DURATION))
START_LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
echo "soak.sh: $DURATION s from $(date -d "@$START" '+%F %T'), load $(cut -d' ' -f1-3 /proc/loadavg), output in $OUT"

# Resident memory, open files and agent errors of the long-lived processes, every 5 s (errors every 30 s).
printf 'elapsed_s\tname\trss_kb\tfds\n' > "$OUT/samples.tsv"
printf 'elapsed_s\tname\terrors\tprotocol_violations\tintegrity_failures\n' > "$OUT/errors.tsv"
sample_errors() { # name pid
  (pacelink stat --json --count 1 --pid "$2") 2>/dev/null | python3 -c '
import json, sys
name, elapsed = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    try:
        doc = json.loads(line)
    except ValueError:
        continue
    for p in doc.get("processes", []):
        e = p.get("endpoint") or {}
        if e:
            print("%s\t%s\t%d\t%d\t%d" % (elapsed, name, e.get("errors", 0), e.get("protocol-violations", 0),
                                          e.get("integrity-failures", 0)))
' "$1" "$(( $(date +%s) - START ))" >> "$OUT/errors.tsv"
}
monitor() {
  local tick=0
  while [ "$(date +%s)" -lt "$((END + 5))" ]; do
    local now=$(( $(date +%s) - START ))
    for entry in "receive:$RECEIVE_PID" "perf-server:$PERF_SERVER_PID" "ping-echo:$ECHO_PID" \
      "relay-receive:$RELAY_A_PID" "relay-perf:$RELAY_B_PID" "relay-ping:$RELAY_C_PID"; do
      local name=${entry%%:*} pid=${entry##*:}
      [ -d "/proc/$pid" ] || continue
      local rss fds
      rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null)
      fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
      printf '%s\t%s\t%s\t%s\n' "$now" "$name" "${rss:-0}" "$fds" >> "$OUT/samples.tsv"
    done
    if [ $((tick % 6)) -eq 0 ]; then
      sample_errors receive "$RECEIVE_PID"
      sample_errors perf-server "$PERF_SERVER_PID"
      sample_errors ping-echo "$ECHO_PID"
    fi
    tick=$((tick + 1))
    sleep 5
  done
}
monitor &
MONITOR_PID=$!

# One line per client run: kind, start (s), seconds, exit status, what it was, verdict, its log (kept if it failed).
printf 'kind\tstart_s\tseconds\texit\twhat\tverdict\tlog\n' > "$OUT/runs.tsv"
record() { # kind start exit what verdict log
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$(( $2 - START ))" "$(( $(date +%s) - $2 ))" "$3" "$4" "$5" "$6" \
    >> "$OUT/runs.tsv"
}

# Each loop runs at least once, and starts a new run only while time is left.
sender() { # index
  local n=0
  while [ "$n" -eq 0 ] || [ "$(date +%s)" -lt "$END" ]; do
    n=$((n + 1))
    local name="s$1-n$n" src="$OUT/sources/s$1-n$n"
    mkdir -p "$src"
    local files=()
    if [ $((n % 5)) -eq 0 ]; then # a tree of small files
      mkdir -p "$src/$name-tree/sub"
      for f in $(seq 1 20); do head -c $((RANDOM * 3)) /dev/urandom > "$src/$name-tree/sub/f$f"; done
      files+=("$src/$name-tree")
    else
      head -c $(( (RANDOM % 64 + 1) * 65536 + RANDOM )) /dev/urandom > "$src/$name.bin"
      files+=("$src/$name.bin")
    fi
    local start exit_code what
    start=$(date +%s)
    if [ $((n % 4)) -eq 0 ]; then # killed mid-way, then resumed
      pacelink send --rate 20mbit "${files[@]}" "127.0.0.1:$RELAY_A_PORT" > "$OUT/logs/$name.first.log" 2>&1 &
      local first=$!
      sleep "1.$((RANDOM % 10))"
      kill -9 "$first" 2>/dev/null
      wait "$first" 2>/dev/null
      (pacelink stat --clean --pid "$first") > /dev/null 2>&1 # the counters file a killed JVM leaves
      what="resumed"
      timeout 600 java $JAVA_OPTS -jar "$JAR" send --resume --rate 20mbit "${files[@]}" "127.0.0.1:$RELAY_A_PORT" \
        > "$OUT/logs/$name.log" 2>&1
      exit_code=$?
    else
      what="fresh"
      timeout 600 java $JAVA_OPTS -jar "$JAR" send --rate 20mbit "${files[@]}" "127.0.0.1:$RELAY_A_PORT" \
        > "$OUT/logs/$name.log" 2>&1
      exit_code=$?
    fi
    local verdict=ok
    if [ "$exit_code" -ne 0 ]; then
      verdict=failed
    else
      for f in "${files[@]}"; do
        local base
        base=$(basename "$f")
        if [ -d "$f" ]; then
          diff -r -q "$f" "$OUT/incoming/$base" > /dev/null 2>&1 || verdict=mismatch
        else
          cmp -s "$f" "$OUT/incoming/$base" || verdict=mismatch
        fi
      done
    fi
    record send "$start" "$exit_code" "$name $what $(du -sb "$src" | cut -f1) bytes" "$verdict" "logs/$name.log"
    if [ "$verdict" = ok ]; then
      rm -rf "$src" "$OUT/incoming/$name"* "$OUT/logs/$name".*log
    fi
  done
}

perf_client() {
  local ccs=(bbr cubic reno bbr3) n=0
  while [ "$n" -eq 0 ] || [ "$(date +%s)" -lt "$((END - PERF_SECONDS / 2))" ]; do
    local cc=${ccs[$((n % 4))]} start
    n=$((n + 1))
    start=$(date +%s)
    timeout 300 java $JAVA_OPTS -jar "$JAR" perf -c 127.0.0.1 -p "$RELAY_B_PORT" -P "$CONNECTIONS" \
      -t "$PERF_SECONDS" -b 2M -C "$cc" -i 0 --connect-timeout 30s > "$OUT/logs/perf-$n.log" 2>&1
    local exit_code=$?
    record perf "$start" "$exit_code" "-P $CONNECTIONS -C $cc" "$([ $exit_code -eq 0 ] && echo ok || echo failed)" \
      "logs/perf-$n.log"
    [ "$exit_code" -eq 0 ] && rm -f "$OUT/logs/perf-$n.log"
  done
}

ping_client() {
  local n=0
  while [ "$n" -eq 0 ] || [ "$(date +%s)" -lt "$((END - 3))" ]; do
    local start
    n=$((n + 1))
    start=$(date +%s)
    timeout 300 java $JAVA_OPTS -jar "$JAR" ping "127.0.0.1:$RELAY_C_PORT" -c 20 -i 0.25 -W 30s -q \
      > "$OUT/logs/ping-$n.log" 2>&1
    local exit_code=$?
    record ping "$start" "$exit_code" "20 echoes" "$([ $exit_code -eq 0 ] && echo ok || echo failed)" \
      "logs/ping-$n.log"
    [ "$exit_code" -eq 0 ] && rm -f "$OUT/logs/ping-$n.log"
  done
}

PERF_SECONDS=$((DURATION >= 60 ? 15 : DURATION / 3 > 2 ? DURATION / 3 : 2))
for s in $(seq 1 "$SENDERS"); do
  sender "$s" &
  WORKERS+=($!)
done
sleep 1
perf_client &
WORKERS+=($!)
sleep 1
ping_client &
WORKERS+=($!)
if [ "$ATTACK_RATE" -gt 0 ]; then
  java $JAVA_OPTS $AGRONA -cp "$BENCH" io.pacelink.perf.soak.AttackMix --target "127.0.0.1:$RECEIVE_PORT" \
    --target "127.0.0.1:$PERF_PORT" --target "127.0.0.1:$ECHO_PORT" --rate "$ATTACK_RATE" --duration "$DURATION" \
    --summary "$OUT/attack.json" > "$OUT/logs/attack.log" 2>&1 &
  WORKERS+=($!)
fi

for w in "${WORKERS[@]}"; do wait "$w"; done
WORKERS=()
wait "$MONITOR_PID" 2>/dev/null
MONITOR_PID=""
sample_errors receive "$RECEIVE_PID"
sample_errors perf-server "$PERF_SERVER_PID"
sample_errors ping-echo "$ECHO_PID"
for entry in "relay-receive:$RELAY_A_PID" "relay-perf:$RELAY_B_PID" "relay-ping:$RELAY_C_PID"; do
  (pacelink stat --json --count 1 --pid "${entry##*:}") > "$OUT/${entry%%:*}.stat.json" 2>/dev/null
done
ELAPSED=$(( $(date +%s) - START ))
kill "$RELAY_A_PID" "$RELAY_B_PID" "$RELAY_C_PID" "$RECEIVE_PID" "$PERF_SERVER_PID" "$ECHO_PID" 2>/dev/null
wait "$RELAY_A_PID" "$RELAY_B_PID" "$RELAY_C_PID" "$RECEIVE_PID" "$PERF_SERVER_PID" "$ECHO_PID" 2>/dev/null
PIDS=()

python3 - "$OUT" "$DURATION" "$ELAPSED" "$BLACKOUTS" "$BLACKOUT_EVERY" "$FORWARD" "$REVERSE" "$SENDERS" \
  "$CONNECTIONS" "$ATTACK_RATE" "$RSS_LIMIT_MB" "$RSS_GROWTH_MB" "$FD_LIMIT" "$FD_GROWTH" \
  "$START_LOAD" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import csv, json, os, sys
(out, duration, elapsed, blackouts, every, forward, reverse, senders, connections, attack_rate, rss_limit,
 rss_growth, fd_limit, fd_growth, start_load, load) = sys.argv[1:]
duration, elapsed = int(duration), int(elapsed)
rss_limit, rss_growth, fd_limit, fd_growth = int(rss_limit), int(rss_growth), int(fd_limit), int(fd_growth)
checks, lines = [], []

def check(name, ok, detail):
    checks.append((name, ok, detail))

runs = list(csv.DictReader(open(os.path.join(out, 'runs.tsv')), delimiter='\t'))
for kind in ('send', 'perf', 'ping'):
    mine = [r for r in runs if r['kind'] == kind]
    bad = [r for r in mine if r['verdict'] != 'ok']
    extra = ''
    if kind == 'send':
        extra = ', %d of them killed and resumed' % sum(1 for r in mine if ' resumed ' in r['what'])
        moved = sum(int(r['what'].split()[2]) for r in mine if r['verdict'] == 'ok')
        extra += ', %.1f MB verified byte for byte' % (moved / 1e6)
    check('%s runs all succeeded' % kind, len(mine) > 0 and not bad,
          '%d runs, %d failed%s%s' % (len(mine), len(bad), extra,
                                      ('; first failure: %s' % '/'.join(bad[0][k] for k in ('start_s', 'exit', 'what', 'verdict')) if bad else '')))

samples = list(csv.DictReader(open(os.path.join(out, 'samples.tsv')), delimiter='\t'))
for name in ('receive', 'perf-server', 'ping-echo', 'relay-receive', 'relay-perf', 'relay-ping'):
    mine = [(int(s['elapsed_s']), int(s['rss_kb']) / 1024.0, int(s['fds'])) for s in samples if s['name'] == name]
    if not mine:
        check('%s sampled' % name, False, 'no samples')
        continue
    rss = [m[1] for m in mine]
    fds = [m[2] for m in mine]
    detail = 'RSS %.0f / %.0f / %.0f MiB (first / max / last), files %d / %d / %d' % (
        rss[0], max(rss), rss[-1], fds[0], max(fds), fds[-1])
    ok = max(rss) <= rss_limit and max(fds) <= fd_limit
    if duration >= 600 and len(mine) >= 6:
        # The first third is the JVMs' warm-up (heaps and the direct buffers that wait for a collection growing to
        # their working size, minutes with a 256 MiB heap); a leak shows as growth from the middle third to the last.
        third = max(1, len(mine) // 3)
        middle_rss, last_rss = max(rss[third:2 * third]), max(rss[-third:])
        middle_fds, last_fds = max(fds[third:2 * third]), max(fds[-third:])
        ok = ok and last_rss - middle_rss <= rss_growth and last_fds - middle_fds <= fd_growth
        detail += '; last third against the middle one: RSS %+.0f MiB, files %+d' % (
            last_rss - middle_rss, last_fds - middle_fds)
    check('%s memory and files bounded' % name, ok, detail)

errors = list(csv.DictReader(open(os.path.join(out, 'errors.tsv')), delimiter='\t'))
for name in ('receive', 'perf-server', 'ping-echo'):
    mine = [e for e in errors if e['name'] == name]
    worst = max((int(e['errors']) for e in mine), default=None)
    last = mine[-1] if mine else None
    check('%s agent errors 0' % name, worst == 0,
          'errors %s in %d samples; at the end protocol-violations %s, integrity-failures %s' % (
              worst, len(mine), last['protocol_violations'] if last else '?', last['integrity_failures'] if last else '?'))

attack_file = os.path.join(out, 'attack.json')
if int(attack_rate) > 0:
    if os.path.exists(attack_file):
        a = json.load(open(attack_file))
        ratio = a['answer_to_attack_bytes']
        check('attack answered without amplification', a['datagrams_sent'] > 0 and ratio < 1.0,
              '%d datagrams (%.1f MB) sent: %s; answers %d datagrams (%.2f MB: %d RETRY, %d CLOSE, %d other), %.3f of the bytes sent' % (
                  a['datagrams_sent'], a['bytes_sent'] / 1e6,
                  ', '.join('%s %d' % kv for kv in sorted(a['sent_by_kind'].items())),
                  a['datagrams_received'], a['bytes_received'] / 1e6, a['retries_received'], a['closes_received'],
                  a['other_received'], ratio))
    else:
        check('attack answered without amplification', False, 'no attack summary (see logs/attack.log)')

relays = []
for name in ('relay-receive', 'relay-perf', 'relay-ping'):
    path = os.path.join(out, name + '.stat.json')
    try:
        doc = json.loads(open(path).readline())
        r = doc['processes'][0]['relay']
        relays.append('%s: forward %d packets (lost %d, duplicated %d, corrupted %d, queue drops %d), reverse %d (lost %d, duplicated %d, corrupted %d, queue drops %d)' % (
            name, r.get('forward-received-packets', 0), r.get('forward-random-loss-packets', 0),
            r.get('forward-duplicated-packets', 0), r.get('forward-corrupted-packets', 0),
            r.get('forward-queue-drop-packets', 0), r.get('reverse-received-packets', 0),
            r.get('reverse-random-loss-packets', 0), r.get('reverse-duplicated-packets', 0),
            r.get('reverse-corrupted-packets', 0), r.get('reverse-queue-drop-packets', 0)))
    except (OSError, ValueError, KeyError, IndexError):
        relays.append('%s: no counters' % name)

passed = all(ok for _, ok, _ in checks)
lines.append('# Soak summary: %s' % ('PASS' if passed else 'FAIL'))
lines.append('')
lines.append('%d s planned, %d s run (the last client runs finish after the time), load average %s at the start '
             'and %s at the end; %s senders, perf -P %s, attack %s datagrams/s; %s blackouts (every %s s: 2, 5, 8 s)' % (
                 duration, elapsed, start_load, load, senders, connections, attack_rate, blackouts, every))
lines.append('')
lines.append('path, every relay: forward `%s`, reverse `%s`' % (forward, reverse))
lines.append('')
for r in relays:
    lines.append('- ' + r)
lines.append('')
lines.append('| check | result | detail |')
lines.append('|---|---|---|')
for name, ok, detail in checks:
    lines.append('| %s | %s | %s |' % (name, 'pass' if ok else '**FAIL**', detail))

# A failed run explains itself in the summary (CI shows it), not only in a log file the CI machine throws away.
TAIL_LINES = 5
failed_runs = [r for r in runs if r['verdict'] != 'ok']
if failed_runs:
    lines.append('')
    lines.append('## Failed runs: the last %d lines of each log' % TAIL_LINES)
    for r in failed_runs:
        log = r.get('log') or ''
        lines.append('')
        lines.append('%s run %s started at %s s, %s s long, exit %s, %s (`%s`):' % (
            r['kind'], r['what'], r['start_s'], r['seconds'], r['exit'], r['verdict'], log or 'no log'))
        lines.append('')
        try:
            with open(os.path.join(out, log), errors='replace') as f:
                tail = [l.rstrip('\n') for l in f.readlines()[-TAIL_LINES:]]
        except OSError as e:
            tail = ['(log not readable: %s)' % e.strerror]
        lines.append('```')
        lines.extend(tail if tail else ['(empty log)'])
        lines.append('```')
text = '\n'.join(lines) + '\n'
open(os.path.join(out, 'summary.md'), 'w').write(text)
print(text)
sys.exit(0 if passed else 1)
PY
