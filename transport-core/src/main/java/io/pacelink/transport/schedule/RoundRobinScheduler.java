package io.pacelink.transport.schedule;

import org.agrona.collections.Hashing;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The core's default {@link PacketScheduler} (name {@code rr}): round robin, one packet per turn, over the flows that
 * have work, each paced by its own release time (design.md section 7).
 * <p>
 * Pacing: after a packet of {@code n} bytes a flow's release time moves forward by {@code n / pacingRate}; a flow
 * that fell behind (idle, or polled late) may catch up by at most {@code sendQuantumBytes} back to back, so the
 * controller's send quantum is the burst allowance that absorbs timer granularity (reference section 10 item 1).
 * Pacing is charged in bytes, not packets (reference section 10 item 14). Pure ACKs are never paced or charged: a
 * flow whose data is paced into the future is still released for an ACK-only packet when an ACK is due, and
 * {@link #releasedForAckOnly()} tells the endpoint to build nothing else.
 * <p>
 * Cost: {@link #nextFlow(long)} walks the ring of active flows, O(active flows) when none may send; the
 * {@code qdisc-fq} module's {@code fq} scheduler keeps throttled flows in a heap instead. Single-threaded (the
 * endpoint agent); no allocation after {@link #addFlow(SchedulableFlow)}.
 */
public final class RoundRobinScheduler implements PacketScheduler
{
    /**
     * The name users select it by.
     */
    public static final String NAME = "rr";

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final int INITIAL_FLOW_CAPACITY = 64;

    private final Long2ObjectHashMap<RoundRobinFlow> flowsById =
        new Long2ObjectHashMap<>(INITIAL_FLOW_CAPACITY, Hashing.DEFAULT_LOAD_FACTOR);
    private RoundRobinFlow cursor;
    private int activeFlowCount;
    private boolean releasedForAckOnly;
    private long nextReleaseTimeNs = Long.MAX_VALUE;

    /**
     * {@inheritDoc}
     */
    public void addFlow(final SchedulableFlow flow)
    {
        if (null == flowsById.get(flow.flowId()))
        {
            flowsById.put(flow.flowId(), new RoundRobinFlow(flow));
        }
    }

    /**
     * {@inheritDoc}
     */
    public void removeFlow(final SchedulableFlow flow)
    {
        final RoundRobinFlow node = flowsById.remove(flow.flowId());
        if (null != node && node.active)
        {
            deactivate(node);
        }
    }

    /**
     * {@inheritDoc}
     */
    public void activate(final SchedulableFlow flow, final long nowNs)
    {
        final RoundRobinFlow node = flowsById.get(flow.flowId());
        if (null == node || node.active)
        {
            return;
        }

        node.active = true;
        activeFlowCount++;
        if (null == cursor)
        {
            node.previous = node;
            node.next = node;
            cursor = node;
        }
        else
        {
            // Join at the end of the current round: just before the flow whose turn is next.
            node.next = cursor;
            node.previous = cursor.previous;
            cursor.previous.next = node;
            cursor.previous = node;
        }

        if (node.releaseTimeNs > nowNs && isPaced(flow.pacingRateBytesPerSecond()))
        {
            nextReleaseTimeNs = Math.min(nextReleaseTimeNs, node.releaseTimeNs);
        }
    }

    /**
     * {@inheritDoc}
     */
    public SchedulableFlow nextFlow(final long nowNs)
    {
        releasedForAckOnly = false;
        long earliestReleaseNs = Long.MAX_VALUE;
        RoundRobinFlow node = cursor;
        for (int i = 0, count = activeFlowCount; i < count; i++)
        {
            final RoundRobinFlow next = node.next;
            final SchedulableFlow flow = node.flow;
            if (flow.hasPacketToSend(nowNs))
            {
                if (node.releaseTimeNs <= nowNs || !isPaced(flow.pacingRateBytesPerSecond()))
                {
                    cursor = next;
                    return flow;
                }
                earliestReleaseNs = Math.min(earliestReleaseNs, node.releaseTimeNs);
                if (flow.hasAckDue(nowNs))
                {
                    return releaseForAckOnly(node);
                }
            }
            else if (flow.hasAckDue(nowNs))
            {
                return releaseForAckOnly(node);
            }
            else
            {
                deactivate(node);
            }
            node = next;
        }

        nextReleaseTimeNs = earliestReleaseNs;
        return null;
    }

    /**
     * {@inheritDoc}
     */
    public void onPacketSent(final SchedulableFlow flow, final int sizeBytes, final boolean ackOnly, final long nowNs)
    {
        if (ackOnly)
        {
            return;
        }

        final long rateBytesPerSecond = flow.pacingRateBytesPerSecond();
        final RoundRobinFlow node = flowsById.get(flow.flowId());
        if (null == node || !isPaced(rateBytesPerSecond))
        {
            return;
        }

        // A flow behind schedule keeps at most (sendQuantum - size) bytes of catch-up credit, so the packet just sent
        // plus that credit is one send quantum back to back (design.md section 7).
        final long catchUpBytes = Math.max(0, flow.sendQuantumBytes() - sizeBytes);
        final long earliestBaseNs = nowNs - transmitTimeNs(catchUpBytes, rateBytesPerSecond);
        node.releaseTimeNs = Math.max(node.releaseTimeNs, earliestBaseNs) +
            transmitTimeNs(sizeBytes, rateBytesPerSecond);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Valid after {@link #nextFlow(long)} returned null (it is computed by that walk) and kept up to date by
     * {@link #activate(SchedulableFlow, long)}.
     */
    public long nextReleaseTimeNs()
    {
        return nextReleaseTimeNs;
    }

    /**
     * @return true if the flow last returned by {@link #nextFlow(long)} was released only to send an ACK: its data
     * is paced into the future, so the endpoint must build an ACK-only packet.
     */
    public boolean releasedForAckOnly()
    {
        return releasedForAckOnly;
    }

    /**
     * @return flows registered with {@link #addFlow(SchedulableFlow)}.
     */
    public int flowCount()
    {
        return flowsById.size();
    }

    /**
     * @return flows in the round-robin ring (announced with work and not yet found idle).
     */
    public int activeFlowCount()
    {
        return activeFlowCount;
    }

    /**
     * {@inheritDoc}
     */
    public String name()
    {
        return NAME;
    }

    private SchedulableFlow releaseForAckOnly(final RoundRobinFlow node)
    {
        releasedForAckOnly = true;
        cursor = node.next;
        return node.flow;
    }

    private void deactivate(final RoundRobinFlow node)
    {
        node.active = false;
        activeFlowCount--;
        if (node.next == node)
        {
            cursor = null;
        }
        else
        {
            node.previous.next = node.next;
            node.next.previous = node.previous;
            if (cursor == node)
            {
                cursor = node.next;
            }
        }
        node.next = null;
        node.previous = null;
    }

    private static boolean isPaced(final long rateBytesPerSecond)
    {
        return rateBytesPerSecond > 0 && rateBytesPerSecond != Long.MAX_VALUE;
    }

    private static long transmitTimeNs(final long bytes, final long rateBytesPerSecond)
    {
        return bytes * NANOS_PER_SECOND / rateBytesPerSecond;
    }
}
