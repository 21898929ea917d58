package io.pacelink.fq;

import io.pacelink.transport.schedule.PacketScheduler;
import io.pacelink.transport.schedule.Release;
import io.pacelink.transport.schedule.SchedulableFlow;
import org.agrona.collections.LongHashSet;

import java.util.ArrayDeque;

/**
 * No pacing at all (name {@code fifo}): flows are served in the order they were activated, and the flow at the head
 * sends for as long as it has a packet, so each connection leaves in cwnd-limited bursts. It exists to reproduce "BBR
 * without fq"; the controllers' pacing rates are ignored.
 * <p>
 * Single-threaded; no allocation per packet (an array deque of flows and an Agrona {@link LongHashSet} of queued
 * flow ids, which grow only with the number of flows).
 *
 * @param <F> the endpoint's flows.
 */
public final class FifoScheduler<F extends SchedulableFlow> implements PacketScheduler<F>
{
    /**
     * The name users select it by.
     */
    public static final String NAME = "fifo";

    private static final int INITIAL_FLOW_CAPACITY = 64;

    private final ArrayDeque<F> activeFlows = new ArrayDeque<>(INITIAL_FLOW_CAPACITY);
    private final LongHashSet activeFlowIds = new LongHashSet(INITIAL_FLOW_CAPACITY);
    private final Release<F> release = new Release<>();

    /**
     * {@inheritDoc}
     * <p>
     * Nothing to do: the FIFO keeps no per-flow state beyond the queue of active flows.
     */
    public void addFlow(final F flow)
    {
    }

    /**
     * {@inheritDoc}
     */
    public void removeFlow(final F flow)
    {
        if (activeFlowIds.remove(flow.flowId()))
        {
            activeFlows.remove(flow);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * The pacing rate and send quantum are ignored.
     */
    public void activate(
        final F flow, final long pacingRateBytesPerSecond, final int sendQuantumBytes, final long nowNs)
    {
        if (activeFlowIds.add(flow.flowId()))
        {
            activeFlows.offerLast(flow);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * The head flow is released while it has an ack-eliciting packet, or its due ACK; a flow with nothing leaves the
     * queue.
     */
    public Release<F> next(final long nowNs)
    {
        F head;
        while (null != (head = activeFlows.peekFirst()))
        {
            final int sendable = head.sendable(nowNs);
            if (0 != sendable)
            {
                return release.set(head, 0 == (sendable & SchedulableFlow.ACK_ELICITING));
            }
            activeFlows.pollFirst();
            activeFlowIds.remove(head.flowId());
        }
        return null;
    }

    /**
     * {@inheritDoc}
     * <p>
     * Nothing is charged: nothing is paced.
     */
    public void onSent(final F flow, final int lengthBytes, final boolean isAckEliciting, final long nowNs)
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
     * @return flows queued for service.
     */
    public int activeFlowCount()
    {
        return activeFlows.size();
    }
}
