package io.pacelink.sim.scenario;

import io.pacelink.sim.SimDatagramPort;
import io.pacelink.sim.SimulatedAgent;
import io.pacelink.transport.agent.WakeCoalescing;
import io.pacelink.transport.engine.EndpointCore;
import org.agrona.concurrent.status.CountersReader;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs one simulated host's endpoint core and the applications on it as one agent: applications act, the core does
 * its duty cycle, applications read what arrived, and if they answered, the core runs again at the same instant so
 * the answer leaves without waiting for the next event. When it runs next is the {@link AgentWakes} model's: at
 * every deadline and arrival ({@link AgentWakes#EXACT}), or as the real agent's {@link WakeCoalescing} plans its
 * sleeps ({@link AgentWakes#COALESCED}).
 */
final class EndpointDriver implements SimulatedAgent
{
    private final EndpointCore core;
    private final CountersReader counters;
    private final SimDatagramPort port;
    private final WakeCoalescing coalescing;
    private final List<HostApp> apps = new ArrayList<>();
    private long plannedWakeNs;
    private boolean isHoldingArrivals;
    private final int heldUnsentBytes;

    /**
     * @param core     the endpoint.
     * @param counters the counters it publishes.
     * @param port     its port (the plan of {@link AgentWakes#COALESCED} counts the port's datagrams).
     * @param wakes    when it runs.
     * @param pacerReleasesAhead true if its pacer releases ahead of its schedule: {@link AgentWakes#COALESCED}'s plan
     *                 then serves its releases on time, as the real agent's does ({@code Endpoint}).
     * @param heldUnsentBytes what its bulk applications keep unsent ({@link Scenario#senderUnsentBytes}), or 0 if they
     *                 fill the whole send buffer.
     */
    EndpointDriver(
        final EndpointCore core,
        final CountersReader counters,
        final SimDatagramPort port,
        final AgentWakes wakes,
        final boolean pacerReleasesAhead,
        final int heldUnsentBytes)
    {
        this.heldUnsentBytes = heldUnsentBytes;
        this.core = core;
        this.counters = counters;
        this.port = port;
        this.coalescing = AgentWakes.COALESCED == wakes ?
            new WakeCoalescing(core::nextReleaseQuantumNs, core::takeArrivalAckDelayNs, pacerReleasesAhead) : null;
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

    /**
     * @return what its bulk applications keep unsent, or 0 if they fill the whole send buffer.
     */
    int heldUnsentBytes()
    {
        return heldUnsentBytes;
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
        if (null != coalescing)
        {
            planWake(nowNs);
        }
        return work;
    }

    /**
     * The real agent runs its next cycle at once while something is due (its loop sleeps only after a cycle that
     * found nothing to do), and otherwise sleeps as {@link WakeCoalescing} plans: the same here, where a cycle takes
     * no time, so "something due" is a deadline at or before now.
     */
    private void planWake(final long nowNs)
    {
        final long applicationNs = applicationDeadlineNs();
        if (core.nextDeadlineNs() <= nowNs || applicationNs <= nowNs)
        {
            plannedWakeNs = nowNs;
            isHoldingArrivals = false;
            return;
        }
        plannedWakeNs = coalescing.plan(nowNs, WakeCoalescing.earlier(core.nextTimerDeadlineNs(), applicationNs),
            core.nextReleaseTimeNs(), port.receivedDatagrams(), port.sentDatagrams());
        isHoldingArrivals = coalescing.isHoldingArrivals();
    }

    private long applicationDeadlineNs()
    {
        long deadlineNs = Long.MAX_VALUE;
        for (int i = 0, size = apps.size(); i < size; i++)
        {
            deadlineNs = Math.min(deadlineNs, apps.get(i).nextEventNs());
        }
        return deadlineNs;
    }

    public long nextDeadlineNs()
    {
        return null == coalescing ? Math.min(core.nextDeadlineNs(), applicationDeadlineNs()) : plannedWakeNs;
    }

    public boolean wakesOnArrival()
    {
        return !isHoldingArrivals;
    }

    public String toString()
    {
        return "EndpointDriver{" + core.localAddress() + "}";
    }
}
