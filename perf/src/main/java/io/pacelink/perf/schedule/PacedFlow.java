package io.pacelink.perf.schedule;

import io.pacelink.transport.schedule.SchedulableFlow;

/**
 * A connection as a packet scheduler sees it, always backlogged: it has a packet to send at every moment and owes no
 * ACK; it is activated with a fixed pacing rate and the send quantum a window controller would give it (about 1 ms of
 * rate, at least two datagrams, at most 64 KiB).
 */
public final class PacedFlow implements SchedulableFlow
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long SEND_QUANTUM_INTERVAL_NS = 1_000_000L;
    private static final int MAX_SEND_QUANTUM_BYTES = 64 * 1024;

    private final long flowId;
    private final long pacingRateBytesPerSecond;
    private final int sendQuantumBytes;

    /**
     * @param flowId                   the flow's identity.
     * @param pacingRateBytesPerSecond its pacing rate.
     * @param maxDatagramSizeBytes     its path's max datagram size, which sets the smallest send quantum.
     */
    public PacedFlow(final long flowId, final long pacingRateBytesPerSecond, final int maxDatagramSizeBytes)
    {
        this.flowId = flowId;
        this.pacingRateBytesPerSecond = pacingRateBytesPerSecond;
        this.sendQuantumBytes = (int)Math.max(2L * maxDatagramSizeBytes, Math.min(
            MAX_SEND_QUANTUM_BYTES, pacingRateBytesPerSecond * SEND_QUANTUM_INTERVAL_NS / NANOS_PER_SECOND));
    }

    public long flowId()
    {
        return flowId;
    }

    /**
     * @return the rate to activate it with.
     */
    public long pacingRateBytesPerSecond()
    {
        return pacingRateBytesPerSecond;
    }

    /**
     * @return the send quantum to activate it with.
     */
    public int sendQuantumBytes()
    {
        return sendQuantumBytes;
    }

    public int sendable(final long nowNs)
    {
        return ACK_ELICITING;
    }
}
