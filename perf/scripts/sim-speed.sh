#!/bin/bash
# Simulator speed: simulated data packets per wall-clock second (and per CPU second of the process, which a
# loaded machine distorts less) and events per packet, for one 1 Gbit/s flow and
# for 50 flows sharing a 100 Mbit/s bottleneck, N repetitions each (alternated), medians with their range; with
# JFR=1 each run is also recorded and its top frames printed (perf/scripts/jfr_top.py). See perf/README.md.
#
#   perf/scripts/sim-speed.sh
#
# With JOBS=N (default 2; 0 skips it) each repetition also runs the scenario with N seeds at once
# (pacelink sim --seeds N --jobs N) and reports the data packets all of them simulated per wall second together.
#
# Which wall second: the simulator's figure (packets_per_wall_s, what `pacelink sim` prints) divides the packets by the
# wall time of the run alone (Scenario.run: building the endpoints, then the first event to the last), so the JVM's
# start-up and the command's parsing are not in it, but the JIT's warm-up is: the run starts interpreted, and on two
# cores the compiler threads (as much CPU as the simulation in a 10-s run, the "JIT s" column, -XX:+CITime) take the
# core the simulation would otherwise share with nothing. The "per process wall s" column divides the same packets by
# the whole command's wall time (`time pacelink sim`: JVM start-up included), what a user waits for. With WARM=1
# (default; 0 skips it) each repetition also runs two seeds one after the other in one JVM (--seeds 2 --jobs 1) and
# reports the second's packets per wall second: the same scenario with a warmed-up JIT.
#
# Which JVM: what `pacelink sim` gets, i.e. bin/pacelink's choice for sim (the newest JDK 25 or later installed, with
# the Parallel collector and the simulator's AOT cache, which the launcher builds beside $JAR the first time: run one
# `sim` on a new jar before measuring; Java 17 with the Parallel collector when there is none: docs/tools.md,
# "Start-up"), running $JAR; LAUNCHER names another launcher (e.g. an older checkout's bin/pacelink, to compare with),
# LAUNCHER=java runs `java -jar $JAR` on the java on the PATH with its defaults (the figures before round 8 of
# perf/FINDINGS.md were taken that way).
#
# Which scenarios: SCENARIOS (default "1flow-1gbit 50flows-100mbit"). The issue's "50 × 100 Mbit/s flows" reads two
# ways: 50 flows sharing one 100 Mbit/s bottleneck (50flows-100mbit, the default: 2 Mbit/s each, so every host sees
# one packet at a time and each costs duty cycles on cold state, the hard case the figures since round 5 track), or
# 50 flows of 100 Mbit/s each (50flows-5gbit: 50 flows sharing 5 Gbit/s, 100 Mbit/s each, ten times the packets of a
# 1 Gbit/s flow per simulated second; give it a shorter DURATION).
#
# Environment: JAR (examples/target/pacelink.jar), RUNS (3), DURATION (simulated, 10s), CC (cubic), OUT (a new
# folder under /tmp), JFR (0), JOBS (2), WARM (1), JAVA_OPTS (extra JVM options), LAUNCHER (bin/pacelink), SIM_ARGS
# (more `pacelink sim` options for every run, e.g. "--wakes exact"; a build without them refuses them), SCENARIOS.
set -u
set -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
JAR=${JAR:-$REPO/examples/target/pacelink.jar}
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
CC=${CC:-cubic}
OUT=${OUT:-/tmp/sim-speed-$(date +%Y%m%d-%H%M%S)}
JFR=${JFR:-0}
JOBS=${JOBS:-2}
WARM=${WARM:-1}
JAVA_OPTS=${JAVA_OPTS:-}
SIM_ARGS=${SIM_ARGS:-}
LAUNCHER=${LAUNCHER:-$REPO/bin/pacelink}
# sim_command JVM_OPTIONS: sets SIM to the command that runs `pacelink sim` with these JVM options, through the
# launcher or `java -jar`.
sim_command() {
  if [ "$LAUNCHER" = java ]; then
    # shellcheck disable=SC2206 # JVM options are several words
    SIM=(java $JAVA_OPTS $1 -jar "$JAR" sim)
  else
    SIM=(env PACELINK_JAR="$JAR" PACELINK_JAVA_OPTS="$JAVA_OPTS $1" "$LAUNCHER" sim)
  fi
}
[ -f "$JAR" ] || { echo "sim-speed.sh: $JAR not found; build it: mvn -B -q -pl examples -am package -DskipTests" >&2; exit 2; }
mkdir -p "$OUT"

# name -> pacelink sim arguments
declare -A SCENARIO_ARGS=(
  [1flow-1gbit]="--path 'rate=1gbit delay=5ms queue=1bdp' --cc $CC $SIM_ARGS"
  [50flows-100mbit]="--path 'rate=100mbit delay=5ms queue=1bdp' --cc $CC --flows 50 $SIM_ARGS"
  [50flows-5gbit]="--path 'rate=5gbit delay=5ms queue=1bdp' --cc $CC --flows 50 $SIM_ARGS"
)
# shellcheck disable=SC2206 # scenario names are words
ORDER=(${SCENARIOS:-1flow-1gbit 50flows-100mbit})
for name in "${ORDER[@]}"; do
  [ -n "${SCENARIO_ARGS[$name]:-}" ] ||
    { echo "sim-speed.sh: no scenario '$name' (${!SCENARIO_ARGS[*]})" >&2; exit 2; }
done

echo "sim speed: ${ORDER[*]}, $RUNS runs of $DURATION simulated, cc $CC${SIM_ARGS:+, $SIM_ARGS}, load $(cut -d' ' -f1-3 /proc/loadavg), out $OUT"
for run in $(seq 1 "$RUNS"); do
  for name in "${ORDER[@]}"; do
    jfr_opt=""
    [ "$JFR" = 1 ] && jfr_opt="-XX:StartFlightRecording=filename=$OUT/$name-run$run.jfr,settings=profile,dumponexit=true"
    sim_command "-XX:+CITime $jfr_opt"
    eval /usr/bin/time -f "'%e %U %S'" -o "$OUT/$name-run$run.time" '"${SIM[@]}"' ${SCENARIO_ARGS[$name]} --duration "$DURATION" --json \
      > "$OUT/$name-run$run.json" 2> "$OUT/$name-run$run.err"
    python3 - "$OUT/$name-run$run" "$name" "$run" "$(cut -d' ' -f1 /proc/loadavg)" <<'PY'
import json, re, sys
# The JSON document is the last line that starts with '{' (a flight recording logs its start on stdout first).
j = json.loads([l for l in open(sys.argv[1] + '.json') if l.startswith('{')][-1])
elapsed, user, system = (float(x) for x in open(sys.argv[1] + '.time').read().split()[-3:])
r = j['run']
packets = sum(f['sent_packets'] for f in j['flows'])
jit = re.search(r'Total compilation time\s*:\s*([0-9.]+) s', open(sys.argv[1] + '.json').read())
print('  run %s %-16s %8.0f packets/wall s  %8.0f packets/process wall s  %8.0f packets/CPU s  %5.2f events/packet  '
      '%9d packets  wall %.1f s (process %.1f s, CPU %.1f s)  JIT %s s  load %s' % (
          sys.argv[3], sys.argv[2], r['packets_per_wall_s'], packets / elapsed, packets / (user + system),
          r['events'] / max(1, packets), packets, r['wall_s'], elapsed, user + system, jit.group(1) if jit else '?',
          sys.argv[4]))
PY
    if [ "$WARM" = 1 ]; then
      # shellcheck disable=SC2086
      sim_command ""
      eval '"${SIM[@]}"' ${SCENARIO_ARGS[$name]} --duration "$DURATION" --seeds 2 --jobs 1 --json \
        > "$OUT/$name-run$run.warm.json" 2> "$OUT/$name-run$run.warm.err"
      printf '  run %s %-16s %8s packets/wall s warm (the second of two seeds in one JVM)\n' "$run" "$name" \
        "$(python3 -c 'import json, sys; print("%.0f" % [json.loads(l) for l in open(sys.argv[1])
            if l.startswith("{")][-1]["run"]["packets_per_wall_s"])' "$OUT/$name-run$run.warm.json")"
    fi
    if [ "$JOBS" -gt 0 ]; then
      # shellcheck disable=SC2086
      sim_command ""
      eval '"${SIM[@]}"' ${SCENARIO_ARGS[$name]} --duration "$DURATION" --seeds "$JOBS" --jobs "$JOBS" \
        > "$OUT/$name-run$run.jobs.txt" 2> "$OUT/$name-run$run.jobs.err"
      printf '  run %s %-16s %8s packets/wall s with %s seeds at once\n' "$run" "$name" \
        "$(sed -n 's/.* \([0-9]*\) data packets per wall second in all/\1/p' "$OUT/$name-run$run.jobs.txt")" "$JOBS"
    fi
  done
done
python3 - "$OUT" "$JOBS" "${ORDER[@]}" <<'PY'
import glob, json, os, re, statistics, sys
out, jobs = sys.argv[1], int(sys.argv[2])
print('\n| scenario | runs | data packets per wall second | per wall second of the process | per CPU second of the '
      'process | events per data packet | JIT compile CPU s | warm: second seed in one JVM, per wall second | '
      'with %d seeds at once, per wall second |' % jobs)
print('|---|---:|---|---|---|---|---|---|---|')
for name in sys.argv[3:]:
    pps, ppw, ppc, epp, jit, warm = [], [], [], [], [], []
    for f in sorted(glob.glob(os.path.join(out, name + '-run[0-9]*.json'))):
        if f.endswith('.warm.json'):
            continue
        j = json.loads([l for l in open(f) if l.startswith('{')][-1])
        m = re.search(r'Total compilation time\s*:\s*([0-9.]+) s', open(f).read())
        if m:
            jit.append(float(m.group(1)))
        packets = sum(x['sent_packets'] for x in j['flows'])
        pps.append(j['run']['packets_per_wall_s'])
        elapsed, user, system = (float(x) for x in open(f[:-5] + '.time').read().split()[-3:])
        ppw.append(packets / elapsed)
        ppc.append(packets / (user + system))
        epp.append(j['run']['events'] / max(1, packets))
    s = lambda v, d: ('%.' + str(d) + 'f (%.' + str(d) + 'f–%.' + str(d) + 'f)') % (statistics.median(v), min(v), max(v))
    for f in sorted(glob.glob(os.path.join(out, name + '-run*.warm.json'))):
        docs = [json.loads(l) for l in open(f) if l.startswith('{')]
        if len(docs) == 2:
            warm.append(docs[-1]['run']['packets_per_wall_s'])
    par = []
    for f in sorted(glob.glob(os.path.join(out, name + '-run*.jobs.txt'))):
        m = re.search(r' (\d+) data packets per wall second in all', open(f).read())
        if m:
            par.append(int(m.group(1)))
    print('| %s | %d | %s | %s | %s | %s | %s | %s | %s |' % (
        name, len(pps), s([p / 1e3 for p in pps], 0) + ' k', s([p / 1e3 for p in ppw], 0) + ' k',
        s([p / 1e3 for p in ppc], 0) + ' k', s(epp, 2),
        s(jit, 1) if jit else '-', s([p / 1e3 for p in warm], 0) + ' k' if warm else '-',
        s([p / 1e3 for p in par], 0) + ' k' if par else '-'))
PY
if [ "$JFR" = 1 ]; then
  for f in "$OUT"/*.jfr; do
    python3 "$HERE/jfr_top.py" "$f" --top 15 --method ReceivedPacketTracker.gap --method AckFrameRanges.wrap \
      --method PacketDecoder.validateAck --method SentPacketRing.hasCapacityFor --method copy \
      > "${f%.jfr}.top.txt"
    echo "top frames: ${f%.jfr}.top.txt"
  done
fi
