#!/bin/bash
# Kernel parity on an emulated real path: kernel TCP (iperf3 -C CC) against Pacelink (pacelink perf -C CC) on the
# same emulated paths, interleaved, with goodput ratios (median and spread), CPU seconds per GB sent at each end,
# pacelink stat snapshots, and where each Pacelink process's CPU went, thread by thread (thread_cpu.py: the agent,
# the application thread, the JIT compilers, GC) over its whole life and over the test's second half. See
# perf/README.md, "Kernel parity".
#
# Run as root:
#   NETEM_TUN=/path/to/netem-tun perf/scripts/kernel-parity.sh
#
# The emulator is netem-tun, a user-space netem over TUN (this kernel has no netem qdisc); the script only runs the
# binary it is given. It joins two network namespaces made here; every packet crosses an emulated one-way path in
# each direction. Traffic never leaves the two namespaces.
#
# Environment:
#   NETEM_TUN   the emulator binary (required)
#   JAR         the shaded CLI (default: examples/target/pacelink.jar beside this script's checkout)
#   BASELINE_JAR another build of the CLI (e.g. main's, to measure a change): each run then also runs Pacelink from
#               this jar ("baseline"), in the same rotation as kernel and Pacelink, and the summary adds its rates and
#               CPU beside this jar's
#   RUNS        repetitions of every (path, controller) pair (default 3); kernel and Pacelink alternate which goes
#               first from one repetition to the next
#   DURATION    seconds per test (default 20)
#   OMIT        seconds each test runs first and leaves out of its figures (default 0): iperf3 -O N and pacelink perf
#               --omit N, so throughput and in-test CPU measure the steady state after the JVM's warm-up; each test
#               then lasts OMIT + DURATION s, and Pacelink's whole-test CPU is reported beside (never hidden)
#   PATHS       which paths (default "lossy500 clean1g long100"):
#                 clean50   50 Mbit/s, 40 ms RTT, no loss, 1 BDP drop-tail queue
#                 lossy500  500 Mbit/s, 38 ms RTT, 1 % random loss on the data direction, 1 BDP drop-tail queue
#                 clean1g   1 Gbit/s, 10 ms RTT, no loss, 1 BDP drop-tail queue
#                 long100   100 Mbit/s, 150 +- 15 ms RTT (jitter reorders, as netem does), 8 % loss, 1 BDP queue
#   CCS         controllers (default "bbr cubic reno"); the same name is given to iperf3 -C and pacelink perf -C
#   OUT         where every raw result goes (default /tmp/kernel-parity-<time>)
#   EMU_RT      emulator scheduling (default "--rt 20": SCHED_FIFO for its two forwarding threads)
#   NICE        niceness of the endpoints (default -10)
#   LAUNCH      how the Pacelink endpoints start (default "bin"): "bin" runs them the way users run the CLI,
#               through bin/pacelink with PACELINK_JAR set to the jar — the bin/pacelink of the jar's own checkout
#               (<checkout>/examples/target/pacelink.jar) when there is one, else this checkout's — so with the
#               class-data-sharing archive beside it, <jar>.jsa, which `mvn package` builds, or on JDK 25 with perf's
#               AOT cache <jar>.perf.aot, which that bin/pacelink builds once, before the first test; "jar"
#               runs `java -jar JAR` as this script did before (no archive: the JVM spins the CLI's lambdas and loads
#               every class from the jar at start, which is C2's largest compile in the first second)
#   JAVA_OPTS   extra JVM options for both Pacelink processes (e.g. -XX:StartFlightRecording=...)
#   BASELINE_JAVA_OPTS JVM options for the baseline's processes instead of JAVA_OPTS (default: JAVA_OPTS), e.g. to
#               measure a JVM flag: JAR and BASELINE_JAR the same build, JAVA_OPTS=-XX:TieredStopAtLevel=1 and
#               BASELINE_JAVA_OPTS= (empty: the JVM's defaults)
#   PACELINK_OPTS extra options for both `pacelink perf` ends (e.g. "--io nio" or "--gso off")
#   BASELINE_PACELINK_OPTS options for the baseline's ends instead of PACELINK_OPTS (default: PACELINK_OPTS), e.g. to
#               measure a setting: JAR and BASELINE_JAR the same build, PACELINK_OPTS="--qdisc-params
#               fq.catchUpHorizonUs=10000" and BASELINE_PACELINK_OPTS= (empty: the defaults)
#   STRACE      1 to run both Pacelink JVMs under `strace -f -c` (system calls by call, all threads, counted
#               over the whole process: server.strace / client.strace beside the results); strace slows every call,
#               so CPU and rates of such a run are not comparable with one without it
#   SECURITY    Pacelink's security options for both ends (default "--insecure": plaintext, as kernel TCP is; a
#               listener on a non-loopback address otherwise needs keys)
#
# Exits 1 if any test failed (no result from either tool), after printing the summary.
#   SS_INTERVAL seconds between `ss -tin` samples of the kernel TCP sender's socket in the client's namespace during
#               each kernel run (default 0: none); each sample (pacing_rate, delivery_rate, cwnd, unacked, retrans,
#               bbr:(bw,mrtt,pacing_gain,cwnd_gain)) goes to ss.txt beside the run's results, with its time
#   NS_PREFIX   namespace names (default "pkparity": pkparity-a, pkparity-b)
set -u
set -o pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
: "${NETEM_TUN:?set NETEM_TUN to the netem-tun binary, e.g. NETEM_TUN=/tmp/netem-tun/netem-tun}"
JAR=${JAR:-$REPO/examples/target/pacelink.jar}
BASELINE_JAR=${BASELINE_JAR:-}
RUNS=${RUNS:-3}
DURATION=${DURATION:-20}
OMIT=${OMIT:-0}
PATHS=${PATHS:-lossy500 clean1g long100}
CCS=${CCS:-bbr cubic reno}
OUT=${OUT:-/tmp/kernel-parity-$(date +%Y%m%d-%H%M%S)}
EMU_RT=${EMU_RT:---rt 20}
NICE=${NICE:--10}
JAVA_OPTS=${JAVA_OPTS:-}
BASELINE_JAVA_OPTS=${BASELINE_JAVA_OPTS-$JAVA_OPTS}
PACELINK_OPTS=${PACELINK_OPTS:-}
BASELINE_PACELINK_OPTS=${BASELINE_PACELINK_OPTS-$PACELINK_OPTS}
SECURITY=${SECURITY:---insecure}
NS_PREFIX=${NS_PREFIX:-pkparity}
STRACE=${STRACE:-0}
SS_INTERVAL=${SS_INTERVAL:-0}
LAUNCH=${LAUNCH:-bin}
NS_A=$NS_PREFIX-a
NS_B=$NS_PREFIX-b
DEV_A=pktuna
DEV_B=pktunb
IP_A=10.200.0.1
IP_B=10.200.0.2
IPERF_PORT=5301
PACELINK_PORT=5302

[ "$(id -u)" = 0 ] || { echo "kernel-parity.sh: run as root (namespaces, TUN devices)" >&2; exit 2; }
[ -x "$NETEM_TUN" ] || { echo "kernel-parity.sh: NETEM_TUN=$NETEM_TUN is not an executable" >&2; exit 2; }
[ -f "$JAR" ] || { echo "kernel-parity.sh: $JAR not found; build it: mvn -B -q -pl examples -am package -DskipTests" >&2; exit 2; }
[ -z "$BASELINE_JAR" ] || [ -f "$BASELINE_JAR" ] || { echo "kernel-parity.sh: BASELINE_JAR=$BASELINE_JAR not found" >&2; exit 2; }
[ "$STRACE" = 0 ] || command -v strace >/dev/null || { echo "kernel-parity.sh: STRACE=1 needs strace" >&2; exit 2; }
for tool in iperf3 java python3 ip; do
  command -v "$tool" >/dev/null || { echo "kernel-parity.sh: $tool is not installed" >&2; exit 2; }
done
case "$LAUNCH" in bin|jar) ;; *) echo "kernel-parity.sh: LAUNCH is bin or jar, got '$LAUNCH'" >&2; exit 2;; esac
case "$RUNS$DURATION$OMIT" in *[!0-9]*) echo "kernel-parity.sh: RUNS, DURATION and OMIT are whole numbers" >&2; exit 2;; esac

# Path specifications: forward = data direction (A, the client, to B, the server); reverse = the ACKs.
# floor = the smallest RTT a packet can see on the path (ms): a lower min RTT at a sender is a wrong sample.
path_fwd() {
  case $1 in
    lossy500) echo "rate=500mbit,delay=19ms,loss=1,limit=1bdp" ;;
    clean1g) echo "rate=1gbit,delay=5ms,limit=1bdp" ;;
    clean50) echo "rate=50mbit,delay=20ms,limit=1bdp" ;;
    long100) echo "rate=100mbit,delay=75ms,jitter=7.5ms,loss=8,limit=1bdp" ;;
    *) echo "kernel-parity.sh: unknown path '$1' (lossy500, clean1g, clean50, long100)" >&2; return 1 ;;
  esac
}
path_rev() {
  case $1 in
    lossy500) echo "rate=500mbit,delay=19ms,limit=1bdp" ;;
    clean1g) echo "rate=1gbit,delay=5ms,limit=1bdp" ;;
    clean50) echo "rate=50mbit,delay=20ms,limit=1bdp" ;;
    long100) echo "rate=100mbit,delay=75ms,jitter=7.5ms,loss=0,limit=1bdp" ;;
  esac
}
path_floor_ms() {
  case $1 in lossy500) echo 38 ;; clean1g) echo 10 ;; clean50) echo 40 ;; long100) echo 135 ;; esac
}
for p in $PATHS; do path_fwd "$p" >/dev/null || exit 2; done

mkdir -p "$OUT"
: > "$OUT/parity.log"
RUN_DIR=$OUT/emu
mkdir -p "$RUN_DIR"
EMU_PID=""
BG_PIDS=()

log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$OUT/parity.log"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

ns_setup() {
  for ns in "$NS_A" "$NS_B"; do
    ip netns add "$ns" 2>/dev/null || true
    ip -n "$ns" link set lo up
    # Namespace-local TCP settings, as the kernel anchor runs used: no cached ssthresh/RTT between runs, and
    # socket buffers large enough never to cap a window (32 MiB, the size of a Pacelink connection's buffers).
    ip netns exec "$ns" sysctl -qw net.ipv4.tcp_no_metrics_save=1
    ip netns exec "$ns" sysctl -qw net.ipv4.tcp_rmem="4096 131072 33554432"
    ip netns exec "$ns" sysctl -qw net.ipv4.tcp_wmem="4096 16384 33554432"
    # Pacelink asks for 4 MiB socket buffers; let it have them.
    ip netns exec "$ns" sysctl -qw net.core.rmem_max=33554432 2>/dev/null || true
    ip netns exec "$ns" sysctl -qw net.core.wmem_max=33554432 2>/dev/null || true
  done
}

emu_stop() {
  if [ -n "$EMU_PID" ]; then
    kill -TERM "$EMU_PID" 2>/dev/null || true
    wait "$EMU_PID" 2>/dev/null || true
    EMU_PID=""
  fi
}

# emu_start FWD REV SEED: the emulator creates both TUNs inside the namespaces; they vanish when it exits, so the
# addresses and routes are set again every time.
emu_start() {
  emu_stop
  rm -f "$RUN_DIR/ready" "$RUN_DIR/stats.json"
  # shellcheck disable=SC2086
  "$NETEM_TUN" --a "$NS_A:$DEV_A" --b "$NS_B:$DEV_B" --fwd "$1" --rev "$2" --seed "$3" \
    --stats "$RUN_DIR/stats.json" --ready "$RUN_DIR/ready" $EMU_RT 2>>"$RUN_DIR/emu.log" &
  EMU_PID=$!
  for _ in $(seq 1 100); do [ -s "$RUN_DIR/ready" ] && break; sleep 0.05; done
  [ -s "$RUN_DIR/ready" ] || { log "the emulator did not start (see $RUN_DIR/emu.log)"; return 1; }
  ip -n "$NS_A" link set "$DEV_A" mtu 1500 txqueuelen 10000 up
  ip -n "$NS_B" link set "$DEV_B" mtu 1500 txqueuelen 10000 up
  ip -n "$NS_A" addr add "$IP_A/32" dev "$DEV_A"
  ip -n "$NS_B" addr add "$IP_B/32" dev "$DEV_B"
  ip -n "$NS_A" route add "$IP_B/32" dev "$DEV_A"
  ip -n "$NS_B" route add "$IP_A/32" dev "$DEV_B"
  ip -n "$NS_A" tcp_metrics flush all 2>/dev/null || true
  ip -n "$NS_B" tcp_metrics flush all 2>/dev/null || true
}

# emu_stats FILE: the emulator's counters (JSON) at this moment.
emu_stats() {
  rm -f "$RUN_DIR/stats.json"
  kill -USR1 "$EMU_PID" 2>/dev/null || return 0
  for _ in $(seq 1 50); do [ -s "$RUN_DIR/stats.json" ] && break; sleep 0.02; done
  cp "$RUN_DIR/stats.json" "$1" 2>/dev/null || true
}

# TX drops on the TUNs: packets the emulator did not read in time (it was overloaded); should stay 0.
tun_drops() {
  local a b
  a=$(ip -n "$NS_A" -s link show "$DEV_A" | awk '/TX:/{getline; print $4}')
  b=$(ip -n "$NS_B" -s link show "$DEV_B" | awk '/TX:/{getline; print $4}')
  echo "$((a + b))"
}

# UDP datagrams the kernel dropped at a socket in each namespace (/proc/net/snmp is per network namespace):
# receive-buffer overflows (the application did not read in time) and send-buffer overflows, "A_rcv A_snd B_rcv
# B_snd"; diffed around each test, they are losses that neither the emulator nor the TUN devices counted.
udp_buffer_errors() {
  local ns out=""
  for ns in "$NS_A" "$NS_B"; do
    out="$out $(ip netns exec "$ns" awk '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) col[$i] = i; h = 1 }
      else print $col["RcvbufErrors"], $col["SndbufErrors"] }' /proc/net/snmp)"
  done
  echo $out
}

cleanup() {
  for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null; done
  emu_stop
  ip netns del "$NS_A" 2>/dev/null || true
  ip netns del "$NS_B" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

in_ns() { local ns=$1; shift; ip netns exec "$ns" nice -n "$NICE" "$@"; }

# launcher JAR: the bin/pacelink of JAR's own checkout (JAR at <checkout>/examples/target/), which starts that build
# as its users start it, else this checkout's.
launcher() {
  local own
  own=$(cd "$(dirname "$1")/../.." 2>/dev/null && pwd)/bin/pacelink
  if [ -x "$own" ]; then echo "$own"; else echo "$REPO/bin/pacelink"; fi
}

# pacelink_cmd JAR JAVA_OPTS: sets PL_CMD to the command that starts the CLI from JAR (LAUNCH above); its arguments
# follow it. bin/pacelink execs the JVM, so the process started is the JVM itself (thread_cpu.py and /usr/bin/time see
# it).
PL_CMD=()
pacelink_cmd() {
  if [ "$LAUNCH" = bin ]; then
    PL_CMD=(env "PACELINK_JAR=$1" "PACELINK_JAVA_OPTS=$2" "$(launcher "$1")")
  else
    # shellcheck disable=SC2206 # JAVA_OPTS holds several options
    PL_CMD=(java $2 -jar "$1")
  fi
}

# wait_for FILE PATTERN SECONDS
wait_for() {
  for _ in $(seq 1 $(($3 * 20))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  return 1
}

# run_kernel DIR CC: iperf3 server (one test) in B, client in A; both under /usr/bin/time for whole-process CPU.
run_kernel() {
  local d=$1 cc=$2
  # --forceflush: iperf3 buffers what it prints into a file, so without it "listening" showed only at the end and
  # every kernel test first waited out the 5 s below.
  in_ns "$NS_B" /usr/bin/time -f '%e %U %S' -o "$d/server.time" \
    iperf3 -s -1 -p "$IPERF_PORT" -B "$IP_B" --forceflush > "$d/server.txt" 2>&1 &
  local srv=$!
  BG_PIDS+=("$srv")
  wait_for "$d/server.txt" "listening" 5 || sleep 0.5
  local sampler=""
  if [ "$SS_INTERVAL" != 0 ]; then
    # The kernel sender's view of its socket, as Pacelink's stat snapshots give Pacelink's: a line of the time, then
    # ss's two lines for the connection to the server.
    ip netns exec "$NS_A" sh -c "while :; do echo \"T \$(date +%s.%N)\"; ss -tin dst $IP_B:$IPERF_PORT; sleep $SS_INTERVAL; done" \
      > "$d/ss.txt" 2>&1 &
    sampler=$!
    BG_PIDS+=("$sampler")
  fi
  timeout $((OMIT + DURATION + 40)) ip netns exec "$NS_A" nice -n "$NICE" /usr/bin/time -f '%e %U %S' -o "$d/client.time" \
    iperf3 -c "$IP_B" -p "$IPERF_PORT" -C "$2" -t "$DURATION" -O "$OMIT" -J --get-server-output > "$d/client.json" 2> "$d/client.err"
  [ -z "$sampler" ] || { kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null; }
  for _ in $(seq 1 100); do kill -0 "$srv" 2>/dev/null || break; sleep 0.1; done
  kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
}

# run_pacelink DIR CC [JAR]: pacelink perf server (one test) in B, client in A; a pacelink stat snapshot of both
# endpoints two thirds into the test (the files are deleted when the endpoints close). The stat JVM starts before
# the server and refreshes every second: started mid-test at low priority, on a machine the test saturates (1 Gbit/s),
# it used to come up only after the test had ended and found nothing. It runs at the endpoints' priority and the
# client starts only once a refresh has shown the server's counters (the stat is past its start-up and reads a live
# file): at nice 10 the endpoints' own JVMs at NICE (their start-up's compilations) and any other load starved it —
# refreshes 2-5 s apart instead of 1, and in a 2-s smoke test on a loaded machine none while both endpoints lived.
run_pacelink() {
  local d=$1 cc=$2 JAR=${3:-$JAR} JAVA_OPTS=${4-$JAVA_OPTS} PACELINK_OPTS=${5-$PACELINK_OPTS}
  local srv_wrap=() cli_wrap=() omit_opt=()
  # Only when asked: a jar that predates --omit still runs the default.
  [ "$OMIT" = 0 ] || omit_opt=(--omit "$OMIT")
  if [ "$STRACE" != 0 ]; then
    srv_wrap=(strace -f -c -o "$d/server.strace")
    cli_wrap=(strace -f -c -o "$d/client.strace")
  fi
  nice -n "$NICE" java -jar "$JAR" stat --json --interval 1s --count $((OMIT + DURATION + 120)) > "$d/stat.raw" 2>&1 &
  local snap=$!
  BG_PIDS+=("$snap")
  wait_for "$d/stat.raw" "processes" 20 || log "pacelink stat did not start (see $d/stat.raw)"
  pacelink_cmd "$JAR" "$JAVA_OPTS"
  # shellcheck disable=SC2086
  in_ns "$NS_B" /usr/bin/time -f '%e %U %S' -o "$d/server.time" \
    "${srv_wrap[@]}" "${PL_CMD[@]}" perf -s -1 -B "$IP_B" -p "$PACELINK_PORT" $SECURITY $PACELINK_OPTS > "$d/server.txt" 2>&1 &
  local srv=$!
  BG_PIDS+=("$srv")
  # Per-thread CPU of the server's JVM (agent, application, JIT, GC: thread_cpu.py), sampled until it exits.
  # At the endpoints' priority: a sampler starved on a loaded machine would find the JVM late.
  nice -n "$NICE" python3 "$HERE/thread_cpu.py" watch "$srv" "$d/server.threads.json" &
  local srv_threads=$!
  BG_PIDS+=("$srv_threads")
  wait_for "$d/server.txt" "listening" 20 || log "pacelink server did not say it listens (see $d/server.txt)"
  wait_for "$d/stat.raw" "/$IP_B:$PACELINK_PORT " 20 || log "pacelink stat did not see the server (see $d/stat.raw)"
  # shellcheck disable=SC2086
  timeout $((OMIT + DURATION + 60)) ip netns exec "$NS_A" nice -n "$NICE" /usr/bin/time -f '%e %U %S' -o "$d/client.time" \
    "${cli_wrap[@]}" "${PL_CMD[@]}" perf -c "$IP_B" -B "$IP_A" -p "$PACELINK_PORT" -C "$cc" -t "$DURATION" \
    "${omit_opt[@]}" -J $SECURITY $PACELINK_OPTS \
    --get-server-output > "$d/client.json" 2> "$d/client.err" &
  local cli=$!
  BG_PIDS+=("$cli")
  nice -n "$NICE" python3 "$HERE/thread_cpu.py" watch "$cli" "$d/client.threads.json" &
  local cli_threads=$!
  BG_PIDS+=("$cli_threads")
  wait "$cli"
  wait "$cli_threads" 2>/dev/null
  kill "$snap" 2>/dev/null; wait "$snap" 2>/dev/null
  python3 "$HERE/parity_report.py" stat "$IP_A" "$IP_B" < "$d/stat.raw" > "$d/stat.json"
  [ "$(grep -o '"status": "alive"' "$d/stat.json" 2>/dev/null | wc -l)" = 2 ] ||
    log "pacelink stat saw no refresh with both endpoints alive (see $d/stat.raw)"
  for _ in $(seq 1 100); do kill -0 "$srv" 2>/dev/null || break; sleep 0.1; done
  kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
  wait "$srv_threads" 2>/dev/null
}

# run_baseline DIR CC: the same test with BASELINE_JAR.
run_baseline() {
  run_pacelink "$1" "$2" "$BASELINE_JAR" "$BASELINE_JAVA_OPTS" "$BASELINE_PACELINK_OPTS"
}

# run_one PATH CC RUN SYSTEM SEED
run_one() {
  local path=$1 cc=$2 run=$3 system=$4 seed=$5
  local d="$OUT/$path/$cc/run$run/$system"
  mkdir -p "$d"
  emu_start "$(path_fwd "$path")" "$(path_rev "$path")" "$seed" || return 1
  echo "$(loadavg)" > "$d/loadavg.start"
  udp_buffer_errors > "$d/udperrors.start"
  log "$path $cc run $run $system (seed $seed, load $(loadavg))"
  "run_$system" "$d" "$cc"
  echo "$(loadavg)" > "$d/loadavg.end"
  emu_stats "$d/emu.json"
  tun_drops > "$d/tundrops"
  udp_buffer_errors > "$d/udperrors.end"
  python3 "$HERE/parity_report.py" one "$d" "$system" "$(path_floor_ms "$path")" | tee -a "$OUT/parity.log"
}

ns_setup
log "kernel parity: paths [$PATHS], controllers [$CCS], $RUNS runs of ${DURATION}s after ${OMIT}s omitted, out $OUT, load $(loadavg)"
# A launcher that builds perf's AOT cache the first time (JDK 25) does it now, before the first test, outside the
# namespaces and the emulator's time: `perf --help` starts as a test's ends do.
if [ "$LAUNCH" = bin ]; then
  for jar in "$JAR" ${BASELINE_JAR:+"$BASELINE_JAR"}; do
    log "launcher for $jar: $(launcher "$jar")"
    PACELINK_JAR="$jar" "$(launcher "$jar")" perf --help > /dev/null || log "$(launcher "$jar") perf --help failed"
  done
fi
log "emulator $NETEM_TUN $EMU_RT; started by $([ "$LAUNCH" = bin ] && echo bin/pacelink || echo 'java -jar'); jar $JAR${JAVA_OPTS:+ with $JAVA_OPTS}${BASELINE_JAR:+; baseline jar $BASELINE_JAR}${BASELINE_JAR:+${BASELINE_JAVA_OPTS:+ with $BASELINE_JAVA_OPTS}}; $(java -version 2>&1 | head -1); $(uname -r)"
for run in $(seq 1 "$RUNS"); do
  for path in $PATHS; do
    for cc in $CCS; do
      # One seed per (path, controller, run), the same for both systems: both see the same loss pattern draw.
      seed=$(( $(echo -n "$path/$cc" | cksum | cut -d' ' -f1) % 100000 + run * 7919 ))
      if [ -n "$BASELINE_JAR" ]; then
        # Three systems: each goes first, second and third once in every three runs.
        case $((run % 3)) in
          1) order="kernel baseline pacelink" ;;
          2) order="pacelink kernel baseline" ;;
          0) order="baseline pacelink kernel" ;;
        esac
      elif [ $((run % 2)) = 1 ]; then order="kernel pacelink"; else order="pacelink kernel"; fi
      for system in $order; do
        run_one "$path" "$cc" "$run" "$system" "$seed"
      done
    done
  done
done
emu_stop
python3 "$HERE/parity_report.py" summary "$OUT" | tee "$OUT/summary.md"
if grep -q 'FAILED' "$OUT/parity.log"; then
  echo "kernel-parity.sh: some tests failed (FAILED lines above; their folders under $OUT say why)" >&2
  exit 1
fi
