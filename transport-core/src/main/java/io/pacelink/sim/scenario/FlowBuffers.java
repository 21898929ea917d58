package io.pacelink.sim.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.link.QueueConfig;
import io.pacelink.link.RateSchedule;
import org.agrona.concurrent.status.CountersReader;

import java.util.List;

/**
 * How much memory each simulated flow's endpoints get: connection buffers (the send buffer and the flow-control
 * window) sized from the flow's own RTT and its share of the bottleneck, and counters for the connections an
 * endpoint serves. A bulk sender fills its whole send buffer, so buffers sized from the whole link's BDP make a
 * thousand flows on a fast path need tens of gigabytes; sized from each flow's share they need megabytes, with room
 * to spare for a flow that takes several fair shares.
 */
final class FlowBuffers
{
    /**
     * The smallest buffer of a flow that has the path to itself.
     */
    static final int MIN_BUFFER_BYTES = 1 << 20;

    /**
     * The largest buffer, and that of a flow on a path without a rate.
     */
    static final int MAX_BUFFER_BYTES = 64 << 20;

    /**
     * The smallest buffer of a flow sharing the path: the smallest receive buffer the transport takes, 44 full
     * packets.
     */
    static final int MIN_SHARED_BUFFER_BYTES = 64 << 10;

    /**
     * How many fair shares of the path a flow may have in flight before its buffers limit it: a flow among many may
     * take several (CUBIC against NewReno, a short RTT against a long one, BBR against either).
     */
    static final int FAIR_SHARES = 4;

    /**
     * Counters an endpoint registers for itself, its scheduler and its security checks, with room to spare (51
     * today).
     */
    static final int ENDPOINT_COUNTERS = 128;

    /**
     * Counters a connection registers, its controller's included, with room to spare (42 today for BBR).
     */
    static final int CONNECTION_COUNTERS = 64;

    private FlowBuffers()
    {
    }

    /**
     * @param path       the bottleneck's two directions.
     * @param flows      the scenario's flows.
     * @param index      the flow.
     * @param durationNs the scenario's length.
     * @return the flow's buffer size in bytes, a power of two: what it needs alone, scaled by the share of the path
     * it has while fewest flows run beside it ({@link #sharedBufferBytes}).
     */
    static int bufferBytes(
        final PathSpec.Pair path, final List<FlowSpec> flows, final int index, final long durationNs)
    {
        final FlowSpec flow = flows.get(index);
        return sharedBufferBytes(path, flow.accessDelayNs(), fewestConcurrentFlows(flows, index, durationNs),
            flow.pattern().messageBytes());
    }

    /**
     * A flow's buffers when {@code concurrentFlows} flows share the bottleneck: what it would need alone
     * ({@link #aloneBufferBytes}) times {@code min(1, FAIR_SHARES / concurrentFlows)}, so up to four flows keep
     * what they would have alone and more flows get four fair shares each; never below
     * {@link #MIN_SHARED_BUFFER_BYTES} nor below two of the flow's messages.
     *
     * @param path            the bottleneck's two directions.
     * @param accessDelayNs   the flow's access delay, at each of its two hosts.
     * @param concurrentFlows the fewest flows (itself included) that share the bottleneck while it runs.
     * @param messageBytes    the size of the messages its application offers.
     * @return the buffer size in bytes, a power of two.
     */
    static int sharedBufferBytes(
        final PathSpec.Pair path, final long accessDelayNs, final int concurrentFlows, final int messageBytes)
    {
        final double share = Math.min(1.0, FAIR_SHARES / (double)Math.max(1, concurrentFlows));
        final long bytes = Math.max(Math.max(MIN_SHARED_BUFFER_BYTES, 2L * (messageBytes + Integer.BYTES)),
            (long)Math.ceil(wantedAloneBytes(path, accessDelayNs) * share));
        return (int)Long.highestOneBit(Math.min(MAX_BUFFER_BYTES, bytes) * 2 - 1);
    }

    /**
     * A flow's buffers when it has the path to itself: four times its BDP plus the bottleneck queue, so neither flow
     * control nor the send buffer caps it below what its path allows. Its BDP is the bottleneck rate times its own
     * base RTT: the bottleneck's two delays plus its hosts' access delays, each crossed twice.
     *
     * @param path          the bottleneck's two directions.
     * @param accessDelayNs the flow's access delay, at each of its two hosts.
     * @return the buffer size in bytes: a power of two from 1 MiB to 64 MiB, 64 MiB on a path without a rate.
     */
    static int aloneBufferBytes(final PathSpec.Pair path, final long accessDelayNs)
    {
        return (int)Long.highestOneBit(wantedAloneBytes(path, accessDelayNs) * 2 - 1);
    }

    private static long wantedAloneBytes(final PathSpec.Pair path, final long accessDelayNs)
    {
        final long baseRttNs = path.baseRttNs() + 4 * accessDelayNs;
        final long rateBitsPerSecond = path.forward().rate().nominalBitsPerSecond();
        if (rateBitsPerSecond <= 0 || rateBitsPerSecond == RateSchedule.UNLIMITED_BITS_PER_SECOND)
        {
            return MAX_BUFFER_BYTES;
        }
        final double bdpBytes = rateBitsPerSecond / 8.0 * baseRttNs / 1e9;
        final QueueConfig queue = path.forward().queueConfig(path.baseRttNs(), 0);
        final double queueBytes = Math.min(queue.limitBytes(), queue.limitPackets() * 1500.0);
        final double wantedBytes = 4 * (bdpBytes + queueBytes);
        return Math.max(MIN_BUFFER_BYTES, Math.min(MAX_BUFFER_BYTES, (long)wantedBytes));
    }

    /**
     * @param flows      the scenario's flows.
     * @param index      the flow.
     * @param durationNs the scenario's length.
     * @return the fewest flows active at once (the flow itself included) during the flow's own window: its share of
     * the bottleneck is largest then. A flow is active from its start until its stop or the end of the run.
     */
    static int fewestConcurrentFlows(final List<FlowSpec> flows, final int index, final long durationNs)
    {
        final FlowSpec flow = flows.get(index);
        final long endNs = Math.min(flow.stopNs(), durationNs);
        // The count drops only when a flow stops, so its minimum is at the flow's start or at another's stop.
        int fewest = activeAt(flows, flow.startNs(), durationNs);
        for (final FlowSpec other : flows)
        {
            final long stopNs = Math.min(other.stopNs(), durationNs);
            if (stopNs > flow.startNs() && stopNs < endNs)
            {
                fewest = Math.min(fewest, activeAt(flows, stopNs, durationNs));
            }
        }
        return Math.max(1, fewest);
    }

    /**
     * @param connections the connections an endpoint serves.
     * @return the size of its counters' values buffer: room for the endpoint's own counters and every connection's.
     */
    static int countersValuesBytes(final int connections)
    {
        return CountersReader.COUNTER_LENGTH * (ENDPOINT_COUNTERS + CONNECTION_COUNTERS * Math.max(1, connections));
    }

    private static int activeAt(final List<FlowSpec> flows, final long timeNs, final long durationNs)
    {
        int active = 0;
        for (final FlowSpec flow : flows)
        {
            if (flow.startNs() <= timeNs && timeNs < Math.min(flow.stopNs(), durationNs))
            {
                active++;
            }
        }
        return active;
    }
}
