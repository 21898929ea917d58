package io.pacelink.perf.schedule;

import io.pacelink.transport.schedule.SchedulableFlow;

/**
 * A connection as a packet scheduler sees it, always backlogged: it has a packet to send at every moment, owes no
 * ACK, asks for no departure time, and is paced at a fixed rate with the send quantum a window controller would give
 * it (about 1 ms of rate, at least two datagrams, at most 64 KiB).
 */
public final class PacedFlow implements SchedulableFlow
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long SEND_QUANTUM_INTERVAL_NS = 1_000_000L;
    private static final int MAX_SEND_QUANTUM_BYTES = 64 * 1024;

    private final long flowId;
    private final long pacingRateBytesPerSecond;
    private final int sendQuantumBytes;
    private final int maxDatagramSizeBytes;

    /**
     * @param flowId                   the flow's identity.
     * @param pacingRateBytesPerSecond its pacing rate.
     * @param maxDatagramSizeBytes     its path's max datagram size.
     */
    public PacedFlow(final long flowId, final long pacingRateBytesPerSecond, final int maxDatagramSizeBytes)
    {
        this.flowId = flowId;
        this.pacingRateBytesPerSecond = pacingRateBytesPerSecond;
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.sendQuantumBytes = (int)Math.max(2L * maxDatagramSizeBytes, Math.min(
            MAX_SEND_QUANTUM_BYTES, pacingRateBytesPerSecond * SEND_QUANTUM_INTERVAL_NS / NANOS_PER_SECOND));
    }

    public long flowId()
    {
        return flowId;
    }

    public long pacingRateBytesPerSecond()
    {
        return pacingRateBytesPerSecond;
    }

    public int sendQuantumBytes()
    {
        return sendQuantumBytes;
    }

    public int maxDatagramSizeBytes()
    {
        return maxDatagramSizeBytes;
    }

    public boolean hasPacketToSend(final long nowNs)
    {
        return true;
    }

    public boolean hasAckDue(final long nowNs)
    {
        return false;
    }

    public long earliestDepartureNs()
    {
        return 0;
    }
}
