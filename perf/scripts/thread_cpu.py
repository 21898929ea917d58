#!/usr/bin/env python3
"""Where a JVM's CPU goes, thread by thread: samples /proc/PID/task/*/stat until the process exits.

  thread_cpu.py watch ROOT_PID OUT.json [INTERVAL_S]
      waits (up to 30 s) for a `java` process among ROOT_PID's descendants (ROOT_PID itself included: the script is
      given the pid of a `/usr/bin/time java ...` or `ip netns exec ... java ...` wrapper), then records every
      thread's user + system CPU ticks every INTERVAL_S seconds (default 0.5) with the wall-clock time, until the
      process exits, and writes the samples to OUT.json. A thread that exits keeps the CPU of its last sample.
  thread_cpu.py report OUT.json [FROM_WALL_S TO_WALL_S]
      CPU seconds per thread class over the whole process life, then per 5-s step of its life, and, given a window
      of wall-clock times (seconds since the epoch), per thread class in percent of one core over that window.

Thread classes (a Linux thread name is the first 15 characters of the Java thread's name):
  main      the JVM's main thread ("java"); the CLI tools (pacelink perf, send, ping) run their endpoint in INVOKER
            mode, so this is the duty cycle (port, protocol, waits) and the application's side (the stream) together
  agent     an endpoint's own agent thread in DEDICATED mode ("pacelink-/ADDRESS:PORT"): the duty cycle alone
  session   `pacelink receive`'s two threads per session ("pacelink-receive-net-…", "pacelink-receive-files-…")
  jit-c2    C2 compiler threads; jit-c1  C1 compiler threads
  gc        garbage-collector threads (G1's "GC Thread#N", "G1 ...")
  jvm       every other thread (the VM thread's safepoints, the counters file, JFR, signal handlers, ...)
"""
import json
import os
import sys
import time

CLASSES = ('main', 'agent', 'jit-c2', 'jit-c1', 'gc', 'jvm', 'session')


def thread_class(name):
    if name.startswith('pacelink-/') or name.startswith('pacelink-0') or name.startswith('pacelink-['):
        return 'agent'
    if name.startswith('pacelink-receiv'):
        return 'session'
    if name == 'java':
        return 'main'
    if name.startswith('C2 CompilerThre'):
        return 'jit-c2'
    if name.startswith('C1 CompilerThre'):
        return 'jit-c1'
    if name.startswith('GC Thread') or name.startswith('G1 ') or name.startswith('GC '):
        return 'gc'
    return 'jvm'


def read_stat(path):
    """(name, user + system ticks) of one /proc stat file, None if it vanished."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    name = text[text.index('(') + 1:text.rindex(')')]
    fields = text[text.rindex(')') + 2:].split()
    return name, int(fields[11]) + int(fields[12])


def descendants(root):
    children = {}
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as f:
                text = f.read()
            ppid = int(text[text.rindex(')') + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def find_java(root, timeout_s):
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        for pid in descendants(root):
            stat = read_stat('/proc/%d/stat' % pid)
            if stat and stat[0] == 'java':
                return pid
        if not os.path.exists('/proc/%d' % root):
            return None
        time.sleep(0.05)
    return None


def read_run_delay_ns(path):
    """A thread's time spent runnable but waiting for a CPU, in ns (/proc/.../schedstat's second field), or 0."""
    try:
        with open(path) as f:
            return int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def sample(pid):
    threads = {}
    try:
        tids = os.listdir('/proc/%d/task' % pid)
    except OSError:
        return None
    for tid in tids:
        stat = read_stat('/proc/%d/task/%s/stat' % (pid, tid))
        if stat:
            # [name, CPU ticks, run delay ns]: the run delay is how long the thread was ready but not on a CPU
            # (another thread, the emulator's real-time threads or the other JVM had it).
            threads[tid] = [stat[0], stat[1], read_run_delay_ns('/proc/%d/task/%s/schedstat' % (pid, tid))]
    return threads


def watch(root, out, interval_s):
    pid = find_java(root, 30)
    result = {'pid': pid, 'clk_tck': os.sysconf('SC_CLK_TCK'), 'samples': []}
    while pid is not None:
        now = time.time()
        threads = sample(pid)
        if not threads:
            break
        result['samples'].append({'t': now, 'threads': threads})
        time.sleep(interval_s)
    with open(out, 'w') as f:
        json.dump(result, f)


def per_class(data, from_s=None, to_s=None):
    """{class: CPU seconds} over the whole life, or over [from_s, to_s] (the samples nearest inside the window)."""
    samples = data.get('samples') or []
    tck = float(data.get('clk_tck') or 100)
    if from_s is not None:
        inside = [s for s in samples if from_s <= s['t'] <= to_s]
        if len(inside) < 2:
            return None, 0
        first, last = inside[0], inside[-1]
        span = last['t'] - first['t']
    else:
        first, last = None, samples[-1] if samples else None
        span = (samples[-1]['t'] - samples[0]['t']) if samples else 0
    totals = dict.fromkeys(CLASSES, 0.0)
    if last is None:
        return totals, 0
    # Every thread seen from the first to the last sample, at its last known ticks (an exited thread keeps its last
    # sample); over a window, only threads alive inside it (one born inside it counts from 0).
    latest = {}
    for s in samples:
        if s['t'] > last['t']:
            break
        if first is not None and s['t'] < first['t']:
            continue
        for tid, fields in s['threads'].items():
            latest[tid] = (fields[0], fields[1])
    base = first['threads'] if first else {}
    for tid, (name, ticks) in latest.items():
        before = base.get(tid, [name, 0])[1] if first else 0
        totals[thread_class(name)] += (ticks - before) / tck
    return totals, span


def report(path, from_s=None, to_s=None, step_s=5.0):
    with open(path) as f:
        data = json.load(f)
    whole, span = per_class(data)
    print('whole life (%.1f s): %s' % (span, '  '.join('%s %.2f s' % (c, whole[c]) for c in CLASSES)))
    samples = data.get('samples') or []
    if samples:
        # The process's life in steps: how the JIT's share falls as the hot code is compiled.
        t0 = samples[0]['t']
        start = t0
        while start < samples[-1]['t']:
            window, span = per_class(data, start, start + step_s)
            if window and span > 0:
                print('  %5.1f-%5.1f s: %s' % (start - t0, start - t0 + span, '  '.join(
                    '%s %.1f %%' % (c, 100 * window[c] / span) for c in CLASSES)))
            start += step_s
    if from_s is not None:
        window, span = per_class(data, from_s, to_s)
        if window:
            print('window (%.1f s): %s' % (span, '  '.join('%s %.1f %%' % (c, 100 * window[c] / span)
                                                           for c in CLASSES)))


def main():
    if len(sys.argv) in (4, 5) and sys.argv[1] == 'watch':
        watch(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]) if len(sys.argv) == 5 else 0.5)
    elif len(sys.argv) in (3, 5) and sys.argv[1] == 'report':
        report(sys.argv[2], *(float(x) for x in sys.argv[3:]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == '__main__':
    main()
