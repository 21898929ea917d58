package io.pacelink.transport.agent;

import io.pacelink.transport.engine.EndpointCore;
import io.pacelink.transport.stats.CountersFile;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * Runs an {@link EndpointCore} as an Agrona agent: reads the clock once per duty cycle and hands the time down
 * (design.md section 4: the core itself never reads a clock), and keeps the counters file's heartbeat fresh so
 * {@code pacelink stat} can tell a running endpoint from a dead or hung one.
 */
public final class EndpointAgent implements Agent
{
    private final EndpointCore core;
    private final NanoClock clock;
    private final CountersFile countersFile;
    private final String roleName;

    /**
     * @param core         the protocol core.
     * @param clock        the clock read once per duty cycle.
     * @param countersFile the endpoint's counters file, or null if its counters are in memory only.
     */
    public EndpointAgent(final EndpointCore core, final NanoClock clock, final CountersFile countersFile)
    {
        this.core = core;
        this.clock = clock;
        this.countersFile = countersFile;
        this.roleName = "pacelink-" + core.localAddress();
    }

    public int doWork()
    {
        final long nowNs = clock.nanoTime();
        if (null != countersFile)
        {
            countersFile.heartbeat(nowNs);
        }
        return core.doWork(nowNs);
    }

    /**
     * Close the core and delete the counters file: in SHARED mode the application's runner ends the endpoint here,
     * without calling {@code Endpoint.close()}.
     */
    public void onClose()
    {
        core.close();
        CloseHelper.close(countersFile);
    }

    public String roleName()
    {
        return roleName;
    }

    /**
     * @return the protocol core.
     */
    public EndpointCore core()
    {
        return core;
    }
}
