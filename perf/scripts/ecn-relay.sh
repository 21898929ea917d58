#!/bin/bash
# ECN end to end through `pacelink netem` (docs/ecn.md): a transfer of BYTES through a relay whose forward queue is
# fq_codel (CE marks instead of drops), once with the endpoints marking their packets ECN-capable and once without, on
# the same relay seed. Three processes each time: `pacelink perf -s`, `pacelink netem`, `pacelink perf -c`.
#
#   perf/scripts/ecn-relay.sh
#
# Checks, each failing the script: both transfers move every byte; with ECN the receiver counted exactly the CE marks
# the relay's queue set, and the sender's validation ended CAPABLE; with ECN the sender retransmitted no more than
# without it. ECN needs the batched port at every end (the NIO port cannot read a datagram's codepoint).
#
# Environment: BYTES (default 100M), PATH_SPEC (default "rate=100mbit delay=5ms queue=2000p qdisc=fq_codel"),
# CC (default cubic), SEED (default 7), JAR (default examples/target/pacelink.jar), OUT (default a new temporary
# folder).
set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
JAR=${JAR:-$REPO/examples/target/pacelink.jar}
BYTES=${BYTES:-100M}
PATH_SPEC=${PATH_SPEC:-rate=100mbit delay=5ms queue=2000p qdisc=fq_codel}
CC=${CC:-cubic}
SEED=${SEED:-7}
OUT=${OUT:-$(mktemp -d /tmp/pacelink-ecn-relay-XXXXXX)}
[ -f "$JAR" ] || { echo "ecn-relay.sh: $JAR not found; build it: mvn -B -q install -DskipTests" >&2; exit 2; }
mkdir -p "$OUT"
free_port() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

server=
relay=
# A run cut short (Ctrl-C, a timeout) must not leave a relay or a server behind: they would load every later
# measurement on the machine.
cleanup() { for pid in $relay $server; do kill "$pid" 2>/dev/null; done; }
trap cleanup EXIT
trap 'exit 130' INT TERM

run() {
  local ecn=$1 server_port relay_port
  server_port=$(free_port)
  relay_port=$(free_port)
  java -jar "$JAR" perf -s -1 -B 127.0.0.1 -p "$server_port" --insecure > "$OUT/server-$ecn.txt" 2>&1 &
  server=$!
  java -jar "$JAR" netem --listen "127.0.0.1:$relay_port" --forward "127.0.0.1:$server_port" --path "$PATH_SPEC" \
    --seed "$SEED" > "$OUT/relay-$ecn.txt" 2>&1 &
  relay=$!
  for _ in $(seq 1 200); do
    grep -q "listening" "$OUT/server-$ecn.txt" 2>/dev/null && grep -q "relaying" "$OUT/relay-$ecn.txt" 2>/dev/null && break
    sleep 0.05
  done
  java -jar "$JAR" perf -c 127.0.0.1 -p "$relay_port" -n "$BYTES" -C "$CC" --insecure --ecn "$ecn" --json \
    > "$OUT/client-$ecn.json" 2> "$OUT/client-$ecn.err"
  local status=$?
  # SIGTERM: a script's background jobs ignore SIGINT; the relay prints its summary on either.
  kill -TERM "$relay" 2>/dev/null
  wait "$relay" 2>/dev/null
  kill "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  relay=
  server=
  return $status
}

status=0
for ecn in on off; do
  run "$ecn" || { echo "ecn-relay.sh: the transfer with --ecn $ecn failed (see $OUT/client-$ecn.err)" >&2; status=1; }
done
python3 - "$OUT" "$BYTES" <<'PY' || status=1
import json, re, sys
out, asked = sys.argv[1], sys.argv[2]
def relay(ecn):
    text = open(f"{out}/relay-{ecn}.txt").read()
    m = re.findall(r"forward: .*?qdrop (\d+)(?:, ecn-capable (\d+), ce marks (\d+))?", text.split("netem relay summary")[-1])
    drops, capable, marks = m[0]
    return int(drops), int(marks or 0)
rows, failures = {}, []
for ecn in ("on", "off"):
    stream = json.load(open(f"{out}/client-{ecn}.json"))["end"]["streams"][0]
    sender, receiver = stream["sender"], stream["receiver"]
    drops, marks = relay(ecn)
    rows[ecn] = (sender["bytes"], receiver["bytes"], sender["retransmits"], sender["pacelink"]["ecn"],
                 receiver["pacelink"]["ecn"]["ce_received"], drops, marks)
print("| ECN | bytes sent | bytes received | retransmitted | sender validation | CE reported | reactions | CE received | relay marks | relay drops |")
print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
for ecn, (sent, received, retr, sender_ecn, ce_received, drops, marks) in rows.items():
    print(f"| {ecn} | {sent} | {received} | {retr} | {sender_ecn['state']} | {sender_ecn['ce_reported']} | "
          f"{sender_ecn['ce_reactions']} | {ce_received} | {marks} | {drops} |")
    if sent != received:
        failures.append(f"--ecn {ecn}: {received} bytes received of {sent} sent")
on, off = rows["on"], rows["off"]
if on[3]["state"] != "CAPABLE":
    failures.append(f"--ecn on: validation ended {on[3]['state']} ({on[3]['failure']}), not CAPABLE")
if on[4] != on[6]:
    failures.append(f"--ecn on: the receiver counted {on[4]} CE marks, the relay set {on[6]}")
if on[2] > off[2]:
    failures.append(f"--ecn on retransmitted {on[2]} packets, more than the {off[2]} without ECN")
for failure in failures:
    print("ecn-relay.sh: FAILED: " + failure, file=sys.stderr)
sys.exit(1 if failures else 0)
PY
echo "raw output: $OUT"
exit $status
