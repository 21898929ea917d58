package io.pacelink.transport.agent;

import io.pacelink.transport.schedule.PacingQuantum;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * When the default profile's agent wakes next, and whether a datagram's arrival may end its sleep: the real-clock
 * driver's wake granularity (docs/io.md, "Waits in time quanta"). A wake costs the same whether it moves one packet
 * or forty (a {@code ppoll} return, a duty cycle, a {@code recvmmsg}, a {@code sendmmsg}), so at paced rates the cost
 * is per wake; this plans wakes in time quanta so that each moves what became due in the meantime, and the cost
 * follows the bytes. It changes only when a real clock's agent runs, never what a duty cycle does at a given time,
 * so the simulator, which runs each endpoint exactly at its deadlines, is untouched.
 * <ul>
 * <li><b>Pacing in quanta.</b> A pacing release less than a quantum away is served one quantum after now instead:
 * the pacer then releases everything that fell due meanwhile back to back, within its catch-up horizon, which it sizes
 * from the same quantum with a quarter to spare for the wake-up's own lateness. The quantum is the pacer's for the
 * next release ({@code PacketScheduler.nextReleaseQuantumNs()}, {@link PacingQuantum}): 750 µs at high rates, the
 * time of a burst of ten datagrams at low rates (at most 4 ms, at most a quarter of the window). So a flow paced at
 * any rate wakes its agent at most about once per quantum, with a quantum of its rate per wake — the burst Linux TCP
 * sizes its TSO packets by ({@code tcp_tso_autosize} in {@code net/ipv4/tcp_output.c}) and that Chromium's QUIC
 * pacing sender lets its alarm granularity release ({@code quic/core/congestion_control/pacing_sender.cc}). A release
 * further away than a quantum (a slow flow) is served on time. Timers (ACK, loss, probe, idle, keep-alive) are never
 * moved.</li>
 * <li><b>Holding arrivals.</b> After cycles that received two datagrams or more and sent at most half as many (a bulk
 * receiver, or a sender between its pacing quanta being told of progress), the next sleep does not end for arriving
 * datagrams, only for a deadline, the application's signal, or the end of a hold of about
 * {@link #HOLD_DATAGRAMS} mean arrival gaps, at most {@link #DEFAULT_MAX_HOLD_NS}; then one {@code recvmmsg} drains
 * what arrived and the cycle acknowledges it with one ACK. This is the NIC's interrupt moderation
 * ({@code rx-usecs}) and GRO, done in the agent: an arrival waits at most one hold, which at high rates is a few
 * packets' gaps (8 × 12 µs at 1 Gbit/s). A connection whose peer asked for fewer ACKs (draft-ietf-quic-ack-frequency,
 * docs/architecture.md "ACK policy") may wait longer for its ACK, and so may its arrivals: the hold's cap is then the
 * shortest ACK delay in force among the connections that just received (at most
 * {@link #MAX_HOLD_WITH_ACK_FREQUENCY_NS}), never less than {@link #DEFAULT_MAX_HOLD_NS}. An exchange that
 * answers every datagram (a ping, a request and its response) sends as many as it receives and is never held, so it
 * still wakes on arrival.</li>
 * </ul>
 * Agent thread only; no allocation.
 */
public final class WakeCoalescing
{
    /**
     * The pacing quantum of a release whose pacer gives none, and the fixed quantum of the pacing rates before the
     * quantum depended on the rate: three quarters of the fq pacer's former 1 ms catch-up horizon (3 ms now), leaving
     * the rest for the wake-up's lateness, so a release served a quantum late loses none of its rate.
     */
    public static final long DEFAULT_PACING_QUANTUM_NS = PacingQuantum.MIN_QUANTUM_NS;

    /**
     * The longest hold of arrivals: one ACK delay's worth (the default max ACK delay, 1 ms).
     */
    public static final long DEFAULT_MAX_HOLD_NS = 1_000_000L;

    /**
     * The longest hold of arrivals for connections whose peers asked for a longer ACK delay: the longest delay a
     * Pacelink sender asks for (QUIC's default max_ack_delay).
     */
    public static final long MAX_HOLD_WITH_ACK_FREQUENCY_NS = 25_000_000L;

    /**
     * A hold lasts about this many mean arrival gaps, so each held wake drains about this many datagrams.
     */
    public static final int HOLD_DATAGRAMS = 8;

    /**
     * Arrivals are held only after at least this many datagrams since the last sleep: a stream, not a lone message
     * (a request that its application will answer, a keep-alive), which is handled as soon as it arrives.
     */
    public static final int MIN_DATAGRAMS_TO_HOLD = 2;

    /**
     * No coalescing: every wait ends at the next deadline or the first arrival (the behaviour before this policy).
     */
    public static final long OFF = 0;

    /**
     * The pacing quantum of each release is the one its pacer gives ({@code PacketScheduler.nextReleaseQuantumNs()}).
     */
    public static final long RATE_QUANTUM = -1;

    /**
     * A fixed quantum (an operator's, or a test's), or {@link #RATE_QUANTUM} to serve each release with the quantum
     * its pacer gives.
     */
    private final long pacingQuantumNs;
    private final LongSupplier releaseQuantumNs;
    private final long maxHoldNs;
    private final LongSupplier arrivalAckDelayNs;
    private long lastDatagramsReceived;
    private long lastDatagramsSent;
    private long lastPlanNs;
    private boolean hasPlanned;
    private long meanArrivalGapNs;
    private boolean isHoldingArrivals;

    /**
     * System property (an operator's switch, like {@code pacelink.port.batched.disable}): the pacing quantum in
     * microseconds for every endpoint of the JVM, 0 to serve every release on time.
     */
    public static final String PACING_QUANTUM_PROPERTY = "pacelink.wake.pacingQuantumUs";

    /**
     * System property: the longest hold of arrivals in microseconds for every endpoint of the JVM, 0 never to hold.
     */
    public static final String MAX_HOLD_PROPERTY = "pacelink.wake.maxHoldUs";

    private static final long NANOS_PER_MICRO = 1_000L;
    private static final long MAX_QUANTUM_US = 1_000L;

    /**
     * The quanta the system properties {@link #PACING_QUANTUM_PROPERTY} and {@link #MAX_HOLD_PROPERTY} set, or the
     * defaults: a fixed pacing quantum of {@link #DEFAULT_PACING_QUANTUM_NS} whatever the rate.
     *
     * @throws IllegalArgumentException if a property is not a whole number of microseconds from 0 to 1000.
     * @deprecated gives every release the shortest quantum; {@link #WakeCoalescing(LongSupplier)} takes each
     * release's from its pacer. To be removed in the next minor version.
     */
    @Deprecated
    public WakeCoalescing()
    {
        this(() -> DEFAULT_PACING_QUANTUM_NS, null);
    }

    /**
     * Each release's pacing quantum from its pacer and the default hold, unless the system properties
     * {@link #PACING_QUANTUM_PROPERTY} and {@link #MAX_HOLD_PROPERTY} set them.
     *
     * @param releaseQuantumNs the pacer's quantum for its next release ({@code EndpointCore.nextReleaseQuantumNs()}).
     * @throws IllegalArgumentException if a property is not a whole number of microseconds from 0 to 1000.
     */
    public WakeCoalescing(final LongSupplier releaseQuantumNs)
    {
        this(releaseQuantumNs, null);
    }

    /**
     * Each release's pacing quantum from its pacer, and the hold's cap following the ACK delay in force, unless the
     * system properties {@link #PACING_QUANTUM_PROPERTY} and {@link #MAX_HOLD_PROPERTY} set them.
     *
     * @param releaseQuantumNs  the pacer's quantum for its next release ({@code EndpointCore.nextReleaseQuantumNs()}).
     * @param arrivalAckDelayNs the shortest ACK delay in force among the connections that received since it was last
     *                          asked ({@link Long#MAX_VALUE} for none), e.g. the endpoint's
     *                          {@code takeArrivalAckDelayNs}; null for a cap of the default max hold.
     * @throws IllegalArgumentException if a property is not a whole number of microseconds from 0 to 1000.
     */
    public WakeCoalescing(final LongSupplier releaseQuantumNs, final LongSupplier arrivalAckDelayNs)
    {
        this(releaseQuantumNs, arrivalAckDelayNs, false);
    }

    /**
     * As {@link #WakeCoalescing(LongSupplier, LongSupplier)}, for an endpoint whose pacer may release ahead of its
     * schedule ({@code PacketScheduler.releaseAheadInQuanta}): its releases then come a quantum apart by themselves,
     * each with a quantum of the rate, and are served on time — a release a quantum from now, planned again at every
     * wake in between (an ACK's arrival), would come later and later, and what fell due beyond the pacer's catch-up
     * horizon would be lost.
     *
     * @param releaseQuantumNs   the pacer's quantum for its next release ({@code EndpointCore.nextReleaseQuantumNs()}).
     * @param arrivalAckDelayNs  as above; null for a cap of the default max hold.
     * @param pacerReleasesAhead true if the pacer releases a quantum ahead: its releases are served on time.
     * @throws IllegalArgumentException if a property is not a whole number of microseconds from 0 to 1000.
     */
    public WakeCoalescing(
        final LongSupplier releaseQuantumNs, final LongSupplier arrivalAckDelayNs, final boolean pacerReleasesAhead)
    {
        this(pacerReleasesAhead ? OFF : microsProperty(PACING_QUANTUM_PROPERTY, RATE_QUANTUM), releaseQuantumNs,
            microsProperty(MAX_HOLD_PROPERTY, DEFAULT_MAX_HOLD_NS), arrivalAckDelayNs);
    }

    /**
     * @return true unless {@link #PACING_QUANTUM_PROPERTY} is 0 (every release served on time): an agent that plans
     * its sleeps here then serves releases in quanta, and its endpoint's pacer may send a quantum ahead of its
     * schedule ({@code PacketScheduler.releaseAheadInQuanta}).
     * @throws IllegalArgumentException if the property is not a whole number of microseconds from 0 to 1000.
     */
    public static boolean servesReleasesInQuanta()
    {
        return OFF != microsProperty(PACING_QUANTUM_PROPERTY, RATE_QUANTUM);
    }

    private static long microsProperty(final String name, final long defaultNs)
    {
        final String value = System.getProperty(name);
        if (null == value)
        {
            return defaultNs;
        }
        try
        {
            final long us = Long.parseLong(value.trim());
            if (us >= 0 && us <= MAX_QUANTUM_US)
            {
                return us * NANOS_PER_MICRO;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new IllegalArgumentException(
            "-D" + name + "=" + value + ": a whole number of microseconds from 0 to " + MAX_QUANTUM_US +
            " is accepted");
    }

    /**
     * @param pacingQuantumNs the pacing quantum of every release, {@link #OFF} to serve every release on time.
     * @param maxHoldNs       the longest hold of arrivals, {@link #OFF} never to hold them.
     */
    public WakeCoalescing(final long pacingQuantumNs, final long maxHoldNs)
    {
        this(requireNotNegative(pacingQuantumNs), () -> DEFAULT_PACING_QUANTUM_NS, maxHoldNs, null);
    }

    /**
     * @param pacingQuantumNs   the pacing quantum of every release, {@link #OFF} to serve every release on time.
     * @param maxHoldNs         the longest hold of arrivals while no connection asks for longer, {@link #OFF} never
     *                          to hold them.
     * @param arrivalAckDelayNs the shortest ACK delay in force among the connections that received since it was last
     *                          asked ({@link Long#MAX_VALUE} for none); null to keep the cap at {@code maxHoldNs}.
     */
    public WakeCoalescing(final long pacingQuantumNs, final long maxHoldNs, final LongSupplier arrivalAckDelayNs)
    {
        this(requireNotNegative(pacingQuantumNs), () -> DEFAULT_PACING_QUANTUM_NS, maxHoldNs, arrivalAckDelayNs);
    }

    /**
     * @param pacingQuantumNs  the pacing quantum of every release, {@link #OFF} to serve every release on time, or
     *                         {@link #RATE_QUANTUM} for each release's own.
     * @param releaseQuantumNs the pacer's quantum for its next release, read before each sleep when
     *                         {@code pacingQuantumNs} is {@link #RATE_QUANTUM}.
     * @param maxHoldNs        the longest hold of arrivals, {@link #OFF} never to hold them.
     */
    public WakeCoalescing(final long pacingQuantumNs, final LongSupplier releaseQuantumNs, final long maxHoldNs)
    {
        this(pacingQuantumNs, releaseQuantumNs, maxHoldNs, null);
    }

    /**
     * @param pacingQuantumNs   the pacing quantum of every release, {@link #OFF} to serve every release on time, or
     *                          {@link #RATE_QUANTUM} for each release's own.
     * @param releaseQuantumNs  the pacer's quantum for its next release, read before each sleep when
     *                          {@code pacingQuantumNs} is {@link #RATE_QUANTUM}.
     * @param maxHoldNs         the longest hold of arrivals while no connection asks for longer, {@link #OFF} never
     *                          to hold them.
     * @param arrivalAckDelayNs the shortest ACK delay in force among the connections that received since it was last
     *                          asked ({@link Long#MAX_VALUE} for none); null to keep the cap at {@code maxHoldNs}.
     */
    public WakeCoalescing(
        final long pacingQuantumNs,
        final LongSupplier releaseQuantumNs,
        final long maxHoldNs,
        final LongSupplier arrivalAckDelayNs)
    {
        if (pacingQuantumNs < RATE_QUANTUM || maxHoldNs < 0)
        {
            throw new IllegalArgumentException(
                "pacingQuantumNs must be >= 0 or RATE_QUANTUM and maxHoldNs >= 0: " + pacingQuantumNs + ", " +
                maxHoldNs);
        }
        this.pacingQuantumNs = pacingQuantumNs;
        this.releaseQuantumNs = Objects.requireNonNull(releaseQuantumNs, "releaseQuantumNs");
        this.maxHoldNs = maxHoldNs;
        this.arrivalAckDelayNs = arrivalAckDelayNs;
    }

    private static long requireNotNegative(final long pacingQuantumNs)
    {
        if (pacingQuantumNs < 0)
        {
            throw new IllegalArgumentException("pacingQuantumNs must be >= 0: " + pacingQuantumNs);
        }
        return pacingQuantumNs;
    }

    /**
     * Plan the sleep that begins now; {@link #isHoldingArrivals()} then says whether an arrival may end it.
     *
     * @param nowNs             the time now.
     * @param timerDeadlineNs   the earliest timer of the endpoint and its application, {@link Long#MAX_VALUE} if none.
     * @param releaseTimeNs     the pacer's next release, {@link Long#MAX_VALUE} if none.
     * @param datagramsReceived the port's datagrams received so far.
     * @param datagramsSent     the port's datagrams sent so far.
     * @return when the sleep ends, {@link Long#MAX_VALUE} for no deadline.
     */
    public long plan(
        final long nowNs,
        final long timerDeadlineNs,
        final long releaseTimeNs,
        final long datagramsReceived,
        final long datagramsSent)
    {
        return plan(nowNs, timerDeadlineNs, releaseTimeNs, datagramsReceived, datagramsSent, true);
    }

    /**
     * {@link #plan(long, long, long, long, long)}, holding arrivals only if {@code mayHold}: the caller knows the
     * arrivals are not a stream (a connection that has just opened exchanges lone datagrams).
     *
     * @param nowNs             the time now.
     * @param timerDeadlineNs   the earliest timer of the endpoint and its application, {@link Long#MAX_VALUE} if none.
     * @param releaseTimeNs     the pacer's next release, {@link Long#MAX_VALUE} if none.
     * @param datagramsReceived the port's datagrams received so far.
     * @param datagramsSent     the port's datagrams sent so far.
     * @param mayHold           false never to hold arrivals in this sleep.
     * @return when the sleep ends, {@link Long#MAX_VALUE} for no deadline.
     */
    public long plan(
        final long nowNs,
        final long timerDeadlineNs,
        final long releaseTimeNs,
        final long datagramsReceived,
        final long datagramsSent,
        final boolean mayHold)
    {
        final long received = datagramsReceived - lastDatagramsReceived;
        final long sent = datagramsSent - lastDatagramsSent;
        final long sinceLastPlanNs = nowNs - lastPlanNs;
        lastDatagramsReceived = datagramsReceived;
        lastDatagramsSent = datagramsSent;
        lastPlanNs = nowNs;
        final boolean hadPlanned = hasPlanned;
        hasPlanned = true;

        long wakeNs = timerDeadlineNs;
        if (Long.MAX_VALUE != releaseTimeNs)
        {
            // Compare differences, not absolute times: a nano clock's origin is arbitrary and may be negative.
            final long quantumNs = RATE_QUANTUM == pacingQuantumNs ? releaseQuantumNs.getAsLong() : pacingQuantumNs;
            final long quantumEndNs = nowNs + quantumNs;
            wakeNs = earlier(wakeNs, releaseTimeNs - quantumEndNs < 0 ? quantumEndNs : releaseTimeNs);
        }

        isHoldingArrivals = false;
        final long holdCapNs = holdCapNs();
        if (mayHold && maxHoldNs > 0 && hadPlanned && received >= MIN_DATAGRAMS_TO_HOLD && 2 * sent <= received)
        {
            final long gapNs = sinceLastPlanNs / received;
            meanArrivalGapNs = 0 == meanArrivalGapNs ? gapNs : (meanArrivalGapNs + gapNs) >> 1;
            final long holdNs = Math.min(holdCapNs, HOLD_DATAGRAMS * meanArrivalGapNs);
            if (holdNs > 0)
            {
                isHoldingArrivals = true;
                wakeNs = earlier(wakeNs, nowNs + holdNs);
            }
        }
        return wakeNs;
    }

    /**
     * @return the longest hold now: {@code maxHoldNs}, or the shortest ACK delay in force among the connections that
     * just received if that is longer (within {@link #MAX_HOLD_WITH_ACK_FREQUENCY_NS}). Asked at every plan, so the
     * endpoint's record starts again each time.
     */
    private long holdCapNs()
    {
        if (null == arrivalAckDelayNs)
        {
            return maxHoldNs;
        }
        final long ackDelayNs = arrivalAckDelayNs.getAsLong();
        return Long.MAX_VALUE == ackDelayNs ?
            maxHoldNs : Math.max(maxHoldNs, Math.min(ackDelayNs, MAX_HOLD_WITH_ACK_FREQUENCY_NS));
    }

    /**
     * @return true if the sleep {@link #plan} planned last is not ended by arriving datagrams.
     */
    public boolean isHoldingArrivals()
    {
        return isHoldingArrivals;
    }

    /**
     * @return the mean gap between arrivals while datagrams were held, in ns (0 before any hold).
     */
    public long meanArrivalGapNs()
    {
        return meanArrivalGapNs;
    }

    /**
     * @param aNs a deadline on a nano clock, {@link Long#MAX_VALUE} meaning none.
     * @param bNs another.
     * @return the earlier of the two, compared by difference (a nano clock's origin is arbitrary).
     */
    public static long earlier(final long aNs, final long bNs)
    {
        if (Long.MAX_VALUE == aNs)
        {
            return bNs;
        }
        return Long.MAX_VALUE == bNs || aNs - bNs < 0 ? aNs : bNs;
    }
}
