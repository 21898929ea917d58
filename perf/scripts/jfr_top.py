#!/usr/bin/env python3
"""Where the CPU samples of a profile fall: top frames, by thread, and named methods.

  jfr_top.py RECORDING.jfr|PROFILE.collapsed [--top N] [--thread SUBSTRING] [--method NAME ...] [--chain NAME ...]

A Java Flight Recording: its jdk.ExecutionSample events (Java threads running Java code, every 10-20 ms with
settings=profile) and jdk.NativeMethodSample events (threads in a native method such as a send or receive system
call, every 20 ms, marked "(native)"), read through the JDK's own `jfr print --json`. JFR does not see what the
kernel does inside a system call.

An async-profiler profile in collapsed form (`-agentpath:libasyncProfiler.so=start,event=cpu,interval=1ms,threads,
collapsed,file=F.collapsed`): CPU samples from perf events, Java and kernel frames alike (kernel frames end in
"[k]"), the first frame being the thread.

Prints:
  - samples per thread;
  - the top N frames by self samples (the frame on top of the stack, with its most frequent caller) and by total
    samples (anywhere on the stack);
  - for each --method (a substring of Class.method, e.g. ReceivedPacketTracker.gap), its total share.
"""
import argparse
import collections
import json
import subprocess
import sys


def frames_of(event):
    trace = event.get('values', {}).get('stackTrace') or {}
    out = []
    for frame in trace.get('frames', []):
        method = frame.get('method', {})
        cls = method.get('type', {}).get('name', '?')
        out.append('%s.%s' % (cls.replace('/', '.').rsplit('.', 1)[-1].replace('$', '.'), method.get('name', '?')))
    return out


def jfr_samples(path):
    """(thread, frames top first) per sample of a flight recording."""
    text = subprocess.run(['jfr', 'print', '--json', '--events', 'jdk.ExecutionSample,jdk.NativeMethodSample', path],
                          check=True, capture_output=True, text=True).stdout
    for event in json.loads(text)['recording']['events']:
        thread = (event.get('values', {}).get('sampledThread') or {}).get('javaName') or '?'
        frames = frames_of(event)
        if frames and event.get('type') == 'jdk.NativeMethodSample':
            frames[0] += ' (native)'
        yield thread, frames, 1


def collapsed_samples(path):
    """(thread, frames top first, count) per line of an async-profiler collapsed profile."""
    for line in open(path):
        stack, _, count = line.rstrip().rpartition(' ')
        if not stack:
            continue
        parts = stack.split(';')
        thread = parts[0].strip('[]') if parts[0].startswith('[') else '?'
        frames = []
        for f in reversed(parts[1:] if parts[0].startswith('[') else parts):
            kernel = f.endswith('_[k]')
            f = f.rsplit('_[', 1)[0] if f.endswith(']') else f
            if not kernel and '/' in f:
                cls, _, method = f.rpartition('.')
                f = '%s.%s' % (cls.replace('/', '.').rsplit('.', 1)[-1].replace('$', '.'), method)
            frames.append(f + (' [k]' if kernel else ''))
        yield thread, frames, int(count)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('recording')
    parser.add_argument('--top', type=int, default=25)
    parser.add_argument('--thread', default=None, help='only threads whose name contains this')
    parser.add_argument('--method', action='append', default=[], help='report the total share of this method')
    parser.add_argument('--chain', action='append', default=[],
                        help='print the most frequent call chains (6 frames) of samples whose top frame has this')
    args = parser.parse_args()
    source = jfr_samples(args.recording) if args.recording.endswith('.jfr') else collapsed_samples(args.recording)
    threads = collections.Counter()
    self_counts = collections.Counter()
    callers = collections.defaultdict(collections.Counter)
    total_counts = collections.Counter()
    method_counts = collections.Counter()
    chains = collections.defaultdict(collections.Counter)
    samples = 0
    for thread, frames, n in source:
        threads[thread] += n
        if args.thread and args.thread not in thread:
            continue
        if not frames:
            continue
        samples += n
        self_counts[frames[0]] += n
        if len(frames) > 1:
            callers[frames[0]][frames[1]] += n
        for f in set(frames):
            total_counts[f] += n
        for m in args.method:
            if any(m in f for f in frames):
                method_counts[m] += n
        for c in args.chain:
            if c in frames[0]:
                chains[c][' <- '.join(frames[:6])] += n
    print('%s: %d samples%s' % (args.recording, samples, ' in threads matching "%s"' % args.thread
                                if args.thread else ''))
    print('samples per thread: ' + ', '.join('%s %d' % t for t in threads.most_common(8)))
    if not samples:
        return
    print('\ntop %d frames by self samples:' % args.top)
    for f, n in self_counts.most_common(args.top):
        caller = callers[f].most_common(1)
        print('  %5.1f %%  %s%s' % (100.0 * n / samples, f, '   <- %s' % caller[0][0] if caller else ''))
    print('\ntop %d frames by total samples (on the stack):' % args.top)
    for f, n in total_counts.most_common(args.top):
        print('  %5.1f %%  %s' % (100.0 * n / samples, f))
    if args.method:
        print('\nnamed methods (share of samples with the method anywhere on the stack):')
        for m in args.method:
            print('  %5.1f %%  %s' % (100.0 * method_counts[m] / samples, m))
    for c in args.chain:
        print('\ncall chains of %s:' % c)
        for chain, n in chains[c].most_common(5):
            print('  %5.1f %%  %s' % (100.0 * n / samples, chain))


if __name__ == '__main__':
    sys.exit(main())
