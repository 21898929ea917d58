package io.pacelink.transport.agent;

import io.pacelink.transport.engine.EndpointCore;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * Runs an {@link EndpointCore} as an Agrona agent: reads the clock once per duty cycle and hands the time down
 * (design.md section 4: the core itself never reads a clock).
 */
public final class EndpointAgent implements Agent
{
    private final EndpointCore core;
    private final NanoClock clock;
    private final String roleName;

    /**
     * @param core  the protocol core.
     * @param clock the clock read once per duty cycle.
     */
    public EndpointAgent(final EndpointCore core, final NanoClock clock)
    {
        this.core = core;
        this.clock = clock;
        this.roleName = "pacelink-" + core.localAddress();
    }

    public int doWork()
    {
        return core.doWork(clock.nanoTime());
    }

    public void onClose()
    {
        core.close(clock.nanoTime());
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
