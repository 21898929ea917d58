package io.pacelink.bbr;

import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.ControllerRandom;
import io.pacelink.transport.cc.RttStats;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A controller context for tests: fixed datagram size and initial window, an RFC 9002 RTT estimator the test (or
 * {@link FluidPath}) feeds, a seeded random source, and counters readable by name.
 */
public final class TestControllerContext implements ControllerContext
{
    private final int maxDatagramSizeBytes;
    private final long initialWindowBytes;
    private final TestRttStats rttStats = new TestRttStats();
    private final SeededRandom random;
    private final ControllerParameters parameters;
    private final CountersManager countersManager = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)), new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024)));
    private final Map<String, AtomicCounter> countersByName = new HashMap<>();

    /**
     * @param maxDatagramSizeBytes max datagram size.
     * @param seed                 seed of the random source.
     * @param parameters           controller parameters.
     */
    public TestControllerContext(final int maxDatagramSizeBytes, final long seed, final ControllerParameters parameters)
    {
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.initialWindowBytes = Math.min(10L * maxDatagramSizeBytes, Math.max(14_720L, 2L * maxDatagramSizeBytes));
        this.random = new SeededRandom(seed);
        this.parameters = parameters;
    }

    public int maxDatagramSizeBytes()
    {
        return maxDatagramSizeBytes;
    }

    public long initialWindowBytes()
    {
        return initialWindowBytes;
    }

    public long minimumWindowBytes()
    {
        return 2L * maxDatagramSizeBytes;
    }

    public long maxAckDelayNs()
    {
        return 25_000_000L;
    }

    public TestRttStats rttStats()
    {
        return rttStats;
    }

    public ControllerRandom random()
    {
        return random;
    }

    public ControllerParameters parameters()
    {
        return parameters;
    }

    public ControllerCounters counters()
    {
        return (name) ->
        {
            final AtomicCounter counter = countersManager.newCounter(name);
            countersByName.put(name, counter);
            return counter;
        };
    }

    /**
     * @param name a counter name the controller registered.
     * @return its current value.
     */
    public long counter(final String name)
    {
        final AtomicCounter counter = countersByName.get(name);
        if (null == counter)
        {
            throw new IllegalArgumentException("no counter " + name + "; have " + countersByName.keySet());
        }
        return counter.get();
    }

    /**
     * RFC 9002 section 5 estimator without ACK-delay adjustment (the test path has no delayed ACKs).
     */
    public static final class TestRttStats implements RttStats
    {
        private static final long INITIAL_RTT_NS = 333_000_000L;

        private boolean hasSample;
        private long minRttNs = INITIAL_RTT_NS;
        private long smoothedRttNs = INITIAL_RTT_NS;
        private long rttVarianceNs = INITIAL_RTT_NS / 2;
        private long latestRttNs = INITIAL_RTT_NS;

        /**
         * @param rttNs a new RTT sample.
         */
        public void onSample(final long rttNs)
        {
            latestRttNs = rttNs;
            if (!hasSample)
            {
                hasSample = true;
                minRttNs = rttNs;
                smoothedRttNs = rttNs;
                rttVarianceNs = rttNs / 2;
                return;
            }
            minRttNs = Math.min(minRttNs, rttNs);
            rttVarianceNs = (3 * rttVarianceNs + Math.abs(smoothedRttNs - rttNs)) / 4;
            smoothedRttNs = (7 * smoothedRttNs + rttNs) / 8;
        }

        public boolean hasSample()
        {
            return hasSample;
        }

        public long minRttNs()
        {
            return minRttNs;
        }

        public long smoothedRttNs()
        {
            return smoothedRttNs;
        }

        public long rttVarianceNs()
        {
            return rttVarianceNs;
        }

        public long latestRttNs()
        {
            return latestRttNs;
        }

        public long initialRttNs()
        {
            return INITIAL_RTT_NS;
        }
    }

    private static final class SeededRandom implements ControllerRandom
    {
        private final SplittableRandom random;

        SeededRandom(final long seed)
        {
            random = new SplittableRandom(seed);
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
}
