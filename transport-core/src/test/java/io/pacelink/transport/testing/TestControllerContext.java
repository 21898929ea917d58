package io.pacelink.transport.testing;

import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.ControllerRandom;
import io.pacelink.transport.cc.RttStats;
import io.pacelink.transport.recovery.PathParameters;
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
 * The context a controller under test is built with, as a connection would build it: the path's datagram size and
 * the peer's max_ack_delay in a {@link PathParameters}, the RFC 9002 initial and minimum windows derived from them, an
 * {@link RttEstimator} that a {@link ScriptedPath}'s real loss recovery feeds (or any other RTT source, for replays),
 * a seeded random source, the controller's parameters and counters readable by name.
 */
public final class TestControllerContext implements ControllerContext, ControllerCounters, ControllerRandom
{
    /**
     * The smallest maximum datagram size every QUIC path supports (RFC 9000 section 14).
     */
    public static final int DEFAULT_MAX_DATAGRAM_SIZE_BYTES = 1200;

    /**
     * The max_ack_delay of the test's peer; a {@link ScriptedPath}'s receiver delays stretch ACKs by at most this.
     */
    public static final long PEER_MAX_ACK_DELAY_NS = 1_000_000L;

    /**
     * Seed of the random source when the test does not choose one.
     */
    private static final long DEFAULT_SEED = 42;

    private static final int COUNTER_VALUES_BUFFER_BYTES = 16 * 1024;
    private static final int COUNTER_METADATA_BUFFER_BYTES = 64 * 1024;

    private final PathParameters path;
    private final ControllerParameters parameters;
    private final RttStats rttStats;
    private final RttEstimator rttEstimator;
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
    public TestControllerContext(
        final int maxDatagramSizeBytes, final long seed, final ControllerParameters parameters)
    {
        this(maxDatagramSizeBytes, seed, parameters, new RttEstimator(
            RecoveryConfig.DEFAULT_INITIAL_RTT_NS, RecoveryConfig.DEFAULT_GRANULARITY_NS));
    }

    /**
     * @param parameters the controller parameters; datagrams of {@link #DEFAULT_MAX_DATAGRAM_SIZE_BYTES}, random
     *                   source seeded with {@link #DEFAULT_SEED}.
     */
    public TestControllerContext(final ControllerParameters parameters)
    {
        this(DEFAULT_MAX_DATAGRAM_SIZE_BYTES, DEFAULT_SEED, parameters);
    }

    /**
     * A context whose controller reads RTT statistics from elsewhere, e.g. a replay of recorded ones; it cannot drive
     * a {@link ScriptedPath}.
     *
     * @param maxDatagramSizeBytes the datagram size.
     * @param seed                 seed of the random source.
     * @param parameters           the controller parameters.
     * @param rttStats             the RTT statistics the controller reads.
     */
    public TestControllerContext(
        final int maxDatagramSizeBytes,
        final long seed,
        final ControllerParameters parameters,
        final RttStats rttStats)
    {
        this.path = new PathParameters(maxDatagramSizeBytes, PEER_MAX_ACK_DELAY_NS);
        this.random = new SplittableRandom(seed);
        this.parameters = parameters;
        this.rttStats = rttStats;
        this.rttEstimator = rttStats instanceof RttEstimator ? (RttEstimator)rttStats : null;
    }

    /**
     * @return the path values the controller reads and the transport owns.
     */
    public PathParameters path()
    {
        return path;
    }

    /**
     * @return the RTT estimator the connection's loss recovery feeds.
     * @throws IllegalStateException if this context was built with another RTT source.
     */
    public RttEstimator rttEstimator()
    {
        if (null == rttEstimator)
        {
            throw new IllegalStateException("this context reads RTT statistics from " + rttStats);
        }
        return rttEstimator;
    }

    public int maxDatagramSizeBytes()
    {
        return path.maxDatagramSizeBytes();
    }

    public long maxAckDelayNs()
    {
        return path.peerMaxAckDelayNs();
    }

    public RttStats rttStats()
    {
        return rttStats;
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
