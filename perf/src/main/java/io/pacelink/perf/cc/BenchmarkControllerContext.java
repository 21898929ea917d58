package io.pacelink.perf.cc;

import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.ControllerRandom;
import io.pacelink.transport.cc.RttStats;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * The context a benchmarked controller is built with: the defaults a connection gets (RFC 9002 initial and minimum
 * windows, 25 ms peer max ACK delay, no parameters), an RTT source chosen by the benchmark, a seeded random source
 * and a private {@link CountersManager} for the controller's counters.
 */
public final class BenchmarkControllerContext implements ControllerContext
{
    /**
     * RFC 9000 section 18.2 default max_ack_delay.
     */
    public static final long DEFAULT_MAX_ACK_DELAY_NS = 25_000_000L;

    private static final int COUNTERS_METADATA_BYTES = 64 * 1024;
    private static final int COUNTERS_VALUES_BYTES = 16 * 1024;

    private final int maxDatagramSizeBytes;
    private final RttStats rttStats;
    private final ControllerRandom random;
    private final CountersManager countersManager = new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS_METADATA_BYTES)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(COUNTERS_VALUES_BYTES)));
    private final ControllerCounters counters = countersManager::newCounter;

    /**
     * @param maxDatagramSizeBytes the path's max datagram size.
     * @param rttStats             the RTT statistics the controller reads.
     * @param seed                 seed of the controller's random source.
     */
    public BenchmarkControllerContext(final int maxDatagramSizeBytes, final RttStats rttStats, final long seed)
    {
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.rttStats = rttStats;
        this.random = new SplittableControllerRandom(seed);
    }

    public int maxDatagramSizeBytes()
    {
        return maxDatagramSizeBytes;
    }

    public long maxAckDelayNs()
    {
        return DEFAULT_MAX_ACK_DELAY_NS;
    }

    public RttStats rttStats()
    {
        return rttStats;
    }

    public ControllerRandom random()
    {
        return random;
    }

    public ControllerParameters parameters()
    {
        return ControllerParameters.EMPTY;
    }

    public ControllerCounters counters()
    {
        return counters;
    }

    private static final class SplittableControllerRandom implements ControllerRandom
    {
        private final SplittableRandom random;

        SplittableControllerRandom(final long seed)
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
