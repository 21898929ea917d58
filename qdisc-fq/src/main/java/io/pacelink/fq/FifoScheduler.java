package io.pacelink.fq;

import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.schedule.SchedulableFlow;
import org.agrona.collections.LongHashSet;

import java.util.ArrayDeque;

/**
 * No pacing at all (name {@code fifo}): flows are served in the order they were activated, and the flow at the head
 * sends for as long as it has a packet, so each connection leaves in cwnd-limited bursts. It exists to reproduce
 * "BBR without fq" (design.md section 7); the controllers' pacing rates are ignored.
 * <p>
 * Single-threaded; no allocation per packet (an array deque of flows and an Agrona {@link LongHashSet} of queued
 * flow ids, which grow only with the number of flows).
 */
public final class FifoScheduler implements PacketScheduler
{
    /**
     * The name users select it by.
     */
    public static final String NAME = "fifo";

    private static final int INITIAL_FLOW_CAPACITY = 64;

    private final ArrayDeque<SchedulableFlow> activeFlows = new ArrayDeque<>(INITIAL_FLOW_CAPACITY);
    private final LongHashSet activeFlowIds = new LongHashSet(INITIAL_FLOW_CAPACITY);
    private boolean releasedForAckOnly;

    /**
     * {@inheritDoc}
     * <p>
     * Nothing to do: the FIFO keeps no per-flow state beyond the queue of active flows.
     */
    public void addFlow(final SchedulableFlow flow)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void removeFlow(final SchedulableFlow flow)
    {
        if (activeFlowIds.remove(flow.flowId()))
        {
            activeFlows.remove(flow);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void activate(final SchedulableFlow flow, final long nowNs)
    {
        if (activeFlowIds.add(flow.flowId()))
        {
            activeFlows.offerLast(flow);
        }
    }

    /**
     * {@inheritDoc}
     */
    public SchedulableFlow nextFlow(final long nowNs)
    {
        releasedForAckOnly = false;
        SchedulableFlow head;
        while (null != (head = activeFlows.peekFirst()))
        {
            if (head.hasPacketToSend(nowNs))
            {
                return head;
            }
            if (head.hasAckDue(nowNs))
            {
                releasedForAckOnly = true;
                return head;
            }
            activeFlows.pollFirst();
            activeFlowIds.remove(head.flowId());
        }
        return null;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Nothing to account: no pacing, no credit.
     */
    public void onPacketSent(final SchedulableFlow flow, final int sizeBytes, final boolean ackOnly, final long nowNs)
    {
    }

    /**
     * {@inheritDoc}
     *
     * @return always {@link Long#MAX_VALUE}: nothing is ever throttled.
     */
    public long nextReleaseTimeNs()
    {
        return Long.MAX_VALUE;
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    /**
     * @return true if the flow last returned by {@link #nextFlow(long)} has only an ACK to send.
     */
    public boolean releasedForAckOnly()
    {
        return releasedForAckOnly;
    }

    /**
     * @return flows queued for service.
     */
    public int activeFlowCount()
    {
        return activeFlows.size();
    }
}
