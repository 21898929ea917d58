package io.pacelink.transport.engine;

import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerCounters;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.ControllerRandom;
import io.pacelink.transport.cc.RttStats;
import io.pacelink.transport.recovery.PathParameters;

/**
 * What one connection's congestion controller reads: the path values come live from the connection's
 * {@link PathParameters}, so a size negotiated down in the handshake, or the peer's max_ack_delay, is what the
 * controller sees.
 */
final class ConnectionControllerContext implements ControllerContext
{
    private final PathParameters path;
    private final RttStats rttStats;
    private final ControllerRandom random;
    private final ControllerParameters parameters;
    private final ControllerCounters counters;

    ConnectionControllerContext(
        final PathParameters path,
        final RttStats rttStats,
        final ControllerRandom random,
        final ControllerParameters parameters,
        final ControllerCounters counters)
    {
        this.path = path;
        this.rttStats = rttStats;
        this.random = random;
        this.parameters = parameters;
        this.counters = counters;
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
