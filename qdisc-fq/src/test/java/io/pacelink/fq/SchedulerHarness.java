package io.pacelink.fq;

import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.schedule.Release;
import io.pacelink.transport.schedule.SentPacket;
import org.agrona.collections.LongArrayList;

/**
 * Plays the endpoint's side of a packet scheduler in virtual time: activates flows with their pacing, pulls each
 * release, sends the packet for its flow (ACK-only when the scheduler says so) and reports it; then jumps the clock to
 * the next release.
 */
@SuppressWarnings("deprecation") // SentPacket packs a test packet's length and kind in one value
final class SchedulerHarness
{
    static final int ACK_BYTES = 60;

    private final PacketScheduler<TestFlow> scheduler;
    private LongArrayList sendTimesNs;
    private TestFlow lastReleased;
    private boolean isLastReleaseAckOnly;
    private int dataPackets;

    SchedulerHarness(final PacketScheduler<TestFlow> scheduler)
    {
        this.scheduler = scheduler;
    }

    /**
     * @param sendTimesNs where to record the time of every data packet, or null.
     * @return this.
     */
    SchedulerHarness recordSendTimes(final LongArrayList sendTimesNs)
    {
        this.sendTimesNs = sendTimesNs;
        return this;
    }

    /**
     * Activate a flow with its current pacing rate and send quantum, as the endpoint does each duty cycle.
     */
    void activate(final TestFlow flow, final long nowNs)
    {
        scheduler.activate(flow, flow.pacingRateBytesPerSecond, flow.sendQuantumBytes, nowNs);
    }

    /**
     * Activate a flow with its current pacing rate, send quantum and a congestion window, as the endpoint does.
     */
    void activate(final TestFlow flow, final long congestionWindowBytes, final long nowNs)
    {
        scheduler.activate(flow, flow.pacingRateBytesPerSecond, flow.sendQuantumBytes, congestionWindowBytes, nowNs);
    }

    /**
     * Send everything the scheduler releases at {@code nowNs}, at most {@code maxPackets} packets.
     *
     * @return data packets sent.
     */
    int serve(final long nowNs, final int maxPackets)
    {
        dataPackets = 0;
        for (int i = 0; i < maxPackets && pullOne(nowNs); i++)
        {
            // each pull sent one packet
        }
        return dataPackets;
    }

    int serve(final long nowNs)
    {
        return serve(nowNs, Integer.MAX_VALUE);
    }

    /**
     * Send at most one packet.
     *
     * @return the flow released for it, or null if none was.
     */
    TestFlow releaseOne(final long nowNs)
    {
        lastReleased = null;
        pullOne(nowNs);
        return lastReleased;
    }

    private boolean pullOne(final long nowNs)
    {
        final Release<TestFlow> release = scheduler.next(nowNs);
        if (null == release)
        {
            return false;
        }
        final TestFlow flow = release.flow();
        final int sentPacket = sendPacket(flow, release.isAckOnly(), nowNs);
        scheduler.onSent(flow, SentPacket.lengthBytes(sentPacket), SentPacket.isAckEliciting(sentPacket), nowNs);
        return true;
    }

    /**
     * @return true if the last release was for an ACK-only packet.
     */
    boolean isLastReleaseAckOnly()
    {
        return isLastReleaseAckOnly;
    }

    /**
     * Serve at {@code startNs}, then at every release time up to {@code endNs} inclusive.
     *
     * @return the last time served.
     */
    long runUntil(final long startNs, final long endNs)
    {
        long nowNs = startNs;
        while (true)
        {
            serve(nowNs);
            final long nextNs = scheduler.nextReleaseTimeNs();
            if (nextNs > endNs)
            {
                return nowNs;
            }
            nowNs = nextNs;
        }
    }

    private int sendPacket(final TestFlow flow, final boolean ackOnly, final long nowNs)
    {
        lastReleased = flow;
        isLastReleaseAckOnly = ackOnly;
        flow.ackDue = false;
        if (ackOnly)
        {
            return SentPacket.pack(ACK_BYTES, false);
        }
        flow.sent(nowNs);
        if (null != sendTimesNs)
        {
            sendTimesNs.addLong(nowNs);
        }
        dataPackets++;
        return SentPacket.pack(flow.packetBytes, true);
    }
}
