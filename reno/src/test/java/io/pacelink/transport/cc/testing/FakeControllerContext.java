package io.pacelink.transport.cc.testing;

import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.ControllerRandom;
import io.pacelink.transport.cc.RttStats;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A controller context for tests: fixed datagram size, RFC 9002 initial and minimum windows, settable RTT
 * statistics, a seeded random source, and counters readable by name.
 */
public final class FakeControllerContext implements ControllerContext, ControllerCounters, ControllerRandom
{
    /**
     * A QUIC-sized datagram.
     */
    public static final int DEFAULT_MAX_DATAGRAM_SIZE_BYTES = 1200;

    private static final int MAX_COUNTERS = 64;
    private static final long MAX_ACK_DELAY_NS = 1_000_000L;

    private final int maxDatagramSizeBytes;
    private final ControllerParameters parameters;
    private final SettableRttStats rttStats = new SettableRttStats();
    private final SplittableRandom random = new SplittableRandom(42);
    private final UnsafeBuffer counterValues =
        new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_COUNTERS * CountersReader.COUNTER_LENGTH));
    private final Map<String, AtomicCounter> countersByName = new HashMap<>();

    /**
     * @param maxDatagramSizeBytes the datagram size.
     * @param parameters           the controller parameters.
     */
    public FakeControllerContext(final int maxDatagramSizeBytes, final ControllerParameters parameters)
    {
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.parameters = parameters;
    }

    /**
     * @param parameters the controller parameters; datagrams of {@link #DEFAULT_MAX_DATAGRAM_SIZE_BYTES}.
     */
    public FakeControllerContext(final ControllerParameters parameters)
    {
        this(DEFAULT_MAX_DATAGRAM_SIZE_BYTES, parameters);
    }

    public int maxDatagramSizeBytes()
    {
        return maxDatagramSizeBytes;
    }

    public long initialWindowBytes()
    {
        return Math.min(10L * maxDatagramSizeBytes, Math.max(14_720L, 2L * maxDatagramSizeBytes));
    }

    public long minimumWindowBytes()
    {
        return 2L * maxDatagramSizeBytes;
    }

    public long maxAckDelayNs()
    {
        return MAX_ACK_DELAY_NS;
    }

    public RttStats rttStats()
    {
        return rttStats;
    }

    /**
     * @return the RTT statistics, writable.
     */
    public SettableRttStats settableRttStats()
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
        final AtomicCounter counter = new AtomicCounter(counterValues, countersByName.size());
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
