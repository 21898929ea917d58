package io.pacelink.transport.stats;

import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The endpoint-wide ("system") counters. Written by the agent thread only; readable from any thread or, when the
 * counters file is memory-mapped, from another process.
 */
public final class EndpointCounters implements AutoCloseable
{
    private final AtomicCounter datagramsReceived;
    private final AtomicCounter datagramsSent;
    private final AtomicCounter bytesReceived;
    private final AtomicCounter bytesSent;
    private final AtomicCounter malformedDropped;
    private final AtomicCounter unknownConnection;
    private final AtomicCounter duplicatePackets;
    private final AtomicCounter sendFailures;
    private final AtomicCounter errors;
    private final AtomicCounter connectionsOpened;
    private final AtomicCounter connectionsClosed;
    private final AtomicCounter connectionsRejected;
    private final AtomicCounter connectionsRefusedLimit;
    private final AtomicCounter connectionsRefusedCounters;
    private final AtomicCounter protocolViolations;
    private final AtomicCounter portUnreachable;
    private final AtomicCounter longestDutyCycleNs;

    /**
     * @param countersManager where to register the counters.
     * @param endpointName    label prefix, e.g. the bound address.
     */
    public EndpointCounters(final CountersManager countersManager, final String endpointName)
    {
        datagramsReceived = newCounter(countersManager, endpointName, "datagrams-received");
        datagramsSent = newCounter(countersManager, endpointName, "datagrams-sent");
        bytesReceived = newCounter(countersManager, endpointName, "bytes-received");
        bytesSent = newCounter(countersManager, endpointName, "bytes-sent");
        malformedDropped = newCounter(countersManager, endpointName, "malformed-datagrams-dropped");
        unknownConnection = newCounter(countersManager, endpointName, "packets-for-unknown-connection");
        duplicatePackets = newCounter(countersManager, endpointName, "duplicate-packets-dropped");
        sendFailures = newCounter(countersManager, endpointName, "send-failures");
        errors = newCounter(countersManager, endpointName, "errors");
        connectionsOpened = newCounter(countersManager, endpointName, "connections-opened");
        connectionsClosed = newCounter(countersManager, endpointName, "connections-closed");
        connectionsRejected = newCounter(countersManager, endpointName, "connections-rejected");
        connectionsRefusedLimit = newCounter(countersManager, endpointName, "connections-refused-limit");
        connectionsRefusedCounters = newCounter(countersManager, endpointName, "connections-refused-counters");
        protocolViolations = newCounter(countersManager, endpointName, "protocol-violations");
        portUnreachable = newCounter(countersManager, endpointName, "port-unreachable-reports");
        longestDutyCycleNs = newCounter(countersManager, endpointName, "longest-duty-cycle-ns");
    }

    /**
     * Register an endpoint-wide counter: owner id 0, labelled with the endpoint's name.
     */
    static AtomicCounter newCounter(
        final CountersManager countersManager, final String endpointName, final String name)
    {
        return CounterKey.newCounter(countersManager, CounterType.SYSTEM, 0, name, endpointName + ": " + name);
    }

    public AtomicCounter datagramsReceived()
    {
        return datagramsReceived;
    }

    public AtomicCounter datagramsSent()
    {
        return datagramsSent;
    }

    public AtomicCounter bytesReceived()
    {
        return bytesReceived;
    }

    public AtomicCounter bytesSent()
    {
        return bytesSent;
    }

    public AtomicCounter malformedDropped()
    {
        return malformedDropped;
    }

    public AtomicCounter unknownConnection()
    {
        return unknownConnection;
    }

    public AtomicCounter duplicatePackets()
    {
        return duplicatePackets;
    }

    public AtomicCounter sendFailures()
    {
        return sendFailures;
    }

    public AtomicCounter errors()
    {
        return errors;
    }

    public AtomicCounter connectionsOpened()
    {
        return connectionsOpened;
    }

    public AtomicCounter connectionsClosed()
    {
        return connectionsClosed;
    }

    public AtomicCounter connectionsRejected()
    {
        return connectionsRejected;
    }

    /**
     * @return connections refused because the endpoint held {@code maxConnections} (also in
     * {@link #connectionsRejected()}).
     */
    public AtomicCounter connectionsRefusedLimit()
    {
        return connectionsRefusedLimit;
    }

    /**
     * @return connections refused because their counters did not fit the counters buffer (also in
     * {@link #connectionsRejected()}).
     */
    public AtomicCounter connectionsRefusedCounters()
    {
        return connectionsRefusedCounters;
    }

    public AtomicCounter protocolViolations()
    {
        return protocolViolations;
    }

    /**
     * @return ICMP port-unreachable reports for a peer (an endpoint restricted to one peer only).
     */
    public AtomicCounter portUnreachable()
    {
        return portUnreachable;
    }

    /**
     * @return the longest duty cycle so far: how long the agent thread was held inside one cycle (work, garbage
     * collection or being descheduled), the stall every event handled in that cycle may have waited.
     */
    public AtomicCounter longestDutyCycleNs()
    {
        return longestDutyCycleNs;
    }

    /**
     * Record a duty cycle's length.
     *
     * @param durationNs from the clock read at its start to one at its end.
     */
    public void onDutyCycle(final long durationNs)
    {
        if (durationNs > longestDutyCycleNs.getPlain())
        {
            longestDutyCycleNs.setRelease(durationNs);
        }
    }

    public void close()
    {
        datagramsReceived.close();
        datagramsSent.close();
        bytesReceived.close();
        bytesSent.close();
        malformedDropped.close();
        unknownConnection.close();
        duplicatePackets.close();
        sendFailures.close();
        errors.close();
        connectionsOpened.close();
        connectionsClosed.close();
        connectionsRejected.close();
        connectionsRefusedLimit.close();
        connectionsRefusedCounters.close();
        protocolViolations.close();
        portUnreachable.close();
        longestDutyCycleNs.close();
    }
}
