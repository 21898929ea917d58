package io.pacelink.transport.stats;

import io.pacelink.transport.port.PortStats;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The endpoint's datagram port in its counters ({@link CounterType#PORT}): {@code port-batched} is 1 on the batched
 * port and 0 on the NIO port, and its label says which port and, after a fallback, why (docs/io.md); the others are
 * the port's {@link PortStats}, copied by the agent at most every {@link #PUBLISH_INTERVAL_NS} (the port counts in
 * plain fields, so nothing is paid per datagram). Written by the agent thread only.
 */
public final class PortCounters implements AutoCloseable
{
    /**
     * How often the agent copies the port's figures into the counters.
     */
    public static final long PUBLISH_INTERVAL_NS = 100_000_000L;

    /**
     * The name of the counter that tells the port kind.
     */
    public static final String PORT_BATCHED = "port-batched";

    private final AtomicCounter batched;
    private final AtomicCounter sendCalls;
    private final AtomicCounter datagramsSent;
    private final AtomicCounter gsoSends;
    private final AtomicCounter tosChanges;
    private final AtomicCounter sendBufferFull;
    private final AtomicCounter sendErrors;
    private final AtomicCounter receiveCalls;
    private final AtomicCounter receivesSkipped;
    private final AtomicCounter datagramsReceived;
    private final AtomicCounter groSuperDatagrams;
    private final AtomicCounter timestampedDatagrams;
    private final AtomicCounter arrivalAgeTotalNs;
    private final AtomicCounter truncatedDropped;
    private final AtomicCounter receiveErrors;
    private final AtomicCounter waits;
    private final AtomicCounter wokenByDatagram;
    private final AtomicCounter wokenByCommand;
    private final AtomicCounter waitTimeouts;
    private long nextPublishNs;

    /**
     * @param countersManager where to register.
     * @param isBatched       true on the batched port.
     * @param description     what the port is, e.g. {@code nio (batched port unavailable: ...)}.
     */
    public PortCounters(final CountersManager countersManager, final boolean isBatched, final String description)
    {
        final String owner = "port " + description;
        batched = CounterKey.newCounter(countersManager, CounterType.PORT, 0, PORT_BATCHED, owner + ": " +
            PORT_BATCHED);
        batched.setRelease(isBatched ? 1 : 0);
        sendCalls = newCounter(countersManager, owner, "send-calls");
        datagramsSent = newCounter(countersManager, owner, "port-datagrams-sent");
        gsoSends = newCounter(countersManager, owner, "gso-sends");
        tosChanges = newCounter(countersManager, owner, "tos-changes");
        sendBufferFull = newCounter(countersManager, owner, "send-buffer-full");
        sendErrors = newCounter(countersManager, owner, "send-errors");
        receiveCalls = newCounter(countersManager, owner, "receive-calls");
        receivesSkipped = newCounter(countersManager, owner, "receives-skipped");
        datagramsReceived = newCounter(countersManager, owner, "port-datagrams-received");
        groSuperDatagrams = newCounter(countersManager, owner, "gro-super-datagrams");
        timestampedDatagrams = newCounter(countersManager, owner, "timestamped-datagrams");
        arrivalAgeTotalNs = newCounter(countersManager, owner, "arrival-age-total-ns");
        truncatedDropped = newCounter(countersManager, owner, "truncated-dropped");
        receiveErrors = newCounter(countersManager, owner, "receive-errors");
        waits = newCounter(countersManager, owner, "waits");
        wokenByDatagram = newCounter(countersManager, owner, "woken-by-datagram");
        wokenByCommand = newCounter(countersManager, owner, "woken-by-command");
        waitTimeouts = newCounter(countersManager, owner, "wait-timeouts");
    }

    private static AtomicCounter newCounter(
        final CountersManager countersManager, final String owner, final String name)
    {
        return CounterKey.newCounter(countersManager, CounterType.PORT, 0, name, owner + ": " + name);
    }

    /**
     * Copy the port's figures if {@link #PUBLISH_INTERVAL_NS} has passed since the last copy.
     *
     * @param stats the port's figures.
     * @param nowNs the agent's clock.
     */
    public void publish(final PortStats stats, final long nowNs)
    {
        if (nowNs - nextPublishNs < 0)
        {
            return;
        }
        nextPublishNs = nowNs + PUBLISH_INTERVAL_NS;
        publishNow(stats);
    }

    /**
     * Copy the port's figures.
     *
     * @param stats the port's figures.
     */
    public void publishNow(final PortStats stats)
    {
        sendCalls.setRelease(stats.sendCalls());
        datagramsSent.setRelease(stats.datagramsSent());
        gsoSends.setRelease(stats.gsoSends());
        tosChanges.setRelease(stats.tosChanges());
        sendBufferFull.setRelease(stats.sendBufferFull());
        sendErrors.setRelease(stats.sendErrors());
        receiveCalls.setRelease(stats.receiveCalls());
        receivesSkipped.setRelease(stats.skippedReceives());
        datagramsReceived.setRelease(stats.datagramsReceived());
        groSuperDatagrams.setRelease(stats.groSuperDatagrams());
        timestampedDatagrams.setRelease(stats.timestampedDatagrams());
        arrivalAgeTotalNs.setRelease(stats.arrivalAgeTotalNs());
        truncatedDropped.setRelease(stats.truncatedDropped());
        receiveErrors.setRelease(stats.receiveErrors());
        waits.setRelease(stats.waits());
        wokenByDatagram.setRelease(stats.wokenByDatagram());
        wokenByCommand.setRelease(stats.wokenByCommand());
        waitTimeouts.setRelease(stats.waitTimeouts());
    }

    /**
     * @return 1 on the batched port, 0 on the NIO port.
     */
    public AtomicCounter batched()
    {
        return batched;
    }

    public AtomicCounter waits()
    {
        return waits;
    }

    public AtomicCounter wokenByCommand()
    {
        return wokenByCommand;
    }

    public AtomicCounter wokenByDatagram()
    {
        return wokenByDatagram;
    }

    public AtomicCounter waitTimeouts()
    {
        return waitTimeouts;
    }

    public AtomicCounter receivesSkipped()
    {
        return receivesSkipped;
    }

    public AtomicCounter sendCalls()
    {
        return sendCalls;
    }

    public AtomicCounter gsoSends()
    {
        return gsoSends;
    }

    public AtomicCounter tosChanges()
    {
        return tosChanges;
    }

    public void close()
    {
        batched.close();
        sendCalls.close();
        datagramsSent.close();
        gsoSends.close();
        tosChanges.close();
        sendBufferFull.close();
        sendErrors.close();
        receiveCalls.close();
        receivesSkipped.close();
        datagramsReceived.close();
        groSuperDatagrams.close();
        timestampedDatagrams.close();
        arrivalAgeTotalNs.close();
        truncatedDropped.close();
        receiveErrors.close();
        waits.close();
        wokenByDatagram.close();
        wokenByCommand.close();
        waitTimeouts.close();
    }
}
