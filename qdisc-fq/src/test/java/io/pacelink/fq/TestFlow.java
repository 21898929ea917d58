package io.pacelink.fq;

import io.pacelink.transport.schedule.SchedulableFlow;

/**
 * A scripted connection for scheduler tests: a backlog of equal-sized packets, a pacing rate and send quantum (handed
 * to the scheduler when {@link SchedulerHarness#activate} activates it) and an ACK flag, all set by the test; counts
 * what it sent. Allocation-free.
 */
final class TestFlow implements SchedulableFlow
{
    static final int MTU_BYTES = 1514;

    private final long flowId;
    long pacingRateBytesPerSecond;
    int packetBytes = MTU_BYTES;
    int sendQuantumBytes = 2 * MTU_BYTES;
    long backlogPackets;
    boolean ackDue;

    long sentPackets;
    long sentBytes;
    long lastSendNs = -1;

    TestFlow(final long flowId)
    {
        this.flowId = flowId;
    }

    TestFlow rate(final long bytesPerSecond)
    {
        pacingRateBytesPerSecond = bytesPerSecond;
        return this;
    }

    TestFlow backlog(final long packets)
    {
        backlogPackets = packets;
        return this;
    }

    TestFlow packetBytes(final int bytes)
    {
        packetBytes = bytes;
        return this;
    }

    /**
     * The endpoint built one data packet for this flow.
     */
    void sent(final long nowNs)
    {
        backlogPackets--;
        sentPackets++;
        sentBytes += packetBytes;
        lastSendNs = nowNs;
    }

    public long flowId()
    {
        return flowId;
    }

    public int sendable(final long nowNs)
    {
        return (backlogPackets > 0 ? ACK_ELICITING : 0) | (ackDue ? ACK_DUE : 0);
    }
}
