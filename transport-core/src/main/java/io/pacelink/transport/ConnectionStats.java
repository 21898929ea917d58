package io.pacelink.transport;

import io.pacelink.transport.recovery.EcnValidation;
import io.pacelink.transport.stats.ConnectionCounters;

/**
 * Live statistics of one connection, read from its counters (safe from any thread, allocation-free), refreshed by the
 * agent every duty cycle and kept at their last values once the connection is closed. Application figures (messages,
 * {@code applicationBytes...}) are what the applications offered and read, without the transport's framing; the
 * wire figures ({@code streamBytes...}, {@code bytesSent}) count the stream's 4-byte length prefix of every message,
 * or whole datagrams.
 */
public final class ConnectionStats
{
    private final ConnectionCounters counters;
    private volatile long[] finalValues;

    /**
     * @param counters the connection's counters.
     */
    public ConnectionStats(final ConnectionCounters counters)
    {
        this.counters = counters;
    }

    /**
     * @return the statistics of a connection that was never opened: every figure 0.
     */
    static ConnectionStats ofUnopened()
    {
        final ConnectionStats stats = new ConnectionStats(null);
        stats.finalValues = new long[ConnectionCounters.COUNT];
        return stats;
    }

    /**
     * Keep the values the connection had when it closed, so they can still be read after its counters are freed.
     */
    public void freeze()
    {
        if (null == counters)
        {
            return;
        }
        final long[] values = new long[ConnectionCounters.COUNT];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = counters.get(i);
        }
        finalValues = values;
    }

    private long value(final int index)
    {
        final long[] values = finalValues;
        return null == values ? counters.get(index) : values[index];
    }

    public long congestionWindowBytes()
    {
        return value(ConnectionCounters.CWND_BYTES);
    }

    public long pacingRateBytesPerSecond()
    {
        return value(ConnectionCounters.PACING_RATE_BYTES_PER_SECOND);
    }

    /**
     * @return the latest delivery-rate sample (the bandwidth estimate the transport measures).
     */
    public long deliveryRateBytesPerSecond()
    {
        return value(ConnectionCounters.DELIVERY_RATE_BYTES_PER_SECOND);
    }

    public long minRttNs()
    {
        return value(ConnectionCounters.MIN_RTT_NS);
    }

    public long smoothedRttNs()
    {
        return value(ConnectionCounters.SMOOTHED_RTT_NS);
    }

    public long latestRttNs()
    {
        return value(ConnectionCounters.LATEST_RTT_NS);
    }

    public long bytesInFlight()
    {
        return value(ConnectionCounters.BYTES_IN_FLIGHT);
    }

    public long bytesSent()
    {
        return value(ConnectionCounters.BYTES_SENT);
    }

    public long packetsSent()
    {
        return value(ConnectionCounters.PACKETS_SENT);
    }

    /**
     * @return the wire figure: stream bytes the peer's transport acknowledged, the transport's 4-byte length prefix
     * of every message included. The peer's application may not have read them yet: see
     * {@link #applicationBytesDelivered()}.
     */
    public long streamBytesAcked()
    {
        return value(ConnectionCounters.STREAM_BYTES_ACKED);
    }

    /**
     * @return what {@link #streamBytesAcked()} returns: stream bytes the peer's transport acknowledged, length
     * prefixes included.
     * @deprecated since 0.1.0, for removal in 0.2.0: the name said "delivered" of bytes the peer's transport had
     * acknowledged, which its application may not have read. Use {@link #streamBytesAcked()} for the same figure, or
     * {@link #applicationBytesDelivered()} for what the peer's application read.
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public long bytesDelivered()
    {
        return streamBytesAcked();
    }

    public long bytesRetransmitted()
    {
        return value(ConnectionCounters.BYTES_RETRANSMITTED);
    }

    public long packetsRetransmitted()
    {
        return value(ConnectionCounters.PACKETS_RETRANSMITTED);
    }

    public long packetsLost()
    {
        return value(ConnectionCounters.PACKETS_LOST);
    }

    public long bytesLost()
    {
        return value(ConnectionCounters.BYTES_LOST);
    }

    public long spuriousLosses()
    {
        return value(ConnectionCounters.SPURIOUS_LOSSES);
    }

    public long probeTimeouts()
    {
        return value(ConnectionCounters.PROBE_TIMEOUTS);
    }

    /**
     * @return the wire figure: new stream bytes received from the peer (duplicates excluded, each message's 4-byte
     * length prefix included), whether or not the application has polled them.
     */
    public long streamBytesReceived()
    {
        return value(ConnectionCounters.STREAM_BYTES_RECEIVED);
    }

    /**
     * @return messages this side's application offered.
     */
    public long messagesOffered()
    {
        return value(ConnectionCounters.MESSAGES_OFFERED);
    }

    /**
     * @return bytes of the messages this side's application offered.
     */
    public long applicationBytesOffered()
    {
        return value(ConnectionCounters.APP_BYTES_OFFERED);
    }

    /**
     * @return messages the peer's application has read, as its latest receipt said (the peer sends one each time its
     * application has read another eighth of its receive window, and at the end of the stream), so it advances
     * during a transfer: a progress bar can follow it.
     */
    public long messagesDelivered()
    {
        return value(ConnectionCounters.MESSAGES_DELIVERED);
    }

    /**
     * @return bytes of the messages the peer's application has read, as its latest receipt said.
     */
    public long applicationBytesDelivered()
    {
        return value(ConnectionCounters.APP_BYTES_DELIVERED);
    }

    /**
     * @return messages this side's application has polled.
     */
    public long messagesReceived()
    {
        return value(ConnectionCounters.MESSAGES_RECEIVED);
    }

    /**
     * @return bytes of the messages this side's application has polled.
     */
    public long applicationBytesReceived()
    {
        return value(ConnectionCounters.APP_BYTES_RECEIVED);
    }

    public long duplicatePackets()
    {
        return value(ConnectionCounters.DUPLICATE_PACKETS);
    }

    /**
     * @return duty cycles that served the connection (a datagram, a timer or its application woke it) in which it had
     * data but the congestion window was full.
     */
    public long cwndLimited()
    {
        return value(ConnectionCounters.CWND_LIMITED);
    }

    /**
     * @return duty cycles that served the connection in which it had a packet ready within cwnd but the packet
     * scheduler did not release it (pacing, or the duty cycle's send budget was spent).
     */
    public long pacingLimited()
    {
        return value(ConnectionCounters.PACING_LIMITED);
    }

    /**
     * @return duty cycles that served the connection in which it had data but the peer's flow-control credit was used
     * up.
     */
    public long flowControlLimited()
    {
        return value(ConnectionCounters.FLOW_CONTROL_LIMITED);
    }

    /**
     * @return time, in ns, the connection spent with data to send and the congestion window full (from the duty cycle
     * that found it so to the next that served it): with {@link #pacingLimitedNs()} and {@link #flowControlLimitedNs()}
     * what held a bulk sender, as a share of its time; the rest of the time it had nothing to send.
     */
    public long cwndLimitedNs()
    {
        return value(ConnectionCounters.CWND_LIMITED_NS);
    }

    /**
     * @return time, in ns, the connection spent with a packet ready within cwnd that the packet scheduler held
     * (pacing, or a duty cycle's send budget), whether on schedule or because the agent woke late (the fq scheduler's
     * {@code lateness-forgotten-ns} says how much of the latter was lost).
     */
    public long pacingLimitedNs()
    {
        return value(ConnectionCounters.PACING_LIMITED_NS);
    }

    /**
     * @return time, in ns, the connection spent with data but no flow-control credit from the peer.
     */
    public long flowControlLimitedNs()
    {
        return value(ConnectionCounters.FLOW_CONTROL_LIMITED_NS);
    }

    /**
     * @return times the rate sampler marked the connection application-limited.
     */
    public long appLimited()
    {
        return value(ConnectionCounters.APP_LIMITED);
    }

    /**
     * @return RTT samples taken; with {@link #latestRttNs()} it lets a sampler weight the latest value.
     */
    public long rttSamples()
    {
        return value(ConnectionCounters.RTT_SAMPLES);
    }

    /**
     * @return the state of the connection's ECN validation (RFC 9000 section 13.4.2), an index into
     * {@link EcnValidation#STATE_NAMES}: DISABLED (off in the context, or a port that cannot send codepoints),
     * TESTING, UNKNOWN, CAPABLE (marks are believed and answered) or FAILED (see {@link #ecnFailure()}).
     */
    public long ecnState()
    {
        return value(ConnectionCounters.ECN_STATE);
    }

    /**
     * @return why ECN validation failed, an index into {@link EcnValidation#FAILURE_NAMES} (0: it did not). A peer
     * whose port cannot read codepoints (Java's NIO) reports no counts: BLEACHED.
     */
    public long ecnFailure()
    {
        return value(ConnectionCounters.ECN_FAILURE);
    }

    /**
     * @return packets sent marked ECT(0).
     */
    public long ecnMarkedPacketsSent()
    {
        return value(ConnectionCounters.ECN_MARKED_SENT);
    }

    /**
     * @return the peer's validated count of packets it received marked CE: congestion marks on this side's packets.
     */
    public long ecnCeReported()
    {
        return value(ConnectionCounters.ECN_CE_REPORTED);
    }

    /**
     * @return congestion events the controller was told of for CE marks (a window controller reduces once per round
     * trip; see {@link io.pacelink.transport.cc.CongestionController#isEcnCeCongestionEvent()}).
     */
    public long ecnCeReactions()
    {
        return value(ConnectionCounters.ECN_CE_REACTIONS);
    }

    /**
     * @return packets this side received marked CE, reported to the peer in ACK frames.
     */
    public long ecnCeReceived()
    {
        return value(ConnectionCounters.ECN_CE_RECEIVED);
    }

    /**
     * @return the connection's state as an ordinal of {@link ConnectionState}.
     */
    public long stateOrdinal()
    {
        return value(ConnectionCounters.STATE);
    }

    /**
     * @return the figures {@code ss -i} would show, and the application's, e.g. {@code ConnectionStats{cwnd=... }},
     * for logs and debuggers.
     */
    public String toString()
    {
        return "ConnectionStats{cwndBytes=" + congestionWindowBytes() +
            ", pacingRateBytesPerSecond=" + pacingRateBytesPerSecond() +
            ", deliveryRateBytesPerSecond=" + deliveryRateBytesPerSecond() +
            ", minRttNs=" + minRttNs() +
            ", smoothedRttNs=" + smoothedRttNs() +
            ", bytesInFlight=" + bytesInFlight() +
            ", packetsSent=" + packetsSent() +
            ", packetsRetransmitted=" + packetsRetransmitted() +
            ", packetsLost=" + packetsLost() +
            ", messagesOffered=" + messagesOffered() +
            ", applicationBytesOffered=" + applicationBytesOffered() +
            ", messagesDelivered=" + messagesDelivered() +
            ", applicationBytesDelivered=" + applicationBytesDelivered() +
            ", messagesReceived=" + messagesReceived() +
            ", applicationBytesReceived=" + applicationBytesReceived() +
            '}';
    }
}
