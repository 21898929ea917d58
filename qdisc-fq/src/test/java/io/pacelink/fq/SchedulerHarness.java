package io.pacelink.fq;

import io.pacelink.transport.schedule.SchedulableFlow;
import org.agrona.collections.LongArrayList;

/**
 * Plays the endpoint's send loop against an {@link FqScheduler} in virtual time: ask for the next flow, build one
 * packet for it (ACK-only when the scheduler says so), report it, repeat; then jump the clock to the next release.
 */
final class SchedulerHarness
{
    static final int ACK_BYTES = 60;

    private final FqScheduler scheduler;
    private LongArrayList sendTimesNs;

    SchedulerHarness(final FqScheduler scheduler)
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
     * Send everything the scheduler releases at {@code nowNs}, at most {@code maxPackets} packets.
     *
     * @return data packets sent.
     */
    int serve(final long nowNs, final int maxPackets)
    {
        int dataPackets = 0;
        for (int i = 0; i < maxPackets; i++)
        {
            final SchedulableFlow next = scheduler.nextFlow(nowNs);
            if (null == next)
            {
                break;
            }

            final TestFlow flow = (TestFlow)next;
            if (scheduler.releasedForAckOnly())
            {
                flow.ackDue = false;
                scheduler.onPacketSent(flow, ACK_BYTES, true, nowNs);
            }
            else
            {
                flow.sent(nowNs);
                flow.ackDue = false;
                if (null != sendTimesNs)
                {
                    sendTimesNs.addLong(nowNs);
                }
                scheduler.onPacketSent(flow, flow.packetBytes, false, nowNs);
                dataPackets++;
            }
        }
        return dataPackets;
    }

    int serve(final long nowNs)
    {
        return serve(nowNs, Integer.MAX_VALUE);
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
}
