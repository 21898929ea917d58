package io.pacelink.transport;

import java.util.concurrent.TimeUnit;

import static io.pacelink.transport.PacelinkContext.requireRange;

/**
 * The limits an endpoint holds a hostile or broken peer to (docs/security.md): how fast one source may open
 * connections, how long an address-validation token lives, how much memory the endpoint's connections may commit,
 * how long a peer may leave data unacknowledged, and the smallest
 * RTT sample believed. Part of a {@link PacelinkContext} ({@link PacelinkContext#limits()}); fluent setters validated
 * like the context's, so a bad value fails at the setter saying what is accepted.
 */
public final class EndpointLimits
{
    /**
     * New connections one source address may open per second once its burst is spent.
     */
    public static final int DEFAULT_HANDSHAKES_PER_SECOND_PER_SOURCE = 100;

    /**
     * New connections one source address may open back to back.
     */
    public static final int DEFAULT_HANDSHAKE_BURST_PER_SOURCE = 200;

    /**
     * How long a Retry token stays valid: the client echoes it within one round trip, and keeps echoing it in the
     * hellos it retransmits until its handshake timeout (10 s by default).
     */
    public static final long DEFAULT_RETRY_TOKEN_LIFETIME_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Bytes of stream buffers and sent-packet records all connections of an endpoint may commit together.
     */
    public static final long DEFAULT_MEMORY_BUDGET_BYTES = 1L << 30;

    /**
     * No count of out-of-order ranges beyond what memory allows: a connection's reassembly bookkeeping is limited to
     * an eighth of its receive buffer (docs/security.md, "Reassembly and data"), which scales with the window a
     * legitimate transfer needs. The count limit it replaces (4096 ranges) closed legitimate long fat flows.
     *
     * @deprecated the limit is memory now, set through {@link PacelinkContext#receiveBufferBytes(int)}; the count
     * limit goes in the next minor version.
     */
    @Deprecated
    public static final int DEFAULT_MAX_RECEIVE_RANGES = 1 << 24;

    /**
     * Consecutive probe timeouts without any acknowledgement after which the peer is declared dead (Linux's
     * {@code tcp_retries2} plays this part for TCP). With the PTO doubling each time, 10 PTOs are about 1023 PTO
     * periods: some 5 s on a LAN and over 15 minutes with the initial 1 s PTO.
     */
    public static final int DEFAULT_MAX_UNACKNOWLEDGED_PTOS = 10;

    /**
     * RTT samples below this are impossible on any path (a loopback round trip between two processes costs more
     * than a microsecond of system calls) and are rejected rather than allowed to drag min_rtt down.
     */
    public static final long DEFAULT_MIN_RTT_SAMPLE_NS = TimeUnit.MICROSECONDS.toNanos(1);

    private int handshakesPerSecondPerSource = DEFAULT_HANDSHAKES_PER_SECOND_PER_SOURCE;
    private int handshakeBurstPerSource = DEFAULT_HANDSHAKE_BURST_PER_SOURCE;
    private long retryTokenLifetimeNs = DEFAULT_RETRY_TOKEN_LIFETIME_NS;
    private long memoryBudgetBytes = DEFAULT_MEMORY_BUDGET_BYTES;
    private int maxReceiveRanges = DEFAULT_MAX_RECEIVE_RANGES;
    private int maxUnacknowledgedPtos = DEFAULT_MAX_UNACKNOWLEDGED_PTOS;
    private long minRttSampleNs = DEFAULT_MIN_RTT_SAMPLE_NS;

    /**
     * @param handshakes new connections one source address (IP, any port) may open per second once its burst is
     *                   spent, 1..1,000,000; more hellos are dropped and counted, and the client retries later.
     * @return this.
     */
    public EndpointLimits handshakesPerSecondPerSource(final int handshakes)
    {
        handshakesPerSecondPerSource = requireRange("handshakesPerSecondPerSource", handshakes, 1, 1_000_000);
        return this;
    }

    public int handshakesPerSecondPerSource()
    {
        return handshakesPerSecondPerSource;
    }

    /**
     * @param handshakes new connections one source address may open back to back, 1..1,000,000.
     * @return this.
     */
    public EndpointLimits handshakeBurstPerSource(final int handshakes)
    {
        handshakeBurstPerSource = requireRange("handshakeBurstPerSource", handshakes, 1, 1_000_000);
        return this;
    }

    public int handshakeBurstPerSource()
    {
        return handshakeBurstPerSource;
    }

    /**
     * @param ns how long an address-validation (Retry) token is accepted after it was issued, 100 ms..10 min.
     * @return this.
     */
    public EndpointLimits retryTokenLifetimeNs(final long ns)
    {
        retryTokenLifetimeNs = requireRange(
            "retryTokenLifetimeNs", ns, TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.MINUTES.toNanos(10));
        return this;
    }

    public long retryTokenLifetimeNs()
    {
        return retryTokenLifetimeNs;
    }

    /**
     * @param bytes stream buffers and sent-packet records all connections may commit together, 1 MiB..1 TiB; a
     *              connection that would exceed it is refused, and one that would grow beyond it is held at its size
     *              (back-pressure on send, packets dropped unacknowledged on receive).
     * @return this.
     */
    public EndpointLimits memoryBudgetBytes(final long bytes)
    {
        memoryBudgetBytes = requireRange("memoryBudgetBytes", bytes, 1L << 20, 1L << 40);
        return this;
    }

    public long memoryBudgetBytes()
    {
        return memoryBudgetBytes;
    }

    /**
     * @param ranges separate out-of-order byte ranges one connection may hold, below what memory allows (an eighth
     *               of the receive buffer in bookkeeping, 25 bytes a range); a peer that opens more is closed with a
     *               protocol violation ("reassembly limit"), 16..16,777,216 (the default: memory decides).
     * @return this.
     * @deprecated a count either closes legitimate long fat flows or is too high to matter; the reassembly limit is
     * memory now, an eighth of {@link PacelinkContext#receiveBufferBytes(int)}. Goes in the next minor version.
     */
    @Deprecated
    public EndpointLimits maxReceiveRanges(final int ranges)
    {
        maxReceiveRanges = requireRange("maxReceiveRanges", ranges, 16, 1 << 24);
        return this;
    }

    /**
     * @return the count limit on out-of-order ranges, {@link #DEFAULT_MAX_RECEIVE_RANGES} unless set.
     * @deprecated see {@link #maxReceiveRanges(int)}.
     */
    @Deprecated
    public int maxReceiveRanges()
    {
        return maxReceiveRanges;
    }

    /**
     * @param ptos consecutive probe timeouts without an acknowledgement after which the connection closes as
     *             {@link CloseReason#PEER_UNRESPONSIVE}, 2..30.
     * @return this.
     */
    public EndpointLimits maxUnacknowledgedPtos(final int ptos)
    {
        maxUnacknowledgedPtos = requireRange("maxUnacknowledgedPtos", ptos, 2, 30);
        return this;
    }

    public int maxUnacknowledgedPtos()
    {
        return maxUnacknowledgedPtos;
    }

    /**
     * @param ns the smallest RTT sample accepted, 0..1 s: raise it to the propagation delay your paths cannot beat
     *           (e.g. 1 ms for a service reached only over a WAN) so forged early acknowledgements cannot shrink
     *           min_rtt below it.
     * @return this.
     */
    public EndpointLimits minRttSampleNs(final long ns)
    {
        minRttSampleNs = requireRange("minRttSampleNs", ns, 0, TimeUnit.SECONDS.toNanos(1));
        return this;
    }

    public long minRttSampleNs()
    {
        return minRttSampleNs;
    }

    /**
     * Check the limits against the rest of the configuration.
     *
     * @param context the endpoint's configuration.
     * @throws IllegalStateException saying which settings conflict and how to fix them.
     */
    void conclude(final PacelinkContext context)
    {
        // One connection must be able to grow to its configured buffers, or a message of the maximum length may
        // never fit and offer() would stay back-pressured for ever.
        final long oneConnectionBytes = (long)context.sendBufferBytes() + context.receiveBufferBytes();
        if (memoryBudgetBytes < oneConnectionBytes)
        {
            throw new IllegalStateException("memoryBudgetBytes=" + memoryBudgetBytes + " is smaller than one " +
                "connection's sendBufferBytes + receiveBufferBytes=" + oneConnectionBytes +
                ": raise the budget or lower the buffers");
        }
    }
}
