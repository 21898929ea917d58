#!/bin/bash
# Where the time goes in one loopback transfer: a receiver and a sender process of the loopback suite
# (io.pacelink.perf.loopback), each under `perf stat` (CPU time, context switches and system calls by kind, counted in
# the kernel, so cheap), with a Java Flight Recording each (JFR=1) or an async-profiler CPU profile each
# (ASYNC_PROFILER=/path/to/libasyncProfiler.so: Java and kernel frames, 1 ms), then per data packet: CPU, system calls
# of each kind, context switches; the receiver's ACKs per data packet; and the top frames of every thread.
# async-profiler is on Maven Central (tools.profiler:async-profiler:3.0, linux-x64/libasyncProfiler.so in the jar).
#
#   perf/scripts/profile-loopback.sh [SYSTEM [MODE [DATAGRAM_BYTES [MESSAGE_BYTES [SECONDS]]]]]
#     SYSTEM pacelink (default), raw-udp or aeron; MODE dedicated (default) or invoker (aeron: invoker or shared);
#     DATAGRAM_BYTES 1472 (Aeron: the MTU); MESSAGE_BYTES 131072; SECONDS 10.
#
# Environment: BENCH (perf/target/benchmarks.jar), AERON (perf/target/aeron/aeron-all.jar), OUT (a new folder under
# /tmp), JFR (1), PORT (a free one). Needs root or perf_event_paranoid <= 1 for the syscall tracepoints.
set -u
set -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SYSTEM=${1:-pacelink}
MODE=${2:-dedicated}
DATAGRAM=${3:-1472}
MESSAGE=${4:-131072}
SECONDS_=${5:-10}
BENCH=${BENCH:-$REPO/perf/target/benchmarks.jar}
AERON=${AERON:-$REPO/perf/target/aeron/aeron-all.jar}
OUT=${OUT:-/tmp/profile-loopback-$SYSTEM-$MODE-$DATAGRAM-$(date +%H%M%S)}
JFR=${JFR:-1}
ASYNC_PROFILER=${ASYNC_PROFILER:-}
PORT=${PORT:-$((20000 + RANDOM % 20000))}
[ -f "$BENCH" ] || { echo "profile-loopback.sh: $BENCH not found; build it: mvn -B -q -pl perf -am package -DskipTests" >&2; exit 2; }
command -v perf >/dev/null || { echo "profile-loopback.sh: perf (linux-perf) is not installed" >&2; exit 2; }
mkdir -p "$OUT"

EVENTS="task-clock,context-switches,cpu-migrations,raw_syscalls:sys_enter"
TRACEPOINTS=$(perf list tracepoint 2>/dev/null)
for call in sendto recvfrom sendmsg recvmsg sendmmsg recvmmsg futex sched_yield nanosleep clock_nanosleep \
  epoll_wait epoll_pwait poll ppoll write read; do
  case "$TRACEPOINTS" in *"syscalls:sys_enter_$call "*) EVENTS="$EVENTS,syscalls:sys_enter_$call" ;; esac
done
CP=$BENCH
[ "$SYSTEM" = aeron ] && CP=$AERON:$BENCH
JAVA=(java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED)
jfr() {
  if [ -n "$ASYNC_PROFILER" ]; then
    echo "-agentpath:$ASYNC_PROFILER=start,event=cpu,interval=1ms,threads,collapsed,file=$OUT/$1.collapsed"
  elif [ "$JFR" = 1 ]; then
    echo "-XX:StartFlightRecording=filename=$OUT/$1.jfr,settings=profile,dumponexit=true"
  fi
}
MS=$((SECONDS_ * 1000))
if [ "$SYSTEM" = aeron ]; then
  RECV=(io.pacelink.perf.loopback.AeronBulk receive "$PORT" "$MODE" 1000)
  SEND=(io.pacelink.perf.loopback.AeronBulk send "$PORT" "$MODE" "$DATAGRAM" "$MESSAGE" "$MS")
else
  RECV=(io.pacelink.perf.loopback.LoopbackRole receive "$SYSTEM" "$PORT" "$MODE" "$DATAGRAM" 1000)
  SEND=(io.pacelink.perf.loopback.LoopbackRole send "$SYSTEM" "$PORT" "$MODE" "$DATAGRAM" "$MESSAGE" "$MS")
fi

echo "profile: $SYSTEM $MODE, $DATAGRAM B datagrams, $MESSAGE B messages, ${SECONDS_}s, load $(cut -d' ' -f1-3 /proc/loadavg), out $OUT"
# shellcheck disable=SC2046
perf stat -x, -e "$EVENTS" -o "$OUT/receiver.perf" -- "${JAVA[@]}" $(jfr receiver) -cp "$CP" "${RECV[@]}" \
  > "$OUT/receiver.log" 2>&1 &
RECEIVER=$!
for _ in $(seq 1 600); do grep -q READY "$OUT/receiver.log" 2>/dev/null && break; sleep 0.1; done
# shellcheck disable=SC2046
perf stat -x, -e "$EVENTS" -o "$OUT/sender.perf" -- "${JAVA[@]}" $(jfr sender) -cp "$CP" "${SEND[@]}" \
  > "$OUT/sender.log" 2>&1
wait "$RECEIVER"
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]

def result(role):
    for line in open(os.path.join(out, role + '.log')):
        if line.startswith('RESULT '):
            return json.loads(line[len('RESULT '):])
    return {}

def counts(role):
    c = {}
    for line in open(os.path.join(out, role + '.perf')):
        parts = line.strip().split(',')
        if len(parts) > 2 and parts[0] and parts[0][0].isdigit():
            c[parts[2]] = float(parts[0])
    return c

rx, tx = result('receiver'), result('sender')
# Data packets: the sender's datagrams (Pacelink counts them; raw UDP and Aeron: messages or bytes / MTU).
if 'datagrams_sent' in tx:
    packets = tx['datagrams_sent']
elif tx.get('system') == 'aeron':
    packets = max(tx.get('bytes', 0), 1) / (tx.get('mtu_bytes', 1472) - 32)
else:
    packets = tx.get('messages', 0)
packets = max(packets, 1)
print('receiver: %s' % {k: rx.get(k) for k in ('bits_per_second', 'messages_per_second', 'cpu_percent',
                                                 'acks_per_data_packet', 'datagrams_received', 'datagrams_sent',
                                                 'status_messages_sent') if k in rx})
print('sender:   %s' % {k: tx.get(k) for k in ('bytes', 'messages', 'cpu_percent', 'packets_sent',
                                                 'packets_retransmitted', 'datagrams_sent', 'datagrams_received',
                                                 'min_rtt_ns') if k in tx})
print('data packets: %d' % packets)
# CPU in the measured window only (the roles sample their own process CPU time), without JVM start-up and JIT.
for role, res in (('sender', tx), ('receiver', rx)):
    if res.get('cpu_percent') is not None and res.get('elapsed_ns'):
        print('%s CPU in its measured window: %.0f ns per data packet (%.0f %% of a core)' % (
            role, res['cpu_percent'] / 100 * res['elapsed_ns'] / packets, res['cpu_percent']))
print('\n| per data packet (whole process, start-up included) | sender | receiver |')
print('|---|---:|---:|')
s, r = counts('sender'), counts('receiver')
for key in sorted(set(s) | set(r), key=lambda k: (k != 'task-clock', k)):
    scale = 1e6 if key == 'task-clock' else 1  # task-clock is in ms: ns per packet
    name = 'CPU ns' if key == 'task-clock' else key.replace('syscalls:sys_enter_', '').replace('raw_syscalls:sys_enter', 'all system calls')
    print('| %s | %.3f | %.3f |' % (name, s.get(key, 0) * scale / packets, r.get(key, 0) * scale / packets))
PY
if [ -n "$ASYNC_PROFILER" ] || [ "$JFR" = 1 ]; then
  for role in sender receiver; do
    profile=$OUT/$role.jfr
    [ -n "$ASYNC_PROFILER" ] && profile=$OUT/$role.collapsed
    python3 "$HERE/jfr_top.py" "$profile" --top 25 --method copyMemory --method putBytes --method getBytes \
      --method DatagramChannelImpl.send --method DatagramChannelImpl.receive --method writeAckFrame \
      --method ReceivedPacketTracker.gap --method AckFrameRanges.wrap --method PacketDecoder.validateAck \
      --method SentPacketRing.hasCapacityFor --method onAckReceived --method buildPacket > "$OUT/$role.top.txt"
    echo "top frames of the $role: $OUT/$role.top.txt"
  done
fi
