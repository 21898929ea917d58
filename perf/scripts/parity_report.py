#!/usr/bin/env python3
"""Reads the raw results of kernel-parity.sh.

  parity_report.py one DIR SYSTEM FLOOR_MS   one line for one test (SYSTEM kernel or pacelink)
  parity_report.py summary OUT               markdown tables: goodput, ratio, CPU per GB, wrong RTT samples
  parity_report.py stat ADDRESS...           keeps, of pacelink stat --json refreshes on stdin, the one two thirds
                                             through those that saw the test's endpoints, with only the live
                                             endpoints bound to one of the addresses

Both tools write iperf3-shaped JSON: goodput is end.sum_received.bits_per_second (the receiver's figure), CPU is
end.cpu_utilization_percent (host = the client, here the sender; remote = the server, the receiver), in percent of
one core over the test, so CPU seconds = percent / 100 * seconds; per GB divides by end.sum_sent.bytes / 1e9.
"""
import glob
import json
import os
import statistics
import sys

import thread_cpu


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def whole_process_cpu(path):
    """CPU seconds (user + system) of a process over its whole life, from /usr/bin/time -f '%e %U %S'."""
    try:
        with open(path) as f:
            fields = f.read().split()
        return float(fields[-2]) + float(fields[-1])
    except (OSError, ValueError, IndexError):
        return None


def result(d, system, floor_ms):
    j = load(os.path.join(d, 'client.json'))
    r = {'dir': d, 'system': system, 'ok': False}
    if not j or 'end' not in j or 'sum_received' not in j.get('end', {}):
        r['error'] = (j or {}).get('error') or 'no result (see %s)' % d
        return r
    end = j['end']
    r['error'] = j.get('error')
    r['ok'] = not r['error']
    r['mbps'] = end['sum_received']['bits_per_second'] / 1e6
    seconds = end['sum_sent'].get('seconds') or end['sum_received'].get('seconds') or 0
    sent = end['sum_sent'].get('bytes', 0)
    r['sent_gb'] = sent / 1e9
    r['retransmits'] = end['sum_sent'].get('retransmits')
    cpu = end.get('cpu_utilization_percent', {})
    r['cpu_send_pct'] = cpu.get('host_total', 0)
    r['cpu_recv_pct'] = cpu.get('remote_total', 0)
    # With --omit (OMIT=N) the figures above leave the first N seconds out; Pacelink also reports the whole test's.
    r['omit_s'] = ((j.get('start') or {}).get('test_start') or {}).get('omit') or 0
    r['cpu_send_whole_pct'] = cpu.get('host_total_whole_test')
    r['cpu_recv_whole_pct'] = cpu.get('remote_total_whole_test')
    r['cpu_send_s'] = cpu.get('host_total', 0) / 100 * seconds
    r['cpu_recv_s'] = cpu.get('remote_total', 0) / 100 * seconds
    r['cpu_send_per_gb'] = r['cpu_send_s'] / r['sent_gb'] if sent else None
    r['cpu_recv_per_gb'] = r['cpu_recv_s'] / r['sent_gb'] if sent else None
    r['proc_cpu_send_s'] = whole_process_cpu(os.path.join(d, 'client.time'))
    r['proc_cpu_recv_s'] = whole_process_cpu(os.path.join(d, 'server.time'))
    streams = end.get('streams') or [{}]
    snd = streams[0].get('sender', {})
    r['min_rtt_ms'] = snd.get('min_rtt', 0) / 1000 if snd.get('min_rtt') is not None else None
    r['mean_rtt_ms'] = snd.get('mean_rtt', 0) / 1000 if snd.get('mean_rtt') is not None else None
    r['wrong_rtt'] = r['min_rtt_ms'] is not None and system != 'kernel' and r['min_rtt_ms'] < floor_ms * 0.97
    emu = load(os.path.join(d, 'emu.json')) or {}
    dirs = {x.get('dir'): x for x in emu.get('dirs', [])}
    fwd = dirs.get('fwd', {})
    r['emu_loss_pct'] = fwd.get('loss_meas_pct')
    r['emu_queue_drops'] = fwd.get('queue_drops')
    r['emu_late_mean_us'] = fwd.get('late_mean_us')
    try:
        with open(os.path.join(d, 'tundrops')) as f:
            r['tun_drops'] = int(f.read().strip() or 0)
    except (OSError, ValueError):
        r['tun_drops'] = None
    # Socket-buffer drops in each namespace over the test (kernel-parity.sh, udp_buffer_errors): A sends data, B
    # receives it, so B's receive-buffer errors are data the receiving application did not read in time.
    try:
        with open(os.path.join(d, 'udperrors.start')) as f:
            before = [int(x) for x in f.read().split()]
        with open(os.path.join(d, 'udperrors.end')) as f:
            after = [int(x) for x in f.read().split()]
        delta = [b - a for a, b in zip(before, after)]
        r['udp_rcvbuf_drops_recv'], r['udp_sndbuf_drops_send'] = delta[2], delta[1]
        r['udp_rcvbuf_drops_send'] = delta[0]
    except (OSError, ValueError, IndexError):
        r['udp_rcvbuf_drops_recv'] = r['udp_sndbuf_drops_send'] = r['udp_rcvbuf_drops_send'] = None
    r['acks_per_packet'] = None
    snapshot = load(os.path.join(d, 'stat.json'))
    if snapshot:
        # The client (the sender) binds in namespace A, the server (the receiver) in B: every datagram the
        # receiver sends on a one-way test is an ACK (or a control message: a handful).
        ends = {}
        for p in snapshot.get('processes', []):
            ends['sender' if '/10.200.0.1:' in p.get('description', '') else 'receiver'] = p
        sent = ends.get('sender', {}).get('endpoint', {}).get('datagrams-sent')
        if sent and 'receiver' in ends:
            r['acks_per_packet'] = ends['receiver'].get('endpoint', {}).get('datagrams-sent', 0) / sent
        # Wakes and port calls per data datagram, each side (the port's counters): the per-packet cost of the waits.
        data = ends.get('sender', {}).get('endpoint', {}).get('datagrams-sent')
        for role, side in (('sender', 'send'), ('receiver', 'recv')):
            port = ends.get(role, {}).get('port', {}).get('counters', {})
            if data and 'waits' in port:
                r['waits_per_packet_' + side] = port['waits'] / data
                r['calls_per_packet_' + side] = (port['waits'] + port.get('send-calls', 0) +
                                                 port.get('receive-calls', 0)) / data
        # How late the sender's fq scheduler wakes throttled flows (sch_fq's EWMA): the pacing timer's slack.
        scheduler = ends.get('sender', {}).get('scheduler', {}).get('counters', {})
        r['unthrottle_latency_us'] = scheduler['unthrottle-latency-ns'] / 1e3 \
            if 'unthrottle-latency-ns' in scheduler else None
        # Lateness the pacer forgot beyond its catch-up horizon and debt (ms over the test), and how late each side's
        # agent read its datagrams after the kernel received them (the port's SO_TIMESTAMPNS ages, mean µs).
        r['lateness_forgotten_ms'] = scheduler['lateness-forgotten-ns'] / 1e6 \
            if 'lateness-forgotten-ns' in scheduler else None
        for role, side in (('sender', 'send'), ('receiver', 'recv')):
            port = ends.get(role, {}).get('port', {}).get('counters', {})
            if port.get('timestamped-datagrams'):
                r['read_age_us_' + side] = port['arrival-age-total-ns'] / port['timestamped-datagrams'] / 1e3
        connections = ends.get('sender', {}).get('connections', [])
        if connections:
            c = connections[-1].get('counters', {})
            r['pacing_limited'] = c.get('pacing-limited')
            r['cwnd_limited'] = c.get('cwnd-limited')
    # Per-thread CPU (thread_cpu.py): whole life, and the test's second half (steady state, after most of the JIT's
    # warm-up), in percent of one core. The test starts about when the client's report is stamped (whole seconds).
    start_s = ((j.get('start') or {}).get('timestamp') or {}).get('timesecs')
    for role, side in (('client', 'send'), ('server', 'recv')):
        threads = load(os.path.join(d, role + '.threads.json'))
        if not threads or not threads.get('samples'):
            continue
        whole, _ = thread_cpu.per_class(threads)
        r['threads_whole_' + side] = whole
        if start_s and seconds:
            first_s = start_s + r['omit_s']
            window, span = thread_cpu.per_class(threads, first_s + 1 + seconds / 2, first_s + seconds)
            if window and span > 0:
                r['threads_steady_' + side] = {c: 100 * v / span for c, v in window.items()}
                r['steady_' + side + '_pct'] = 100 * sum(window.values()) / span
    try:
        with open(os.path.join(d, 'loadavg.start')) as f:
            r['load'] = float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        r['load'] = None
    return r


def fmt(x, digits=1):
    return '-' if x is None else ('%.' + str(digits) + 'f') % x


def line(r):
    if not r['ok'] and 'mbps' not in r:
        return '  %-8s FAILED: %s' % (r['system'], r['error'])
    text = '  %-8s %8.1f Mbit/s  retr %s  min/mean RTT %s/%s ms  CPU s/GB send %s recv %s  emu loss %s%% ' \
           'qdrops %s late %s us  tun drops %s' % (
               r['system'], r['mbps'], r['retransmits'], fmt(r['min_rtt_ms'], 2), fmt(r['mean_rtt_ms'], 1),
               fmt(r['cpu_send_per_gb'], 2), fmt(r['cpu_recv_per_gb'], 2), fmt(r['emu_loss_pct'], 2),
               r['emu_queue_drops'], fmt(r['emu_late_mean_us'], 0), r['tun_drops'])
    if r.get('udp_rcvbuf_drops_recv') is not None:
        text += '  socket drops: receiver rcvbuf %s, sender sndbuf %s / rcvbuf %s' % (
            r['udp_rcvbuf_drops_recv'], r['udp_sndbuf_drops_send'], r['udp_rcvbuf_drops_send'])
    if r.get('acks_per_packet') is not None:
        text += '  receiver datagrams per data datagram %.3f' % r['acks_per_packet']
    if r.get('waits_per_packet_send') is not None and r.get('waits_per_packet_recv') is not None:
        text += '  waits / port calls per data datagram: sender %.3f / %.3f, receiver %.3f / %.3f' % (
            r['waits_per_packet_send'], r['calls_per_packet_send'], r['waits_per_packet_recv'],
            r['calls_per_packet_recv'])
    if r.get('unthrottle_latency_us') is not None:
        text += '  fq unthrottle latency %.0f us  cwnd-/pacing-limited %s/%s' % (
            r['unthrottle_latency_us'], r.get('cwnd_limited'), r.get('pacing_limited'))
    if r.get('lateness_forgotten_ms') is not None:
        text += '  fq lateness forgotten %.0f ms' % r['lateness_forgotten_ms']
    if r.get('read_age_us_send') is not None and r.get('read_age_us_recv') is not None:
        text += '  read age after arrival, sender / receiver %.0f / %.0f us' % (
            r['read_age_us_send'], r['read_age_us_recv'])
    for side, role in (('send', 'sender'), ('recv', 'receiver')):
        steady = r.get('threads_steady_' + side)
        if steady:
            text += '\n           %s CPU %% of a core, test\'s second half: %.1f (%s)' % (
                role, r['steady_' + side + '_pct'], ' '.join('%s %.1f' % (c, steady[c]) for c in thread_cpu.CLASSES))
    if r['wrong_rtt']:
        text += '  WRONG RTT SAMPLE (min RTT below the path floor: issue 9 item 11)'
    if r['error']:
        text += '  ERROR: %s' % r['error']
    return text


def spread(values, digits=1):
    values = [v for v in values if v is not None]
    if not values:
        return '-'
    return ('%.{0}f (%.{0}f–%.{0}f)'.format(digits)) % (statistics.median(values), min(values), max(values))


def summary(out):
    results = {}
    for d in sorted(glob.glob(os.path.join(out, '*', '*', 'run*', '*'))):
        if not os.path.isdir(d):
            continue
        parts = d.split(os.sep)
        path, cc, run, system = parts[-4], parts[-3], parts[-2], parts[-1]
        floor = {'lossy500': 38, 'clean1g': 10, 'clean50': 40, 'long100': 135}.get(path, 0)
        results.setdefault((path, cc), {}).setdefault(run, {})[system] = result(d, system, floor)
    loads = [r['load'] for runs in results.values() for pair in runs.values() for r in pair.values()
             if r.get('load') is not None]
    print('# Kernel parity: Pacelink (pacelink perf) against kernel TCP (iperf3), same emulated paths')
    print()
    if loads:
        print('Load average (1 min) at the start of the tests: %.1f–%.1f, median %.1f.' % (
            min(loads), max(loads), statistics.median(loads)))
        print()
    print('Goodput is the receiver\'s, Mbit/s, median (min–max) over the runs; the ratio is Pacelink / kernel per '
          'run (same path, seed and repetition), median (min–max).')
    print()
    print('| path | cc | runs | kernel Mbit/s | Pacelink Mbit/s | ratio | Pacelink runs with wrong RTT samples '
          '| Pacelink min RTT ms |')
    print('|---|---|---:|---|---|---|---|---|')
    for (path, cc), runs in sorted(results.items()):
        k = [p['kernel']['mbps'] for p in runs.values() if 'kernel' in p and 'mbps' in p['kernel']]
        pl = [p['pacelink']['mbps'] for p in runs.values() if 'pacelink' in p and 'mbps' in p['pacelink']]
        ratios = [p['pacelink']['mbps'] / p['kernel']['mbps'] for p in runs.values()
                  if 'mbps' in p.get('kernel', {}) and 'mbps' in p.get('pacelink', {}) and p['kernel']['mbps'] > 0]
        wrong = sum(1 for p in runs.values() if p.get('pacelink', {}).get('wrong_rtt'))
        failed = sum(1 for p in runs.values() for r in p.values() if not r['ok'])
        min_rtts = ', '.join(fmt(p['pacelink'].get('min_rtt_ms'), 2) for p in runs.values() if 'pacelink' in p)
        print('| %s | %s | %d%s | %s | %s | %s | %d | %s |' % (
            path, cc, len(runs), ' (%d failed)' % failed if failed else '', spread(k), spread(pl),
            spread(ratios, 2), wrong, min_rtts))
    if any('baseline' in p for runs in results.values() for p in runs.values()):
        baseline_table(results)
    print()
    print('CPU, in-test, percent of one core (each tool\'s own measurement: the process\'s CPU seconds from test start '
          'to end over the test\'s seconds, all threads), median (min–max).')
    print()
    print('| path | cc | kernel sender % | Pacelink sender % | kernel receiver % | Pacelink receiver % |')
    print('|---|---|---|---|---|---|')
    for (path, cc), runs in sorted(results.items()):
        def pct(system, key):
            return spread([p[system].get(key) for p in runs.values() if system in p], 1)
        print('| %s | %s | %s | %s | %s | %s |' % (
            path, cc, pct('kernel', 'cpu_send_pct'), pct('pacelink', 'cpu_send_pct'),
            pct('kernel', 'cpu_recv_pct'), pct('pacelink', 'cpu_recv_pct')))
    print()
    omitted = [(key, runs) for key, runs in sorted(results.items())
               if any(p.get('pacelink', {}).get('cpu_send_whole_pct') is not None for p in runs.values())]
    if omitted:
        print('With OMIT, the figures above leave out the first seconds (both tools: iperf3 -O, pacelink perf --omit); '
              'Pacelink\'s CPU over the whole test, omitted seconds (the JVM\'s warm-up) included, median (min–max):')
        print()
        print('| path | cc | omitted s | Pacelink sender % whole test | Pacelink receiver % whole test |')
        print('|---|---|---|---|---|')
        for (path, cc), runs in omitted:
            def whole_pct(key):
                return spread([p['pacelink'].get(key) for p in runs.values() if 'pacelink' in p], 1)
            omit_s = max(p['pacelink'].get('omit_s', 0) for p in runs.values() if 'pacelink' in p)
            print('| %s | %s | %s | %s | %s |' % (path, cc, fmt(omit_s), whole_pct('cpu_send_whole_pct'),
                                                 whole_pct('cpu_recv_whole_pct')))
        print()
    print('CPU seconds per GB sent, in-test (each tool\'s own measurement from test start to end, percent of one '
          'core × seconds / GB sent), median (min–max). The receiving kernel\'s network stack runs in the '
          'emulator\'s thread (a write to a TUN device delivers synchronously), so neither system is charged for '
          'it.')
    print()
    print('| path | cc | kernel sender | Pacelink sender | kernel receiver | Pacelink receiver | '
          'Pacelink whole-process CPU s (sender / receiver) |')
    print('|---|---|---|---|---|---|---|')
    for (path, cc), runs in sorted(results.items()):
        def col(system, key):
            return spread([p[system].get(key) for p in runs.values() if system in p], 2)
        whole = ', '.join('%s / %s' % (fmt(p['pacelink'].get('proc_cpu_send_s')),
                                       fmt(p['pacelink'].get('proc_cpu_recv_s')))
                          for p in runs.values() if 'pacelink' in p)
        print('| %s | %s | %s | %s | %s | %s | %s |' % (
            path, cc, col('kernel', 'cpu_send_per_gb'), col('pacelink', 'cpu_send_per_gb'),
            col('kernel', 'cpu_recv_per_gb'), col('pacelink', 'cpu_recv_per_gb'), whole))
    print()
    print('Pacelink CPU per thread class (thread_cpu.py, /proc/PID/task/*/stat sampled every 0.5 s), percent of one '
          'core over the test\'s second half (steady state), median over the runs: the main thread (pacelink perf runs '
          'its endpoint in INVOKER mode: the duty cycle, port, protocol and the stream together), an agent thread '
          '(DEDICATED mode only), the C2 and C1 JIT compilers, GC, the rest of the JVM; and the '
          'whole process\'s CPU seconds per class over its life (JVM start-up and the JIT\'s warm-up included).')
    print()
    print('| path | cc | side | second half total % | main | agent | jit-c2 | jit-c1 | gc | jvm | '
          'whole life CPU-s: main / agent / jit-c2 / jit-c1 / gc / jvm |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for (path, cc), runs in sorted(results.items()):
        for side in ('send', 'recv'):
            rs = [p['pacelink'] for p in runs.values() if 'pacelink' in p and p['pacelink'].get('threads_steady_' + side)]
            if not rs:
                continue
            cells = [fmt(statistics.median([r['steady_' + side + '_pct'] for r in rs]))]
            cells += [fmt(statistics.median([r['threads_steady_' + side][c] for r in rs])) for c in thread_cpu.CLASSES]
            whole = [r['threads_whole_' + side] for r in rs if r.get('threads_whole_' + side)]
            cells.append(' / '.join(fmt(statistics.median([w[c] for w in whole]), 2) for c in thread_cpu.CLASSES))
            print('| %s | %s | %s | %s |' % (path, cc, 'sender' if side == 'send' else 'receiver', ' | '.join(cells)))
    print()
    print('Pacelink, from the pacelink stat snapshot two thirds into each test: datagrams the receiver sent per data '
          'datagram (ACKs), the port\'s waits and calls per data datagram at each end, and how late the sender\'s fq scheduler woke throttled flows (sch_fq\'s unthrottle '
          'latency EWMA: the pacing timer\'s slack), median (min–max).')
    print()
    print('| path | cc | ACKs per data packet | fq unthrottle latency µs | waits per data packet, sender / '
          'receiver | port calls (waits + sends + receives) per data packet, sender / receiver |')
    print('|---|---|---|---|---|---|')
    for (path, cc), runs in sorted(results.items()):
        def pl(key, digits):
            return spread([p['pacelink'].get(key) for p in runs.values() if 'pacelink' in p], digits)
        print('| %s | %s | %s | %s | %s / %s | %s / %s |' % (
            path, cc, pl('acks_per_packet', 3), pl('unthrottle_latency_us', 0), pl('waits_per_packet_send', 3),
            pl('waits_per_packet_recv', 3), pl('calls_per_packet_send', 3), pl('calls_per_packet_recv', 3)))
    print()
    print('Emulator: release lateness (mean µs) and TUN overrun drops per test (should be 0):')
    print()
    for (path, cc), runs in sorted(results.items()):
        cells = []
        for run, pair in sorted(runs.items()):
            for system, r in sorted(pair.items()):
                cells.append('%s %s: %s µs, %s drops' % (run, system, fmt(r.get('emu_late_mean_us'), 0),
                                                       r.get('tun_drops')))
        print('- %s %s: %s' % (path, cc, '; '.join(cells)))


def baseline_table(results):
    """Pacelink from BASELINE_JAR ("baseline") against this jar ("pacelink"), each as a ratio to kernel TCP in the
    same run, with each one's in-test CPU and whole-process CPU seconds per side."""
    print()
    print('Baseline (BASELINE_JAR) against this jar, each run interleaved with kernel TCP; ratios per run, median '
          '(min–max); CPU in-test % of a core, sender / receiver; whole-process CPU-s per run, sender / receiver.')
    print()
    print('| path | cc | baseline Mbit/s | baseline ratio | this jar Mbit/s | this jar ratio | this jar / baseline '
          '| baseline CPU % | this jar CPU % | baseline CPU-s | this jar CPU-s |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for (path, cc), runs in sorted(results.items()):
        def rates(system):
            return [p[system]['mbps'] for p in runs.values() if 'mbps' in p.get(system, {})]

        def ratios(system, over):
            return [p[system]['mbps'] / p[over]['mbps'] for p in runs.values()
                    if 'mbps' in p.get(system, {}) and 'mbps' in p.get(over, {}) and p[over]['mbps'] > 0]

        def cpu(system):
            return '%s / %s' % (spread([p[system].get('cpu_send_pct') for p in runs.values() if system in p], 1),
                                spread([p[system].get('cpu_recv_pct') for p in runs.values() if system in p], 1))

        def whole(system):
            return ', '.join('%s / %s' % (fmt(p[system].get('proc_cpu_send_s')), fmt(p[system].get('proc_cpu_recv_s')))
                             for p in runs.values() if system in p)
        print('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            path, cc, spread(rates('baseline')), spread(ratios('baseline', 'kernel'), 2), spread(rates('pacelink')),
            spread(ratios('pacelink', 'kernel'), 2), spread(ratios('pacelink', 'baseline'), 2), cpu('baseline'),
            cpu('pacelink'), whole('baseline'), whole('pacelink')))


def stat(addresses):
    """Of pacelink stat's JSON refreshes on stdin (one a second through a test), the one two thirds through those
    that saw the most of the test's endpoints alive, keeping only those endpoints."""
    snapshots = []
    for text in sys.stdin:
        try:
            snapshot = json.loads(text)
        except ValueError:
            print(text, end='', file=sys.stderr)
            continue
        snapshot['processes'] = [p for p in snapshot.get('processes', []) if p.get('status') == 'alive' and
                                 any('/' + a + ':' in p.get('description', '') for a in addresses)]
        snapshots.append(snapshot)
    if not snapshots:
        return
    most = max(len(s['processes']) for s in snapshots)
    fullest = [s for s in snapshots if len(s['processes']) == most]
    print(json.dumps(fullest[len(fullest) * 2 // 3], indent=1))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == 'stat':
        stat(sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == 'one':
        print(line(result(sys.argv[2], sys.argv[3], float(sys.argv[4]))))
    elif len(sys.argv) == 3 and sys.argv[1] == 'summary':
        summary(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == '__main__':
    main()
