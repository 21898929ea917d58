#!/bin/bash
# System calls per data packet of a Pacelink sender on loopback (issue goal: <= 0.1 with the batched port).
#
# Two processes, as perf/scripts/loopback.sh runs its bulk case: a receiver (io.pacelink.perf.loopback.LoopbackRole
# receive pacelink) and a sender that offers 128 KiB messages for DURATION seconds, run whole under `strace -c -f`.
# Every call of the sender's process counts (JVM start-up, JIT, GC and the application's own threads included), over
# the data packets its connection sent. strace slows the process down, so only the ratio means anything, never the
# rate.
#
#   perf/scripts/syscalls.sh [MODE ...]
#
# MODE is the sender's and receiver's PacelinkBulk mode: dedicated (the default profile on the port chosen
# automatically: the batched port where it works), dedicated-nogso, dedicated-nio, invoker, invoker-nogso. Default: the
# three dedicated ones.
#
# Environment: DURATION (seconds, default 3), BENCH (default perf/target/benchmarks.jar), OUT (default a new
# temporary folder), DATAGRAM_BYTES (default 1472).
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=${BENCH:-$REPO/perf/target/benchmarks.jar}
DURATION=${DURATION:-3}
DATAGRAM_BYTES=${DATAGRAM_BYTES:-1472}
OUT=${OUT:-$(mktemp -d /tmp/pacelink-syscalls-XXXXXX)}
MODES=("$@")
[ ${#MODES[@]} -gt 0 ] || MODES=(dedicated dedicated-nogso dedicated-nio)
[ -f "$BENCH" ] || { echo "syscalls.sh: $BENCH not found; build it: mvn -B -q -pl perf -am package -DskipTests" >&2; exit 2; }
command -v strace >/dev/null || { echo "syscalls.sh: strace is not installed" >&2; exit 2; }
case "$DURATION" in ''|*[!0-9]*) echo "syscalls.sh: DURATION is a whole number of seconds" >&2; exit 2;; esac
mkdir -p "$OUT"
JAVA=(java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -cp "$BENCH" io.pacelink.perf.loopback.LoopbackRole)

free_port() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

printf '| mode | data packets sent | sender system calls | per data packet | sendmmsg | sendto | recvmmsg | recvfrom | ppoll | futex |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
status=0
for mode in "${MODES[@]}"; do
  port=$(free_port)
  "${JAVA[@]}" receive pacelink "$port" "$mode" "$DATAGRAM_BYTES" 2000 > "$OUT/$mode.receiver.txt" 2>&1 &
  receiver=$!
  for _ in $(seq 1 200); do grep -q READY "$OUT/$mode.receiver.txt" 2>/dev/null && break; sleep 0.05; done
  strace -c -f -o "$OUT/$mode.strace.txt" "${JAVA[@]}" send pacelink "$port" "$mode" "$DATAGRAM_BYTES" 131072 \
    $((DURATION * 1000)) > "$OUT/$mode.sender.txt" 2>&1
  # The receiver ends 2 s after the last message; one the sender never reached would wait for it forever.
  for _ in $(seq 1 100); do kill -0 "$receiver" 2>/dev/null || break; sleep 0.1; done
  kill "$receiver" 2>/dev/null
  wait "$receiver" 2>/dev/null
  packets=$(grep -o '"packets_sent":[0-9]*' "$OUT/$mode.sender.txt" | tail -1 | cut -d: -f2)
  if [ -z "$packets" ] || [ "$packets" = 0 ]; then
    echo "syscalls.sh: $mode: no result from the sender (see $OUT/$mode.sender.txt)" >&2
    status=1
    continue
  fi
  python3 - "$OUT/$mode.strace.txt" "$mode" "$packets" <<'EOF'
import sys
path, mode, packets = sys.argv[1], sys.argv[2], int(sys.argv[3])
calls, total = {}, 0
for line in open(path):
    fields = line.split()
    if len(fields) >= 5 and fields[0][0].isdigit() and fields[-1] != "total":
        count = int(fields[3])
        calls[fields[-1]] = count
    elif fields and fields[-1] == "total":
        total = int(fields[3])
pick = lambda name: str(calls.get(name, 0))
print(f"| {mode} | {packets:,} | {total:,} | {total / packets:.3f} | {pick('sendmmsg')} | {pick('sendto')} | "
      f"{pick('recvmmsg')} | {pick('recvfrom')} | {pick('ppoll')} | {pick('futex')} |")
EOF
done
echo "raw output: $OUT"
exit $status
