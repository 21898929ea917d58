package io.pacelink.transport.schedule;

import org.agrona.collections.Hashing;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The core's default {@link PacketScheduler} (name {@code rr}): round robin, one packet per turn, over the flows that
 * have work, each paced by its own release time.
 * <p>
 * Pacing: after a packet of {@code n} bytes a flow's release time moves forward by {@code n / pacingRate}; a flow that
 * fell behind (idle, or polled late) may catch up by at most {@code sendQuantumBytes} back to back, so the controller's
 * send quantum is the burst allowance that absorbs timer granularity (user-space timers wake up to about 1 ms late).
 * Pacing is charged in bytes, not packets. Pure ACKs are never paced or charged: a flow whose data is paced into the
 * future is still released for an ACK-only packet when an ACK is due.
 * <p>
 * Cost: finding the next flow walks the ring of active flows, O(active flows) when none may send; the
 * {@code qdisc-fq} module's {@code fq} scheduler keeps throttled flows in a heap instead. Single-threaded (the
 * endpoint agent); no allocation after {@link #addFlow(SchedulableFlow)}.
 *
 * @param <F> the endpoint's flows.
 */
public final class RoundRobinScheduler<F extends SchedulableFlow> implements PacketScheduler<F>
{
    /**
     * The name users select it by.
     */
    public static final String NAME = "rr";

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final int INITIAL_FLOW_CAPACITY = 64;

    private final Long2ObjectHashMap<RoundRobinFlow<F>> flowsById =
        new Long2ObjectHashMap<>(INITIAL_FLOW_CAPACITY, Hashing.DEFAULT_LOAD_FACTOR);
    private final Release<F> release = new Release<>();
    private RoundRobinFlow<F> cursor;
    private RoundRobinFlow<F> released;
    private int activeFlowCount;
    private boolean isReleasedForAckOnly;
    private long nextReleaseTimeNs = Long.MAX_VALUE;

    /**
     * {@inheritDoc}
     */
    public void addFlow(final F flow)
    {
        if (null == flowsById.get(flow.flowId()))
        {
            flowsById.put(flow.flowId(), new RoundRobinFlow<>(flow));
        }
    }

    /**
     * {@inheritDoc}
     */
    public void removeFlow(final F flow)
    {
        final RoundRobinFlow<F> node = flowsById.remove(flow.flowId());
        if (null != node && node.active)
        {
            deactivate(node);
        }
        if (released == node)
        {
            released = null;
        }
    }

    /**
     * {@inheritDoc}
     */
    public void activate(
        final F flow, final long pacingRateBytesPerSecond, final int sendQuantumBytes, final long nowNs)
    {
        final RoundRobinFlow<F> node = flowsById.get(flow.flowId());
        if (null == node)
        {
            return;
        }
        node.pacingRateBytesPerSecond = pacingRateBytesPerSecond;
        node.sendQuantumBytes = sendQuantumBytes;
        if (node.active)
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

        if (node.releaseTimeNs > nowNs && isPaced(pacingRateBytesPerSecond))
        {
            nextReleaseTimeNs = Math.min(nextReleaseTimeNs, node.releaseTimeNs);
        }
    }

    /**
     * {@inheritDoc}
     */
    public Release<F> next(final long nowNs)
    {
        final RoundRobinFlow<F> node = nextToSend(nowNs);
        released = node;
        return null == node ? null : release.set(node.flow, isReleasedForAckOnly);
    }

    /**
     * {@inheritDoc}
     */
    public void onSent(final F flow, final int lengthBytes, final boolean isAckEliciting, final long nowNs)
    {
        final RoundRobinFlow<F> node = released;
        released = null;
        if (null != node && node.flow == flow && !isReleasedForAckOnly && isAckEliciting)
        {
            pace(node, lengthBytes, nowNs);
        }
    }

    /**
     * {@inheritDoc}
     * <p>
     * True when the ring is empty and the flow's release time has come: {@link #activate} then makes it the ring's
     * only flow, at the cursor, and {@link #next} releases it, paced or not, for its ack-eliciting packet.
     */
    public boolean releasesAloneNow(final F flow, final long nowNs)
    {
        if (0 != activeFlowCount)
        {
            return false;
        }
        final RoundRobinFlow<F> node = flowsById.get(flow.flowId());
        return null != node && node.releaseTimeNs <= nowNs;
    }

    /**
     * {@inheritDoc}
     * <p>
     * The activation itself, then the release {@link #next} would have answered (the ring's only flow; the cursor
     * moves on to it again), then {@link #onSent}'s pacing.
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
        released = cursor;
        cursor = cursor.next;
        onSent(flow, lengthBytes, isAckEliciting, nowNs);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Computed by the walk of the {@link #next(long)} that found no flow to release, and kept up to date by
     * {@link #activate}.
     */
    public long nextReleaseTimeNs()
    {
        return nextReleaseTimeNs;
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

    /**
     * Walk the ring from the cursor: a flow with an ack-eliciting packet whose release time has come (or that is not
     * paced) goes first; a flow paced into the future that owes an ACK, or that has nothing but an ACK due, is
     * released for an ACK-only packet; a flow with nothing to send leaves the ring.
     *
     * @return the flow to send a packet for ({@link #isReleasedForAckOnly} says which kind), or null if none may.
     */
    private RoundRobinFlow<F> nextToSend(final long nowNs)
    {
        isReleasedForAckOnly = false;
        long earliestReleaseNs = Long.MAX_VALUE;
        RoundRobinFlow<F> node = cursor;
        for (int i = 0, count = activeFlowCount; i < count; i++)
        {
            final RoundRobinFlow<F> next = node.next;
            final int sendable = node.flow.sendable(nowNs);
            if (0 != (sendable & SchedulableFlow.ACK_ELICITING))
            {
                if (node.releaseTimeNs <= nowNs || !isPaced(node.pacingRateBytesPerSecond))
                {
                    cursor = next;
                    return node;
                }
                earliestReleaseNs = Math.min(earliestReleaseNs, node.releaseTimeNs);
                if (0 != (sendable & SchedulableFlow.ACK_DUE))
                {
                    return releaseForAckOnly(node);
                }
            }
            else if (0 != (sendable & SchedulableFlow.ACK_DUE))
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

    private RoundRobinFlow<F> releaseForAckOnly(final RoundRobinFlow<F> node)
    {
        isReleasedForAckOnly = true;
        cursor = node.next;
        return node;
    }

    /**
     * A flow behind schedule keeps at most (sendQuantum - size) bytes of catch-up credit, so the packet just sent plus
     * that credit is one send quantum back to back.
     */
    private static void pace(final RoundRobinFlow<?> node, final int sizeBytes, final long nowNs)
    {
        final long rateBytesPerSecond = node.pacingRateBytesPerSecond;
        if (!isPaced(rateBytesPerSecond))
        {
            return;
        }
        final long catchUpBytes = Math.max(0, node.sendQuantumBytes - sizeBytes);
        final long earliestBaseNs = nowNs - transmitTimeNs(catchUpBytes, rateBytesPerSecond);
        node.releaseTimeNs = Math.max(node.releaseTimeNs, earliestBaseNs) +
            transmitTimeNs(sizeBytes, rateBytesPerSecond);
    }

    private void deactivate(final RoundRobinFlow<F> node)
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
