package io.pacelink.transport.cc.testing;

import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.ControllerRandom;
import io.pacelink.transport.recovery.RecoveryConfig;
import io.pacelink.transport.recovery.RttEstimator;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A controller context for tests: fixed datagram size, RFC 9002 initial and minimum windows, the transport's RTT
 * estimator for the test (or {@link FluidPath}) to feed, a seeded random source, and counters readable by name.
 */
public final class FakeControllerContext implements ControllerContext, ControllerCounters, ControllerRandom
{
    /**
     * A QUIC-sized datagram.
     */
    public static final int DEFAULT_MAX_DATAGRAM_SIZE_BYTES = RecoveryConfig.DEFAULT_MAX_DATAGRAM_SIZE_BYTES;

    /**
     * Seed of the random source when the test does not choose one.
     */
    private static final long DEFAULT_SEED = 42;

    /**
     * The max_ack_delay the fake peer advertises; {@link FluidPath} uses it as the receiver's delayed-ACK timer.
     */
    private static final long MAX_ACK_DELAY_NS = 1_000_000L;

    private static final int COUNTER_VALUES_BUFFER_BYTES = 16 * 1024;
    private static final int COUNTER_METADATA_BUFFER_BYTES = 64 * 1024;

    private final int maxDatagramSizeBytes;
    private final ControllerParameters parameters;
    private final RttEstimator rttEstimator =
        new RttEstimator(RecoveryConfig.DEFAULT_INITIAL_RTT_NS, RecoveryConfig.DEFAULT_GRANULARITY_NS);
    private final SplittableRandom random;
    private final CountersManager countersManager = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTER_METADATA_BUFFER_BYTES)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTER_VALUES_BUFFER_BYTES)));
    private final Map<String, AtomicCounter> countersByName = new HashMap<>();

    /**
     * @param maxDatagramSizeBytes the datagram size.
     * @param seed                 seed of the random source.
     * @param parameters           the controller parameters.
     */
    public FakeControllerContext(
        final int maxDatagramSizeBytes, final long seed, final ControllerParameters parameters)
    {
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.random = new SplittableRandom(seed);
        this.parameters = parameters;
    }

    /**
     * @param parameters the controller parameters; datagrams of {@link #DEFAULT_MAX_DATAGRAM_SIZE_BYTES}, random
     *                   source seeded with {@link #DEFAULT_SEED}.
     */
    public FakeControllerContext(final ControllerParameters parameters)
    {
        this(DEFAULT_MAX_DATAGRAM_SIZE_BYTES, DEFAULT_SEED, parameters);
    }

    public int maxDatagramSizeBytes()
    {
        return maxDatagramSizeBytes;
    }

    public long maxAckDelayNs()
    {
        return MAX_ACK_DELAY_NS;
    }

    /**
     * @return the RTT estimator; feed it with {@link io.pacelink.transport.recovery.RttSampleFeeder}.
     */
    public RttEstimator rttStats()
    {
        return rttEstimator;
    }

    public ControllerRandom random()
    {
        return this;
    }

    public ControllerParameters parameters()
    {
        return parameters;
    }

    public ControllerCounters counters()
    {
        return this;
    }

    public AtomicCounter newCounter(final String name)
    {
        if (countersByName.containsKey(name))
        {
            throw new IllegalStateException("counter registered twice: " + name);
        }
        final AtomicCounter counter = countersManager.newCounter(name);
        countersByName.put(name, counter);
        return counter;
    }

    /**
     * @param name a counter the controller registered.
     * @return its current value.
     */
    public long counter(final String name)
    {
        final AtomicCounter counter = countersByName.get(name);
        if (null == counter)
        {
            throw new IllegalArgumentException("no counter " + name + "; registered: " + countersByName.keySet());
        }
        return counter.get();
    }

    public int nextInt(final int bound)
    {
        return random.nextInt(bound);
    }

    public double nextDouble()
    {
        return random.nextDouble();
    }
}
