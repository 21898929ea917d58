package io.pacelink.fq;

import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.schedule.PacingQuantum;
import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.schedule.Release;
import io.pacelink.transport.schedule.SchedulableFlow;
import org.HdrHistogram.Histogram;
import org.agrona.collections.Hashing;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.ArrayDeque;

/**
 * The sender's fair-queueing pacer (name {@code fq}): Linux {@code net/sched/sch_fq.c} semantics adapted to late
 * binding. A flow's queue is implicit: it is backlogged while {@link SchedulableFlow#sendable(long)} says it has an
 * ack-eliciting packet, and its head packet is built by the endpoint only when {@link #next} releases the flow, so
 * sch_fq's enqueue happens in {@link #activate} and its dequeue is the release (steps 1 to 6 of {@code fq_dequeue} as
 * docs/fq.md numbers them) followed, in {@link #onSent}, by the credit charge and pacing update for the packet the
 * endpoint built (step 8).
 * <ul>
 * <li>Flows that become active join {@code new_flows}, served before {@code old_flows}; a new flow starts with the
 * initial quantum (10 × MTU) of credit, a flow idle longer than the refill delay (40 ms) gets at least one quantum,
 * and a flow that empties from {@code new_flows} makes one pass through {@code old_flows} before it detaches, so a
 * flow cannot starve others by re-entering {@code new_flows}.</li>
 * <li>Deficit round robin: a flow whose credit is spent gets one more quantum (2 × MTU) and goes to the tail of
 * {@code old_flows}.</li>
 * <li>Pacing at rate {@code r = min(pacingRate, maxRate)}, the pacing rate the flow's controller gave at its last
 * activation, in one of two ways ({@code fq.perPacketPacing}):
 * <ul>
 * <li>per packet (the default): a connection's packets leave {@code len / r} apart, as the departure times the
 * Linux TCP stack stamps on each packet ({@code tcp_wstamp_ns}) and sch_fq enforces. A new flow sends its initial
 * quantum unpaced (Linux TCP leaves a connection's first 10 segments unpaced). A flow behind schedule while backlogged
 * (the agent woke late) sends what fell due back to back, as far back as the catch-up horizon
 * ({@code fq.catchUpHorizonUs}, 3 ms, grown by what the flow's pacing quantum exceeds 750 µs by: {@link
 * PacingQuantum}, ten datagrams' time at low rates; or, if longer and configured, the time a share of the flow's
 * congestion window takes at its pacing rate, {@code fq.catchUpCwndPercent}): a burst measured in time, at most that
 * much of its rate,
 * so an agent that sleeps until a release, or a quantum, and wakes late loses nothing and need not spin to be early;
 * idle time (nothing to send,
 * or no cwnd) earns no catch-up, so a flow that resumes after idle is paced from its first packet on;</li>
 * <li>per quantum (sch_fq's own pacing of sockets without departure times): if {@code r} is at or below the
 * low-rate threshold (550 kbit/s) credit is zeroed so every packet is paced alone; otherwise the flow keeps sending
 * back to back while it has credit, and once the credit is spent its next packet waits {@code max(len, quantum) / r}
 * (at most 1 s), shortened by the scheduling lateness up to half ({@code sch_fq.c fq_dequeue}).</li>
 * </ul>
 * Throttled flows wait in a heap ordered by their deadline.</li>
 * <li>Pure ACKs are never paced or charged: a flow released only because an ACK is due is sent an ACK-only packet,
 * and throttled flows whose ACK becomes due are served from a bypass queue first, as sch_fq serves its internal FIFO
 * first.</li>
 * <li>Flows detached longer than the GC age (3 s) are forgotten, at most 8 per lookup ({@code fq_gc}); a flow that
 * returns after that is new again.</li>
 * </ul>
 * Not carried over, because nothing is queued here in late binding: {@code limit} and {@code flow_limit} (a flow's
 * backlog is its send buffer, bounded by the connection's back pressure), {@code ce_threshold} (no queueing delay to
 * mark), priority bands and the orphan hash (every flow is an owned connection); and, because no connection stamps
 * departure times, sch_fq's per-packet {@code time_to_send} with its {@code horizon}.
 * <p>
 * Single-threaded (the endpoint agent). No allocation per packet: flow states are pooled and indexed by flow id in an
 * Agrona {@link Long2ObjectHashMap}, lists are array deques and the throttled heap is an array of pooled nodes; they
 * allocate only when the number of flows outgrows them.
 *
 * @param <F> the endpoint's flows.
 */
public final class FqScheduler<F extends SchedulableFlow> implements PacketScheduler<F>
{
    /**
     * The name users select it by.
     */
    public static final String NAME = "fq";

    /**
     * sch_fq {@code FQ_GC_MAX}: flows garbage collected per lookup at most.
     */
    static final int GC_MAX_FLOWS_PER_LOOKUP = 8;

    /**
     * Largest lateness the release histogram resolves; larger values are recorded as this.
     */
    public static final long MAX_TRACKED_LATENESS_NS = 60_000_000_000L;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /**
     * sch_fq clamps a packet's pacing delay to 1 s "since socket rate can change later".
     */
    private static final long MAX_PACKET_DELAY_NS = NANOS_PER_SECOND;
    private static final int INITIAL_FLOW_CAPACITY = 64;
    private static final int LATENESS_SIGNIFICANT_DIGITS = 2;
    /**
     * A packet repays at most a quarter (1/2^2) of its gap of catch-up debt.
     */
    private static final int CATCH_UP_REPAY_SHIFT = 2;

    private final int quantumBytes;
    private final int initialQuantumBytes;
    private final long maxRateBytesPerSecond;
    private final long lowRateThresholdBytesPerSecond;
    private final long flowRefillDelayNs;
    private final long gcAgeNs;
    private final boolean pacing;
    private final boolean perPacketPacing;
    private final long catchUpHorizonNs;
    private final long catchUpDebtNs;
    private final int catchUpCwndPercent;
    private final boolean releaseAheadConfigured;
    private final int releaseAheadMaxBytes;
    private boolean releasesAhead;

    private final Long2ObjectHashMap<FqFlow> flowsById =
        new Long2ObjectHashMap<>(INITIAL_FLOW_CAPACITY, Hashing.DEFAULT_LOAD_FACTOR);
    private final ArrayDeque<FqFlow> newFlows = new ArrayDeque<>(INITIAL_FLOW_CAPACITY);
    private final ArrayDeque<FqFlow> oldFlows = new ArrayDeque<>(INITIAL_FLOW_CAPACITY);
    private final ArrayDeque<FqFlow> ackBypass = new ArrayDeque<>(INITIAL_FLOW_CAPACITY);
    private final ThrottledFlows throttledFlows = new ThrottledFlows(INITIAL_FLOW_CAPACITY);
    private final DetachedFlows detachedFlows = new DetachedFlows();
    private final Histogram releaseLatenessHistogram =
        new Histogram(MAX_TRACKED_LATENESS_NS, LATENESS_SIGNIFICANT_DIGITS);

    private final Release<F> release = new Release<>();
    private FqFlow freeFlows;
    private FqFlow released;
    private boolean isReleasedForAckOnly;

    // sch_fq's statistics (tc -s qdisc show dev X), as counters so pacelink stat sees them.
    private final AtomicCounter flows;
    private final AtomicCounter throttledFlowsNow;
    private final AtomicCounter throttledTotal;
    private final AtomicCounter gcFlows;
    private final AtomicCounter packetsTooLong;
    private final AtomicCounter ackOnlyReleases;
    private final AtomicCounter unthrottleLatencyNs;
    private final AtomicCounter latenessForgottenNs;

    /**
     * @param config   validated parameters.
     * @param counters where the statistics are published (the endpoint's counters).
     */
    public FqScheduler(final FqConfig config, final ControllerCounters counters)
    {
        flows = counters.newCounter("flows");
        throttledFlowsNow = counters.newCounter("throttled-flows");
        throttledTotal = counters.newCounter("throttled");
        gcFlows = counters.newCounter("gc-flows");
        packetsTooLong = counters.newCounter("packets-too-long");
        ackOnlyReleases = counters.newCounter("ack-only-releases");
        unthrottleLatencyNs = counters.newCounter("unthrottle-latency-ns");
        latenessForgottenNs = counters.newCounter("lateness-forgotten-ns");
        quantumBytes = config.quantumBytes();
        initialQuantumBytes = config.initialQuantumBytes();
        maxRateBytesPerSecond = config.maxRateBytesPerSecond();
        lowRateThresholdBytesPerSecond = config.lowRateThresholdBytesPerSecond();
        flowRefillDelayNs = config.flowRefillDelayNs();
        gcAgeNs = config.gcAgeNs();
        pacing = config.pacing();
        perPacketPacing = config.perPacketPacing();
        catchUpHorizonNs = config.catchUpHorizonNs();
        catchUpDebtNs = config.catchUpDebtNs();
        catchUpCwndPercent = config.catchUpCwndPercent();
        releaseAheadConfigured = config.releaseAhead();
        releaseAheadMaxBytes = config.releaseAheadMaxBytes();

        for (int i = 0; i < INITIAL_FLOW_CAPACITY; i++)
        {
            final FqFlow flow = new FqFlow();
            flow.nextFree = freeFlows;
            freeFlows = flow;
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * Nothing to do: like sch_fq, which creates a flow with its first packet, state is created when the flow is
     * first activated.
     */
    public void addFlow(final F flow)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void removeFlow(final F flow)
    {
        final FqFlow state = flowsById.remove(flow.flowId());
        if (null == state)
        {
            return;
        }

        switch (state.place)
        {
            case NEW_FLOWS:
                newFlows.remove(state);
                break;

            case OLD_FLOWS:
                oldFlows.remove(state);
                break;

            case THROTTLED:
                throttledFlows.remove(state);
                throttledFlowsNow.setRelease(throttledFlows.size());
                break;

            case DETACHED:
                detachedFlows.remove(state);
                break;
        }
        if (state.inAckBypass)
        {
            ackBypass.remove(state);
        }
        if (released == state)
        {
            released = null;
        }
        recycle(state);
        flows.setRelease(flowsById.size());
    }

    /**
     * {@inheritDoc}
     * <p>
     * sch_fq's enqueue: look the flow up (collecting up to 8 other flows idle longer than the GC age on the way),
     * create it with the initial quantum if unknown, and if it was detached put it on {@code new_flows}, refilling
     * its credit to at least one quantum if it was idle longer than the refill delay. A throttled flow that owes an
     * ACK is queued for the ACK bypass. With per-packet pacing, a flow that was detached resumes its pacing schedule
     * no earlier than now: idle time earns no burst. The controller's send quantum is not used: per-packet pacing
     * bounds a burst in time (the catch-up horizon), per-quantum pacing by {@code fq.quantum}.
     */
    public void activate(
        final F flow, final long pacingRateBytesPerSecond, final int sendQuantumBytes, final long nowNs)
    {
        activate(flow, pacingRateBytesPerSecond, sendQuantumBytes, Long.MAX_VALUE, nowNs);
    }

    /**
     * {@inheritDoc}
     * <p>
     * As {@link #activate(SchedulableFlow, long, int, long)}; with per-packet pacing the flow's pacing quantum is
     * sized from its rate, the window and its datagrams ({@link PacingQuantum}), and its catch-up horizon with it.
     */
    public void activate(
        final F flow,
        final long pacingRateBytesPerSecond,
        final int sendQuantumBytes,
        final long congestionWindowBytes,
        final long nowNs)
    {
        FqFlow state = flowsById.get(flow.flowId());
        collectGarbage(nowNs, state);
        if (null == state)
        {
            state = newFlowState(flow, nowNs);
        }
        state.pacingRateBytesPerSecond = pacingRateBytesPerSecond;
        if (pacing && perPacketPacing)
        {
            final long rateBytesPerSecond = effectiveRateBytesPerSecond(pacingRateBytesPerSecond);
            state.quantumNs = PacingQuantum.quantumNs(rateBytesPerSecond, congestionWindowBytes, state.datagramBytes);
            state.windowHorizonNs = windowHorizonNs(rateBytesPerSecond, congestionWindowBytes);
            state.releaseAheadNs = releaseAheadNs(rateBytesPerSecond, state.quantumNs, state.datagramBytes);
        }

        if (FqFlow.Place.DETACHED == state.place)
        {
            detachedFlows.remove(state);
            if (nowNs - state.detachedAtNs > flowRefillDelayNs)
            {
                state.creditBytes = Math.max(state.creditBytes, quantumBytes);
            }
            if (perPacketPacing)
            {
                state.timeNextPacketNs = Math.max(state.timeNextPacketNs, nowNs);
                state.catchUpDebtNs = 0;
            }
            state.place = FqFlow.Place.NEW_FLOWS;
            newFlows.offerLast(state);
        }
        else if (FqFlow.Place.THROTTLED == state.place && !state.inAckBypass &&
            0 != (flow.sendable(nowNs) & SchedulableFlow.ACK_DUE))
        {
            state.inAckBypass = true;
            ackBypass.offerLast(state);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * sch_fq's dequeue, steps 1 to 6 (docs/fq.md): release a flow; the endpoint builds its packet and
     * {@link #onSent} charges it (step 8).
     */
    public Release<F> next(final long nowNs)
    {
        final FqFlow state = release(nowNs);
        released = state;
        return null == state ? null : release.set(flowOf(state), isReleasedForAckOnly);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Step 8 of sch_fq's dequeue for a data packet; an ACK-only packet is not charged.
     */
    public void onSent(final F flow, final int lengthBytes, final boolean isAckEliciting, final long nowNs)
    {
        final FqFlow state = released;
        released = null;
        if (null != state && state.flow == flow && !isReleasedForAckOnly && isAckEliciting)
        {
            charge(state, lengthBytes, nowNs);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * True when nothing else is active — {@code new_flows}, {@code old_flows} and the ACK bypass empty, no throttled
     * flow due — and the flow is detached with credit and its pacing time come ({@code time_next_packet} at or before
     * now). Then {@link #activate} puts it alone on {@code new_flows} (a refill only adds credit; per-packet pacing
     * brings its schedule up to now) and {@link #next} steps 1 and 2 find nothing, step 3 takes it, step 4 finds
     * credit and step 5 releases it whatever its release ahead; it was not woken from throttling, so no lateness is
     * recorded. A flow on a list, throttled, new to the scheduler or not yet due answers false: the general path
     * decides those.
     */
    public boolean releasesAloneNow(final F flow, final long nowNs)
    {
        if (!newFlows.isEmpty() || !oldFlows.isEmpty() || !ackBypass.isEmpty())
        {
            return false;
        }
        final FqFlow first = throttledFlows.peek();
        if (null != first && first.timeNextPacketNs <= nowNs)
        {
            return false;
        }
        final FqFlow state = flowsById.get(flow.flowId());
        return null != state && FqFlow.Place.DETACHED == state.place && state.creditBytes > 0 &&
            state.timeNextPacketNs <= nowNs;
    }

    /**
     * {@inheritDoc}
     * <p>
     * The activation itself, then the release {@link #next} would have answered ({@link #releasesAloneNow}: the flow
     * alone at the head of {@code new_flows}, for an ack-eliciting packet), then {@link #onSent}'s charge.
     */
    public void onSentAlone(
        final F flow,
        final long pacingRateBytesPerSecond,
        final int sendQuantumBytes,
        final long congestionWindowBytes,
        final int lengthBytes,
        final boolean isAckEliciting,
        final long nowNs)
    {
        activate(flow, pacingRateBytesPerSecond, sendQuantumBytes, congestionWindowBytes, nowNs);
        isReleasedForAckOnly = false;
        released = newFlows.peekFirst();
        onSent(flow, lengthBytes, isAckEliciting, nowNs);
    }

    /**
     * Steps 1 to 6 of sch_fq's {@code fq_dequeue} (docs/fq.md).
     *
     * @return the flow to send a packet for ({@link #isReleasedForAckOnly} says which kind), or null if none may.
     */
    private FqFlow release(final long nowNs)
    {
        isReleasedForAckOnly = false;

        // Step 1: sch_fq serves its internal FIFO first; ours holds throttled flows that owe an ACK.
        FqFlow state;
        while (null != (state = ackBypass.pollFirst()))
        {
            state.inAckBypass = false;
            if (0 != (state.flow.sendable(nowNs) & SchedulableFlow.ACK_DUE))
            {
                return releaseForAckOnly(state);
            }
        }

        // Step 2: flows whose deadline has come go to the tail of old_flows.
        while (!throttledFlows.isEmpty() && throttledFlows.peek().timeNextPacketNs <= nowNs)
        {
            state = throttledFlows.poll();
            state.wokenFromThrottle = true;
            addToOldFlows(state);
            throttledFlowsNow.setRelease(throttledFlows.size());
        }

        while (true)
        {
            // Step 3: new flows first; nothing eligible means the agent may sleep until nextReleaseTimeNs().
            final ArrayDeque<FqFlow> list = newFlows.isEmpty() ? oldFlows : newFlows;
            state = list.peekFirst();
            if (null == state)
            {
                return null;
            }

            // Step 4: credit spent: one more quantum, and wait for a turn at the tail of old_flows.
            if (state.creditBytes <= 0)
            {
                state.creditBytes += quantumBytes;
                list.pollFirst();
                addToOldFlows(state);
                continue;
            }

            final int sendable = state.flow.sendable(nowNs);
            if (0 != (sendable & SchedulableFlow.ACK_ELICITING))
            {
                // Step 5: the head packet leaves at the flow's pacing deadline, or up to its quantum before it
                // under an agent that sleeps in quanta; a throttled flow still waits in step 2 until it is due.
                if (state.timeNextPacketNs > nowNs + releaseAheadNs(state))
                {
                    list.pollFirst();
                    throttle(state);
                    if (0 != (sendable & SchedulableFlow.ACK_DUE))
                    {
                        return releaseForAckOnly(state);
                    }
                    continue;
                }

                if (state.wokenFromThrottle)
                {
                    state.wokenFromThrottle = false;
                    final long latenessNs = Math.min(nowNs - state.timeNextPacketNs, MAX_TRACKED_LATENESS_NS);
                    releaseLatenessHistogram.recordValue(latenessNs);
                    recordUnthrottleLatency(latenessNs);
                }
                return state;
            }

            if (0 != (sendable & SchedulableFlow.ACK_DUE))
            {
                return releaseForAckOnly(state);
            }

            // Step 6: empty. From new_flows, one pass through old_flows first so it cannot starve others by
            // re-entering new_flows; from old_flows, detach.
            list.pollFirst();
            if (list == newFlows)
            {
                addToOldFlows(state);
            }
            else
            {
                detach(state, nowNs);
            }
        }
    }

    /**
     * Step 8 of sch_fq's {@code fq_dequeue} (docs/fq.md) for a data packet: charge the credit and, when pacing, move
     * the flow's deadline.
     */
    private void charge(final FqFlow state, final int sizeBytes, final long nowNs)
    {
        state.creditBytes -= sizeBytes;
        if (!pacing)
        {
            return;
        }

        final long rateBytesPerSecond = effectiveRateBytesPerSecond(state.pacingRateBytesPerSecond);
        long pacedBytes = sizeBytes;

        if (perPacketPacing)
        {
            pacePerPacket(state, sizeBytes, rateBytesPerSecond, nowNs);
            return;
        }

        if (rateBytesPerSecond <= lowRateThresholdBytesPerSecond)
        {
            // Below 550 kbit/s bursts hurt more than they save: pace every packet on its own.
            state.creditBytes = 0;
        }
        else
        {
            pacedBytes = Math.max(sizeBytes, quantumBytes);
            if (state.creditBytes > 0)
            {
                return;
            }
        }

        if (FqConfig.UNLIMITED_RATE == rateBytesPerSecond)
        {
            return;
        }

        long delayNs = packetDelayNs(pacedBytes, rateBytesPerSecond);
        // Compensate scheduling lateness: the previous deadline passed some time ago, give back up to half the gap.
        if (0 != state.timeNextPacketNs)
        {
            delayNs -= Math.min(delayNs / 2, Math.max(0, nowNs - state.timeNextPacketNs));
        }
        state.timeNextPacketNs = nowNs + delayNs;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Per-packet pacing only ({@code fq.releaseAhead}, on by default): once its deadline has come (step 2), a flow
     * sends while its schedule is at most its pacing quantum ({@link PacingQuantum}) ahead of now (step 5), then is
     * throttled until its schedule is due again. So every release is a quantum of the rate — ten datagrams' time at
     * low rates, 750 µs at higher ones — bounded by {@code fq.releaseAheadMaxBytes} (64 KiB: 44 datagrams, about
     * 513 µs at 1 Gbit/s, where a whole quantum would be 64 datagrams), and what the agent sees between releases is a
     * deadline that far away, which it sleeps until. The catch-up horizon is unchanged: it bounds how far behind the
     * schedule may fall, the ahead how far ahead.
     */
    public boolean releaseAheadInQuanta(final boolean enabled)
    {
        releasesAhead = enabled && releaseAheadConfigured && pacing && perPacketPacing;
        return releasesAhead;
    }

    /**
     * @return how far ahead of its schedule the flow may send now: its quantum, bounded by
     * {@code fq.releaseAheadMaxBytes}, when releasing ahead, else 0.
     */
    private long releaseAheadNs(final FqFlow state)
    {
        return releasesAhead ? state.releaseAheadNs : 0;
    }

    /**
     * A release on time sends the packet that is due and then those scheduled up to the ahead: so that it carries at
     * most {@code fq.releaseAheadMaxBytes}, the ahead is the time that many bytes less one datagram take at the rate,
     * and at most the quantum (the wake's period). With 1,472-byte datagrams, above about 680 Mbit/s that is 44
     * datagrams, 64,768 bytes (513 µs at 1 Gbit/s, where the quantum would be 750 µs and 64 datagrams), as a Linux TCP
     * sender's TSO burst is 44 segments there; at 500 Mbit/s and below the quantum binds, as before.
     */
    private long releaseAheadNs(final long rateBytesPerSecond, final long quantumNs, final int datagramBytes)
    {
        if (FqConfig.UNLIMITED_RATE == rateBytesPerSecond)
        {
            return quantumNs;
        }
        final long boundNs = transmitTimeNs(Math.max(0, releaseAheadMaxBytes - datagramBytes), rateBytesPerSecond);
        return Math.min(quantumNs, boundNs);
    }

    /**
     * {@inheritDoc}
     */
    public long nextReleaseTimeNs()
    {
        final FqFlow first = throttledFlows.peek();
        return null == first ? Long.MAX_VALUE : first.timeNextPacketNs;
    }

    /**
     * {@inheritDoc}
     * <p>
     * With one throttled flow, its own quantum ({@link PacingQuantum}: at low rates the time of a burst of datagrams,
     * longer than the minimum), which its catch-up horizon covers. With several, the minimum: serving the earliest
     * a longer quantum late would make a later flow with a shorter horizon lose rate, and finding the shortest
     * horizon among them is not worth a walk of the heap per sleep.
     */
    public long nextReleaseQuantumNs()
    {
        return 1 == throttledFlows.size() ? throttledFlows.peek().quantumNs : PacingQuantum.MIN_QUANTUM_NS;
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * @return flows with state (sch_fq {@code flows}): active, throttled, or idle and not yet garbage collected.
     */
    public int flowCount()
    {
        return flowsById.size();
    }

    /**
     * @return flows waiting for their pacing deadline now (sch_fq {@code throttled_flows}).
     */
    public int throttledFlowCount()
    {
        return throttledFlows.size();
    }

    /**
     * @return times a flow was throttled so far (sch_fq {@code stat_throttled}).
     */
    public long throttledTotal()
    {
        return throttledTotal.get();
    }

    /**
     * @return flows garbage collected so far (sch_fq {@code stat_gc_flows}).
     */
    public long gcFlows()
    {
        return gcFlows.get();
    }

    /**
     * @return packets whose pacing delay was clamped to 1 s (sch_fq {@code stat_pkts_too_long}).
     */
    public long packetsTooLong()
    {
        return packetsTooLong.get();
    }

    /**
     * @return releases for an ACK-only packet so far.
     */
    public long ackOnlyReleases()
    {
        return ackOnlyReleases.get();
    }

    /**
     * @return actual minus intended release time of flows woken from throttling, in ns: how late the agent ran
     * (sch_fq keeps an EWMA of the same, {@code unthrottle_latency_ns}). Owned by the scheduler; read it, or reset
     * it, on the agent thread.
     */
    public Histogram releaseLatenessHistogram()
    {
        return releaseLatenessHistogram;
    }

    /**
     * Per-packet pacing (the BBR draft's pacer, {@code next_send_time += size / pacing_rate}): the flow's next packet
     * may leave {@code len / rate} after this one's scheduled time. A flow behind schedule — released late because the
     * agent woke late — keeps at most the catch-up horizon of its lateness: what fell due within it goes back to back
     * (Chromium's QUIC pacing sender, {@code quic/core/congestion_control/pacing_sender.cc}, likewise sends what is due
     * within its 1 ms alarm granularity and lets a late alarm make up for lost time), older lateness is forgotten. So a
     * late release sends exactly the packets whose times passed, and never more than the horizon's worth of the pacing
     * rate, one packet over at most. Configured, the horizon is at least the time a share of the flow's window takes
     * at its rate ({@link #catchUpHorizonNs(FqFlow)}; a quarter is the burst Chromium's pacing sender allows, and the
     * size of the stalls a user-space sender on shared cores sees). Idle flows were brought up to now in
     * {@link #activate}, so only lateness while backlogged is caught up.
     */
    private void pacePerPacket(
        final FqFlow state,
        final int sizeBytes,
        final long rateBytesPerSecond,
        final long nowNs)
    {
        if (FqConfig.UNLIMITED_RATE == rateBytesPerSecond)
        {
            return;
        }
        if (rateBytesPerSecond <= lowRateThresholdBytesPerSecond)
        {
            // As sch_fq below 550 kbit/s: bursts hurt more than they save, so not even a new flow's first packets.
            state.unpacedBytes = 0;
        }
        if (state.unpacedBytes > 0)
        {
            state.unpacedBytes -= sizeBytes;
            if (state.unpacedBytes > 0)
            {
                return;
            }
            state.timeNextPacketNs = nowNs;
        }

        state.datagramBytes = Math.max(state.datagramBytes, sizeBytes);
        final long catchUpFromNs = nowNs - catchUpHorizonNs(state);
        if (state.timeNextPacketNs < catchUpFromNs)
        {
            // Behind by more than the horizon: up to the debt's bound is repaid gradually, the rest is rate never
            // sent.
            final long behindNs = catchUpFromNs - state.timeNextPacketNs;
            final long owedNs = Math.min(behindNs, Math.max(0, catchUpDebtNs - state.catchUpDebtNs));
            state.catchUpDebtNs += owedNs;
            if (behindNs > owedNs)
            {
                latenessForgottenNs.getAndAddRelease(behindNs - owedNs);
            }
            state.timeNextPacketNs = catchUpFromNs;
        }
        long delayNs = packetDelayNs(sizeBytes, rateBytesPerSecond);
        if (state.catchUpDebtNs > 0 && state.timeNextPacketNs + delayNs > nowNs + 1)
        {
            // Repay up to a quarter of the gap, 4/3 of the pacing rate until repaid, and only on schedule: the next
            // packet still waits (never due at once), so the debt adds no burst to the horizon's.
            final long repaidNs = Math.min(Math.min(state.catchUpDebtNs, delayNs >> CATCH_UP_REPAY_SHIFT),
                state.timeNextPacketNs + delayNs - nowNs - 1);
            state.catchUpDebtNs -= repaidNs;
            delayNs -= repaidNs;
        }
        state.timeNextPacketNs += delayNs;
    }

    /**
     * @return how far back a late release of the flow catches up: the configured horizon (grown with the flow's
     * quantum, {@link PacingQuantum#catchUpHorizonNs}) or the time of the configured share of its window at its rate,
     * whichever is longer; 0 if the configured horizon is 0 (no lateness kept at all).
     */
    private long catchUpHorizonNs(final FqFlow state)
    {
        final long horizonNs = PacingQuantum.catchUpHorizonNs(catchUpHorizonNs, state.quantumNs);
        return 0 == horizonNs ? 0 : Math.max(horizonNs, state.windowHorizonNs);
    }

    /**
     * @return the time the configured share of the window takes at the rate, at most the largest horizon (1 s); 0 for
     * an unpaced flow, an unknown window ({@link Long#MAX_VALUE}) or a share of 0.
     */
    private long windowHorizonNs(final long rateBytesPerSecond, final long congestionWindowBytes)
    {
        if (0 == catchUpCwndPercent || rateBytesPerSecond <= 0 || FqConfig.UNLIMITED_RATE == rateBytesPerSecond ||
            congestionWindowBytes <= 0 || Long.MAX_VALUE == congestionWindowBytes)
        {
            return 0;
        }
        // In floating point: a window of gigabytes times 10^9 would overflow a long; the result is bounded below.
        final double horizonNs =
            (double)congestionWindowBytes * catchUpCwndPercent / 100.0 * NANOS_PER_SECOND / rateBytesPerSecond;
        return (long)Math.min(horizonNs, (double)FqConfig.MAX_CATCH_UP_HORIZON_US * 1_000L);
    }

    /**
     * @return {@code min(pacingRate, maxRate)}: the rate a flow is paced at.
     */
    private long effectiveRateBytesPerSecond(final long flowRateBytesPerSecond)
    {
        return flowRateBytesPerSecond > 0 && flowRateBytesPerSecond < maxRateBytesPerSecond ?
            flowRateBytesPerSecond : maxRateBytesPerSecond;
    }

    /**
     * @return {@code bytes / rate}, clamped to 1 s as sch_fq does "since socket rate can change later".
     */
    private long packetDelayNs(final long bytes, final long rateBytesPerSecond)
    {
        final long delayNs = transmitTimeNs(bytes, rateBytesPerSecond);
        if (delayNs > MAX_PACKET_DELAY_NS)
        {
            packetsTooLong.incrementRelease();
            return MAX_PACKET_DELAY_NS;
        }
        return delayNs;
    }

    /**
     * sch_fq.c {@code fq_check_throttled}: an EWMA with weight 1/8 of how late throttled flows are woken, the
     * {@code latency} that {@code tc -s qdisc} prints.
     */
    private void recordUnthrottleLatency(final long latenessNs)
    {
        final long averageNs = unthrottleLatencyNs.get();
        unthrottleLatencyNs.setRelease(averageNs - (averageNs >> 3) + (latenessNs >> 3));
    }

    private static long transmitTimeNs(final long bytes, final long rateBytesPerSecond)
    {
        return bytes * NANOS_PER_SECOND / rateBytesPerSecond;
    }

    private FqFlow releaseForAckOnly(final FqFlow state)
    {
        isReleasedForAckOnly = true;
        ackOnlyReleases.incrementRelease();
        return state;
    }

    @SuppressWarnings("unchecked")
    private F flowOf(final FqFlow state)
    {
        return (F)state.flow;
    }

    private void addToOldFlows(final FqFlow state)
    {
        state.place = FqFlow.Place.OLD_FLOWS;
        oldFlows.offerLast(state);
    }

    private void throttle(final FqFlow state)
    {
        state.place = FqFlow.Place.THROTTLED;
        throttledFlows.add(state);
        throttledTotal.incrementRelease();
        throttledFlowsNow.setRelease(throttledFlows.size());
    }

    private void detach(final FqFlow state, final long nowNs)
    {
        state.place = FqFlow.Place.DETACHED;
        state.wokenFromThrottle = false;
        detachedFlows.addNewest(state, nowNs);
    }

    private FqFlow newFlowState(final F flow, final long nowNs)
    {
        FqFlow state = freeFlows;
        if (null == state)
        {
            state = new FqFlow();
        }
        else
        {
            freeFlows = state.nextFree;
        }
        state.reset(flow, initialQuantumBytes);
        if (perPacketPacing)
        {
            state.unpacedBytes = initialQuantumBytes;
        }
        detachedFlows.addNewest(state, nowNs);
        flowsById.put(flow.flowId(), state);
        flows.setRelease(flowsById.size());
        return state;
    }

    private void recycle(final FqFlow state)
    {
        state.reset(null, 0);
        state.nextFree = freeFlows;
        freeFlows = state;
    }

    /**
     * sch_fq {@code fq_gc}: forget up to 8 flows detached longer than the GC age, except the one being looked up.
     */
    private void collectGarbage(final long nowNs, final FqFlow lookedUp)
    {
        int collected = 0;
        FqFlow candidate = detachedFlows.oldest();
        while (null != candidate && collected < GC_MAX_FLOWS_PER_LOOKUP && nowNs - candidate.detachedAtNs > gcAgeNs)
        {
            final FqFlow newer = candidate.newerDetached;
            if (candidate != lookedUp)
            {
                detachedFlows.remove(candidate);
                flowsById.remove(candidate.flow.flowId());
                recycle(candidate);
                gcFlows.incrementRelease();
                collected++;
            }
            candidate = newer;
        }
        if (collected > 0)
        {
            flows.setRelease(flowsById.size());
        }
    }
}
