#!/usr/bin/env python3
"""Where the CPU samples of a Java Flight Recording fall: top frames, by thread, and named methods.

  jfr_top.py RECORDING.jfr [--top N] [--thread SUBSTRING] [--method NAME ...]

Reads the recording's jdk.ExecutionSample events (JFR samples Java threads running Java code every 10-20 ms with
settings=profile; time in native code such as a send or receive system call is sampled as its Java caller at the top
of the stack, e.g. sun.nio.ch.DatagramChannelImpl.send0) through the JDK's own `jfr print --json`. Prints:
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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('recording')
    parser.add_argument('--top', type=int, default=25)
    parser.add_argument('--thread', default=None, help='only threads whose name contains this')
    parser.add_argument('--method', action='append', default=[], help='report the total share of this method')
    parser.add_argument('--chain', action='append', default=[],
                        help='print the most frequent call chains (6 frames) of samples whose top frame has this')
    args = parser.parse_args()
    text = subprocess.run(['jfr', 'print', '--json', '--events', 'jdk.ExecutionSample', args.recording],
                          check=True, capture_output=True, text=True).stdout
    events = json.loads(text)['recording']['events']
    threads = collections.Counter()
    self_counts = collections.Counter()
    callers = collections.defaultdict(collections.Counter)
    total_counts = collections.Counter()
    method_counts = collections.Counter()
    chains = collections.defaultdict(collections.Counter)
    samples = 0
    for event in events:
        thread = (event.get('values', {}).get('sampledThread') or {}).get('javaName') or '?'
        threads[thread] += 1
        if args.thread and args.thread not in thread:
            continue
        frames = frames_of(event)
        if not frames:
            continue
        samples += 1
        self_counts[frames[0]] += 1
        if len(frames) > 1:
            callers[frames[0]][frames[1]] += 1
        for f in set(frames):
            total_counts[f] += 1
        for m in args.method:
            if any(m in f for f in frames):
                method_counts[m] += 1
        for c in args.chain:
            if c in frames[0]:
                chains[c][' <- '.join(frames[:6])] += 1
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
