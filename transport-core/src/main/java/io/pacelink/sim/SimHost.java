package io.pacelink.sim;

import io.pacelink.link.LinkPacket;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A simulated machine: one {@link SimDatagramPort} and the agents that use it. When a datagram is delivered to the
 * host, every agent's {@link SimulatedAgent#doWork(long)} runs at that virtual time, unless the agent holds arrivals
 * ({@link SimulatedAgent#wakesOnArrival()}); each agent also runs at its own {@link SimulatedAgent#nextDeadlineNs()}.
 */
public final class SimHost implements PacketSink
{
    /**
     * How often an agent may run at one virtual instant before the simulator calls it a livelock: an agent whose
     * deadline stays at or before now without its work ever finishing.
     */
    public static final int MAX_RUNS_AT_ONE_INSTANT = 1_000_000;

    private final Simulator simulator;
    private final String name;
    private final SimDatagramPort port;
    private final List<AgentEvent> agents = new ArrayList<>();
    private long deliveredDatagrams;
    private long interruptDelayNs;

    /**
     * @param simulator the simulator.
     * @param name      the host's name in messages.
     * @param address   the host's address (loopback range; never resolved).
     * @param uplink    where the host's datagrams go.
     */
    public SimHost(
        final Simulator simulator, final String name, final InetSocketAddress address, final PacketSink uplink)
    {
        this.simulator = simulator;
        this.name = name;
        this.port = new SimDatagramPort(simulator, address, uplink);
    }

    /**
     * @return the host's name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the host's address.
     */
    public InetSocketAddress address()
    {
        return port.localAddress();
    }

    /**
     * @return the port an endpoint on this host uses.
     */
    public SimDatagramPort port()
    {
        return port;
    }

    /**
     * Model a network card's receive interrupt moderation: a datagram's arrival runs the agents this long after it,
     * so the datagrams that arrive meanwhile are read by the same duty cycle, as a card that raises at most one
     * interrupt per {@code rx-usecs} ({@code ethtool -C}) wakes its driver once for all of them.
     *
     * @param delayNs how long after an arrival the agents run; 0 (the default) at the arrival itself.
     * @return this.
     */
    public SimHost interruptDelayNs(final long delayNs)
    {
        if (delayNs < 0)
        {
            throw new IllegalArgumentException("interrupt delay must not be negative: " + delayNs);
        }
        this.interruptDelayNs = delayNs;
        return this;
    }

    /**
     * Run an agent on this host from now on; its first {@code doWork} is at the current virtual time.
     *
     * @param agent the agent.
     */
    public void addAgent(final SimulatedAgent agent)
    {
        final AgentEvent event = new AgentEvent(simulator.nextEventId(), agent);
        agents.add(event);
        simulator.schedule(event, simulator.nowNs());
    }

    /**
     * Run every agent now, e.g. after scenario code has handed an agent new work outside {@code doWork}.
     */
    public void wake()
    {
        final long nowNs = simulator.nowNs();
        for (int i = 0, size = agents.size(); i < size; i++)
        {
            simulator.scheduleNoLaterThan(agents.get(i), nowNs);
        }
    }

    /**
     * @return datagrams delivered to this host.
     */
    public long deliveredDatagrams()
    {
        return deliveredDatagrams;
    }

    /**
     * Deliver a datagram to the host's port and wake its agents ({@link #interruptDelayNs} later), except those that
     * hold arrivals until their deadline ({@link SimulatedAgent#wakesOnArrival()}).
     *
     * @param packet the datagram.
     * @param nowNs  the virtual time.
     */
    public void accept(final LinkPacket packet, final long nowNs)
    {
        deliveredDatagrams++;
        port.deliver(packet, nowNs);
        final long wakeNs = nowNs + interruptDelayNs;
        for (int i = 0, size = agents.size(); i < size; i++)
        {
            final AgentEvent agent = agents.get(i);
            if (agent.wakesOnArrival)
            {
                simulator.scheduleNoLaterThan(agent, wakeNs);
            }
        }
    }

    private final class AgentEvent extends SimEvent
    {
        private final SimulatedAgent agent;
        private boolean wakesOnArrival = true;
        private long lastRunNs = Long.MIN_VALUE;
        private int runsAtThisInstant;

        AgentEvent(final int id, final SimulatedAgent agent)
        {
            super(id);
            this.agent = agent;
        }

        void fire(final long nowNs)
        {
            if (nowNs != lastRunNs)
            {
                lastRunNs = nowNs;
                runsAtThisInstant = 0;
            }
            else if (++runsAtThisInstant > MAX_RUNS_AT_ONE_INSTANT)
            {
                throw new IllegalStateException("agent " + agent + " on host " + name + " ran " +
                    MAX_RUNS_AT_ONE_INSTANT + " times at t=" + nowNs + "ns without its deadline moving on");
            }

            final int pendingBefore = port.pendingDatagrams();
            agent.doWork(nowNs);
            final int pendingAfter = port.pendingDatagrams();
            wakesOnArrival = agent.wakesOnArrival();

            // Datagrams left over from a bounded receive batch need another run at once; an agent that does not
            // read its port at all is not rerun for them (it would spin), only at its deadline or the next delivery.
            final long deadlineNs = pendingAfter > 0 && pendingAfter < pendingBefore ? nowNs : agent.nextDeadlineNs();
            if (deadlineNs != Long.MAX_VALUE)
            {
                simulator.scheduleNoLaterThan(this, Math.max(deadlineNs, nowNs));
            }
        }
    }
}
