package io.pacelink.sim.scenario;

import io.pacelink.sim.SimulatedAgent;
import io.pacelink.transport.engine.EndpointCore;
import org.agrona.concurrent.status.CountersReader;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs one simulated host's endpoint core and the applications on it as one agent: applications act, the core does
 * its duty cycle, applications read what arrived, and if they answered, the core runs again at the same instant so
 * the answer leaves without waiting for the next event.
 */
final class EndpointDriver implements SimulatedAgent
{
    private final EndpointCore core;
    private final CountersReader counters;
    private final List<HostApp> apps = new ArrayList<>();

    EndpointDriver(final EndpointCore core, final CountersReader counters)
    {
        this.core = core;
        this.counters = counters;
    }

    EndpointCore core()
    {
        return core;
    }

    /**
     * @return the counters the core and its connections' controllers publish.
     */
    CountersReader counters()
    {
        return counters;
    }

    void add(final HostApp app)
    {
        apps.add(app);
    }

    public int doWork(final long nowNs)
    {
        for (int i = 0, size = apps.size(); i < size; i++)
        {
            apps.get(i).beforeWork(nowNs);
        }
        int work = core.doWork(nowNs);
        int offered = 0;
        for (int i = 0, size = apps.size(); i < size; i++)
        {
            offered += apps.get(i).afterWork(nowNs);
        }
        if (offered > 0)
        {
            work += core.doWork(nowNs);
        }
        return work;
    }

    public long nextDeadlineNs()
    {
        long deadlineNs = core.nextDeadlineNs();
        for (int i = 0, size = apps.size(); i < size; i++)
        {
            deadlineNs = Math.min(deadlineNs, apps.get(i).nextEventNs());
        }
        return deadlineNs;
    }

    public String toString()
    {
        return "EndpointDriver{" + core.localAddress() + "}";
    }
}
