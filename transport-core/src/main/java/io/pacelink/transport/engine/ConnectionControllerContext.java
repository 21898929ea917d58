package io.pacelink.transport.engine;

import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.ControllerRandom;
import io.pacelink.transport.cc.RttStats;

/**
 * What one connection's congestion controller gets at construction.
 */
final class ConnectionControllerContext implements ControllerContext
{
    private final int maxDatagramSizeBytes;
    private final long maxAckDelayNs;
    private final RttStats rttStats;
    private final ControllerRandom random;
    private final ControllerParameters parameters;
    private final ControllerCounters counters;

    ConnectionControllerContext(
        final int maxDatagramSizeBytes,
        final long maxAckDelayNs,
        final RttStats rttStats,
        final ControllerRandom random,
        final ControllerParameters parameters,
        final ControllerCounters counters)
    {
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.maxAckDelayNs = maxAckDelayNs;
        this.rttStats = rttStats;
        this.random = random;
        this.parameters = parameters;
        this.counters = counters;
    }

    public int maxDatagramSizeBytes()
    {
        return maxDatagramSizeBytes;
    }

    public long maxAckDelayNs()
    {
        return maxAckDelayNs;
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
        return parameters;
    }

    public ControllerCounters counters()
    {
        return counters;
    }
}
