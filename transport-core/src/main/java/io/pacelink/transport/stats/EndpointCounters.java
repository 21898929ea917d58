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
    private final AtomicCounter longestRecentDutyCycleNs;
    private long intervalStartNs;
    /**
     * What {@link #longestDutyCycleNs} and {@link #longestRecentDutyCycleNs} hold, kept here too: each duty cycle
     * compares its length with them, and the counters' slots are cache lines of their own that a cycle would
     * otherwise load every time (only this endpoint's agent writes them).
     */
    private long longestDutyCycleNsValue;
    private long longestRecentDutyCycleNsValue;
    private boolean isIntervalStarted;
    private long intervalLongestNs;
    private long previousIntervalLongestNs;

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
        longestRecentDutyCycleNs = newCounter(countersManager, endpointName, "longest-recent-duty-cycle-ns");
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
     * @return the longest duty cycle that ended in the current or the previous interval of
     * {@link #RECENT_INTERVAL_NS} (so between one and two seconds back): unlike {@link #longestDutyCycleNs}, which
     * keeps the start-up's and the warm-up's for ever, it shows what the endpoint does now. A reader that samples it at
     * least once an interval sees every duty cycle.
     */
    public AtomicCounter longestRecentDutyCycleNs()
    {
        return longestRecentDutyCycleNs;
    }

    /**
     * The interval of {@link #longestRecentDutyCycleNs}.
     */
    public static final long RECENT_INTERVAL_NS = 1_000_000_000L;

    /**
     * Record a duty cycle's length.
     *
     * @param endNs      when it ended, on the endpoint's clock.
     * @param durationNs from the clock read at its start to one at its end.
     */
    public void onDutyCycle(final long endNs, final long durationNs)
    {
        if (durationNs > longestDutyCycleNsValue)
        {
            longestDutyCycleNsValue = durationNs;
            longestDutyCycleNs.setRelease(durationNs);
        }
        if (!isIntervalStarted || endNs - intervalStartNs >= RECENT_INTERVAL_NS)
        {
            // An interval with no duty cycle in it (an idle agent) leaves nothing to carry over.
            previousIntervalLongestNs = isIntervalStarted && endNs - intervalStartNs < 2 * RECENT_INTERVAL_NS ?
                intervalLongestNs : 0;
            intervalStartNs = endNs;
            isIntervalStarted = true;
            intervalLongestNs = 0;
        }
        if (durationNs > intervalLongestNs)
        {
            intervalLongestNs = durationNs;
        }
        final long recentNs = Math.max(previousIntervalLongestNs, intervalLongestNs);
        if (recentNs != longestRecentDutyCycleNsValue)
        {
            longestRecentDutyCycleNsValue = recentNs;
            longestRecentDutyCycleNs.setRelease(recentNs);
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
        longestRecentDutyCycleNs.close();
    }
}
