package io.pacelink.transport.schedule;

/**
 * How long a paced flow's sender may sleep between releases, as a function of its pacing rate: the real-clock agent
 * serves a release closer than this a quantum from now, and the pacer then releases back to back what fell due
 * meanwhile, within a catch-up horizon that grows with the same quantum so that no rate is lost (docs/io.md, "Waits in
 * time quanta"; docs/fq.md). A wake costs about the same whatever it sends, so at low rates the quantum is the time
 * to send a burst of datagrams, not a fixed time:
 * <ul>
 * <li><b>A burst of {@link #BURST_DATAGRAMS} datagrams</b> at the pacing rate: the burst every TCP sends unpaced at a
 * connection's start (RFC 6928's initial window of 10 segments; sch_fq's {@code initial_quantum} of 10 × MTU). Linux
 * sizes a TSO burst the same way, by time and by segments ({@code tcp_tso_autosize} in
 * {@code net/ipv4/tcp_output.c}: about 1 ms of the pacing rate, {@code sk_pacing_shift} 10, at least
 * {@code tcp_min_tso_segs} 2), and sch_fq releases each burst as one unit.</li>
 * <li><b>At most a quarter of the congestion window</b> in bytes: Chromium's QUIC pacing sender lets a burst ("lumpy
 * pacing") grow to at most a quarter of cwnd ({@code kLumpyPacingCwndFraction} 0.25 in
 * {@code quic/core/congestion_control/pacing_sender.cc}), so a short path with a small window stays paced.</li>
 * <li><b>Never below {@link #MIN_QUANTUM_NS}</b> (750 µs, three quarters of fq's 1 ms catch-up horizon, the quantum of
 * every rate before this), so at high rates, where ten datagrams take less than that, nothing changes: at 1 Gbit/s a
 * wake still moves 750 µs of the rate, and a burst stays below a millisecond of it whatever the window.</li>
 * <li><b>Never above {@link #MAX_QUANTUM_NS}</b> (4 ms): a slow flow, whose ten datagrams would take longer, still
 * wakes its agent at least every 4 ms while it has packets due, so an arrival held behind a pacing wait and the
 * peer's view of the flow's rate are not stretched further than about four of Chromium's 1 ms alarm ticks.</li>
 * </ul>
 * At 50 Mbit/s, 1,472-byte datagrams: ten take 2.36 ms, so a backlogged sender wakes about 420 times a second instead
 * of about 1,330 with a 750-µs quantum. Pure functions; no state, no allocation.
 */
public final class PacingQuantum
{
    /**
     * The shortest quantum: three quarters of fq's former 1 ms catch-up horizon (3 ms now), leaving the rest for the
     * wake-up's own lateness (the fixed quantum of every rate before the quantum depended on the rate).
     */
    public static final long MIN_QUANTUM_NS = 750_000L;

    /**
     * The longest quantum, whatever the rate.
     */
    public static final long MAX_QUANTUM_NS = 4_000_000L;

    /**
     * Datagrams a quantum holds at the pacing rate (RFC 6928 initial window; sch_fq {@code initial_quantum}).
     */
    public static final int BURST_DATAGRAMS = 10;

    /**
     * A burst is at most cwnd &gt;&gt; this (a quarter: Chromium's {@code kLumpyPacingCwndFraction}).
     */
    public static final int CWND_FRACTION_SHIFT = 2;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /**
     * The largest UDP payload: a larger datagram size is an error, not a reason for a longer burst.
     */
    private static final int MAX_DATAGRAM_BYTES = 65_535;

    private PacingQuantum()
    {
    }

    /**
     * @param pacingRateBytesPerSecond the flow's pacing rate; 0 or {@link Long#MAX_VALUE} for unpaced.
     * @param congestionWindowBytes    the flow's congestion window, {@link Long#MAX_VALUE} if unknown.
     * @param datagramBytes            the size of the flow's full datagrams (the largest it sent).
     * @return how far ahead a release may be served, from {@link #MIN_QUANTUM_NS} to {@link #MAX_QUANTUM_NS}:
     * the time to send {@link #BURST_DATAGRAMS} datagrams or a quarter of the congestion window at the rate,
     * whichever is smaller; {@link #MIN_QUANTUM_NS} for an unpaced flow.
     */
    public static long quantumNs(
        final long pacingRateBytesPerSecond, final long congestionWindowBytes, final int datagramBytes)
    {
        if (pacingRateBytesPerSecond <= 0 || Long.MAX_VALUE == pacingRateBytesPerSecond || datagramBytes <= 0)
        {
            return MIN_QUANTUM_NS;
        }
        final long burstBytes = Math.min(
            (long)BURST_DATAGRAMS * Math.min(datagramBytes, MAX_DATAGRAM_BYTES),
            Math.max(0, congestionWindowBytes) >> CWND_FRACTION_SHIFT);
        // At most ten 64-KiB datagrams: the product cannot overflow.
        final long burstNs = burstBytes * NANOS_PER_SECOND / pacingRateBytesPerSecond;
        return Math.min(MAX_QUANTUM_NS, Math.max(MIN_QUANTUM_NS, burstNs));
    }

    /**
     * The catch-up horizon that serves a release a quantum late without losing rate: the configured horizon is for
     * the shortest quantum, and a flow with a longer one gets the difference on top. fq's default horizon, 3 ms, is
     * {@link #MIN_QUANTUM_NS} plus 2.25 ms for the wake-up's own lateness (a timer's slack, a descheduled thread),
     * which does not grow with the quantum, so every flow keeps those 2.25 ms.
     *
     * @param configuredHorizonNs the pacer's configured horizon; 0 keeps no lateness at all, and stays 0.
     * @param quantumNs           the flow's {@link #quantumNs quantum}.
     * @return the horizon for a flow with that quantum.
     */
    public static long catchUpHorizonNs(final long configuredHorizonNs, final long quantumNs)
    {
        if (configuredHorizonNs <= 0)
        {
            return 0;
        }
        return configuredHorizonNs + Math.max(0, quantumNs - MIN_QUANTUM_NS);
    }
}
