package io.pacelink.fq;

import io.pacelink.transport.schedule.PacingQuantum;
import io.pacelink.transport.schedule.SchedulableFlow;

/**
 * An {@link FqScheduler}'s state for one flow (sch_fq {@code struct fq_flow}): DRR credit, the pacing rate taken
 * at its last activation, its pacing deadline and where the flow is parked. Pooled: taken when a flow first becomes
 * active, returned when it is removed or garbage collected, never allocated per packet.
 */
final class FqFlow
{
    /**
     * Where a flow is parked; it is in exactly one place.
     */
    enum Place
    {
        /**
         * Idle, on no round-robin list (sch_fq "detached"), stamped with when it went idle.
         */
        DETACHED,

        /**
         * On the new-flows list.
         */
        NEW_FLOWS,

        /**
         * On the old-flows list.
         */
        OLD_FLOWS,

        /**
         * In the throttled heap, waiting for {@link #timeNextPacketNs}.
         */
        THROTTLED
    }

    SchedulableFlow flow;
    long pacingRateBytesPerSecond;
    long creditBytes;
    long timeNextPacketNs;
    Place place;

    /**
     * Per-packet pacing: bytes a new flow may still send before pacing starts (its initial quantum; the Linux TCP
     * stack likewise leaves a connection's first 10 segments unpaced, {@code tcp_update_skb_after_send}).
     */
    long unpacedBytes;

    /**
     * Per-packet pacing: the flow's pacing quantum ({@code PacingQuantum.quantumNs}) from its rate and window at its
     * last activation and the largest datagram it sent; its catch-up horizon is sized from it.
     */
    long quantumNs = PacingQuantum.MIN_QUANTUM_NS;

    /**
     * Per-packet pacing: the time the configured share of the flow's congestion window takes at its pacing rate, at
     * its last activation; its catch-up horizon is at least this (0 if the window is unknown).
     */
    long windowHorizonNs;

    /**
     * Per-packet pacing, releasing ahead: how far ahead of its schedule the flow may send once due, from its rate and
     * quantum at its last activation ({@code FqScheduler.releaseAheadNs}).
     */
    long releaseAheadNs = PacingQuantum.MIN_QUANTUM_NS;

    /**
     * The largest datagram charged to the flow so far: the size of its full datagrams.
     */
    int datagramBytes;

    /**
     * Per-packet pacing: lateness beyond the catch-up horizon still to repay, a quarter of a gap per packet.
     */
    long catchUpDebtNs;

    boolean wokenFromThrottle;
    boolean inAckBypass;

    long detachedAtNs;
    FqFlow olderDetached;
    FqFlow newerDetached;

    int heapIndex = -1;

    FqFlow nextFree;

    void reset(final SchedulableFlow flow, final long creditBytes)
    {
        this.flow = flow;
        this.creditBytes = creditBytes;
        pacingRateBytesPerSecond = 0;
        timeNextPacketNs = 0;
        unpacedBytes = 0;
        quantumNs = PacingQuantum.MIN_QUANTUM_NS;
        windowHorizonNs = 0;
        releaseAheadNs = PacingQuantum.MIN_QUANTUM_NS;
        datagramBytes = 0;
        catchUpDebtNs = 0;
        place = Place.DETACHED;
        wokenFromThrottle = false;
        inAckBypass = false;
        detachedAtNs = 0;
        olderDetached = null;
        newerDetached = null;
        heapIndex = -1;
        nextFree = null;
    }
}
