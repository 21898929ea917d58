package io.pacelink.cli.net;

import io.pacelink.transport.Connection;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How the tools end their connections once their own protocol has said whether the work arrived: each connection is
 * closed gracefully and the tool waits until its outcome is decided (the peer acknowledged the end of the stream and
 * its application read everything, or the peer said it is done), never for the draining period that follows (three
 * PTOs, RFC 9000 section 10.2), which only absorbs the peer's late packets and which the tool's process need not
 * outlive: a closed socket answers those with ICMP, which a connection that has ended ignores. Nor does it wait for
 * what it cannot get: a peer that is gone never answers, so the wait is bounded by a few round trips, and a
 * connection still undecided after that is aborted. The tools' results never depend on it: they were confirmed by
 * their own protocols before the close began.
 */
public final class ClosingConnections
{
    /**
     * The least time a close may take before it is given up: a loopback close takes a millisecond or two, a close on
     * a long path a round trip or two, and one lost packet a PTO more.
     */
    public static final long MIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Round trips a close may take before it is given up, on a path slower than {@link #MIN_TIMEOUT_NS} allows for.
     */
    public static final int TIMEOUT_ROUND_TRIPS = 4;

    private ClosingConnections()
    {
    }

    /**
     * @param connections connections about to be closed.
     * @return how long to wait for their outcomes: {@link #TIMEOUT_ROUND_TRIPS} of the slowest one's smoothed RTT,
     * at least {@link #MIN_TIMEOUT_NS}.
     */
    public static long timeoutNs(final List<Connection> connections)
    {
        long smoothedRttNs = 0;
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            smoothedRttNs = Math.max(smoothedRttNs, connections.get(i).stats().smoothedRttNs());
        }
        return Math.max(MIN_TIMEOUT_NS, TIMEOUT_ROUND_TRIPS * smoothedRttNs);
    }

    /**
     * @param connections connections being closed.
     * @return true once every one's outcome is decided.
     */
    public static boolean allDecided(final List<Connection> connections)
    {
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            if (!connections.get(i).outcome().isClosed())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Abort every connection whose outcome is still undecided (the peer sees it aborted); the others keep theirs.
     *
     * @param connections connections to end now.
     */
    public static void abortUndecided(final List<Connection> connections)
    {
        for (int i = 0, size = connections.size(); i < size; i++)
        {
            final Connection connection = connections.get(i);
            if (!connection.outcome().isClosed())
            {
                connection.closeNow();
            }
        }
    }
}
