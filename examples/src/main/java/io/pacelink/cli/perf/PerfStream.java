package io.pacelink.cli.perf;

import io.pacelink.cli.net.RateLimiter;
import io.pacelink.cli.net.TransportFailure;
import io.pacelink.cli.net.TransportWaits;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.MessageHandler;
import org.agrona.DirectBuffer;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One data connection of a test, at one end: it either sends (offers messages as fast as the connection takes them,
 * or at the {@code -b} rate, up to its byte share) or receives (polls and counts), and it keeps the figures the
 * interval lines and the summary print.
 * <p>
 * A sender keeps at most about two congestion windows offered but not yet acknowledged, as Linux sizes a TCP send
 * buffer ({@code tcp_sndbuf_expand()} in net/ipv4/tcp_input.c: twice the window). Without that bound it would fill
 * the transport's whole send buffer (32 MiB by default), and at the end of a timed test the receiver would need
 * minutes on a slow path to get what the sender counts as sent. With it, what was offered arrives within a few
 * round trips, so the test can insist that the receiver got every byte. On a path slower than a message per round
 * trip the sender still keeps one whole message queued, so it never waits for the application: there the end of a
 * test takes about as long as one message needs.
 */
final class PerfStream implements MessageHandler
{
    private static final long SAMPLE_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int RECEIVE_LIMIT = 64;
    private static final int FRAMING_BYTES = 4;

    private final int index;
    private final int id;
    private final boolean sends;
    private final Connection connection;
    private final ConnectionStats stats;
    private final DirectBuffer message;
    private final int messageBytes;
    private final long share;
    private final RateLimiter rateLimiter;
    private final long startNs;

    private long bytes;
    private long streamPosition;
    private long expectedBytes = Long.MAX_VALUE;
    private long lastNs;
    private boolean stopped;
    private int acquiredLength;
    private int rateLimitedLength;
    private int lastPollMessages;

    private long intervalMarkBytes;
    private long intervalMarkRetransmits;
    private long nextSampleNs;
    private long rttSampleSumNs;
    private long rttSamples;
    private long maxRttNs;
    private long maxCwndBytes;

    private long omitEndNs;
    private long omittedBytes;
    private long omittedRetransmits;
    private long omittedLost;

    /**
     * @param index      the connection's place in the test (what {@link PerfParameters} describes).
     * @param id         its id in this end's report.
     * @param sends      true if this end sends on it.
     * @param connection the connection, established.
     * @param parameters the test.
     * @param message    what a sender offers, at least {@code parameters.messageBytes()} long.
     * @param startNs    the test's start at this end.
     */
    PerfStream(
        final int index,
        final int id,
        final boolean sends,
        final Connection connection,
        final PerfParameters parameters,
        final DirectBuffer message,
        final long startNs)
    {
        this.index = index;
        this.id = id;
        this.sends = sends;
        this.connection = connection;
        this.stats = connection.stats();
        this.message = message;
        this.messageBytes = parameters.messageBytes();
        this.share = parameters.byteShare(index);
        this.rateLimiter = sends && parameters.rateBitsPerSecond() > 0 ?
            new RateLimiter(parameters.rateBitsPerSecond(), messageBytes, startNs) : null;
        this.startNs = startNs;
        this.lastNs = startNs;
        this.omitEndNs = startNs;
        this.nextSampleNs = startNs;
        if (!sends && share != Long.MAX_VALUE)
        {
            expectedBytes = share;
        }
    }

    /**
     * @return the connection's place in the test.
     */
    int index()
    {
        return index;
    }

    /**
     * @return its id in this end's report.
     */
    int id()
    {
        return id;
    }

    /**
     * @return true if this end sends on it.
     */
    boolean sends()
    {
        return sends;
    }

    /**
     * @return the connection.
     */
    Connection connection()
    {
        return connection;
    }

    /**
     * @return message bytes offered (a sender) or received (a receiver) so far.
     */
    long bytes()
    {
        return bytes;
    }

    /**
     * Offer what the connection, the send bound and the rate allow.
     *
     * @param nowNs the time now.
     * @return messages offered.
     * @throws TransportFailure if the connection can no longer send.
     */
    int send(final long nowNs)
    {
        int work = 0;
        rateLimitedLength = 0;
        while (!stopped && bytes < share)
        {
            final long unacknowledged = streamPosition - stats.streamBytesAcked();
            if (unacknowledged >= Math.max(2 * stats.congestionWindowBytes(), messageBytes + FRAMING_BYTES))
            {
                break;
            }
            final int length = (int)Math.min(messageBytes, share - bytes);
            if (0 == acquiredLength)
            {
                if (null != rateLimiter && !rateLimiter.tryAcquire(length, nowNs))
                {
                    rateLimitedLength = length;
                    break;
                }
                acquiredLength = length;
            }
            final long result = connection.offer(message, 0, length);
            if (result > 0)
            {
                streamPosition = result;
                bytes += length;
                acquiredLength = 0;
                lastNs = nowNs;
                work++;
            }
            else if (Connection.BACK_PRESSURED == result)
            {
                break;
            }
            else
            {
                throw new TransportFailure("stream " + id + ": cannot send any more (offer returned " + result +
                    "): " + TransportWaits.describeClose(connection, "the peer"));
            }
        }
        if (!stopped && bytes >= share)
        {
            stopped = true;
        }
        return work;
    }

    /**
     * Stop sending: the test's time is up.
     *
     * @param nowNs the time now.
     */
    void stop(final long nowNs)
    {
        if (!stopped)
        {
            stopped = true;
            lastNs = nowNs;
        }
    }

    /**
     * The omitted seconds ({@code --omit}) are over: the totals count from now on. What moved before is kept apart, so
     * a receiver still expects every byte its sender offered.
     *
     * @param nowNs the time now.
     */
    void endOmitted(final long nowNs)
    {
        omitEndNs = nowNs;
        omittedBytes = bytes;
        if (sends)
        {
            omittedRetransmits = stats.packetsRetransmitted();
            omittedLost = stats.packetsLost();
        }
    }

    /**
     * @return true once a sender has offered its share or was stopped.
     */
    boolean isSendingFinished()
    {
        return stopped;
    }

    /**
     * @param nowNs the time now.
     * @return messages received.
     */
    int receive(final long nowNs)
    {
        final int messages = connection.poll(this, RECEIVE_LIMIT);
        lastPollMessages = messages;
        if (messages > 0)
        {
            lastNs = nowNs;
        }
        return messages;
    }

    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        bytes += length;
    }

    /**
     * @param bytes how many bytes the sender says it offered: the receiver is complete when it has them all.
     */
    void expect(final long bytes)
    {
        expectedBytes = bytes;
    }

    /**
     * @return true once a receiver has every byte it expects (its share in a test of a byte count, or what the
     * sender reported).
     */
    boolean isReceivingComplete()
    {
        return bytes >= expectedBytes;
    }

    /**
     * @param peerName who is on the other end, e.g. {@code the server}.
     * @throws TransportFailure if the connection closed before this end was done with it (a receiver first polls
     *                          everything that arrived before the close).
     */
    void checkOpen(final String peerName)
    {
        if (ConnectionState.CLOSED == connection.state() &&
            (sends ? !stopped : 0 == lastPollMessages && !isReceivingComplete()))
        {
            throw new TransportFailure("stream " + id + ": " + TransportWaits.describeClose(connection, peerName) +
                " after " + bytes + " bytes");
        }
    }

    /**
     * Sample the sender's RTT and window for the end-of-test figures, every 100 ms.
     *
     * @param nowNs the time now.
     */
    void sample(final long nowNs)
    {
        if (!sends || nowNs - nextSampleNs < 0)
        {
            return;
        }
        nextSampleNs = nowNs + SAMPLE_INTERVAL_NS;
        maxCwndBytes = Math.max(maxCwndBytes, stats.congestionWindowBytes());
        if (stats.rttSamples() > 0)
        {
            final long rttNs = stats.smoothedRttNs();
            rttSampleSumNs += rttNs;
            rttSamples++;
            maxRttNs = Math.max(maxRttNs, rttNs);
        }
    }

    /**
     * @param startSeconds the interval's start.
     * @param endSeconds   its end: now.
     * @return what the interval saw; the next one starts here.
     */
    IntervalSample interval(final double startSeconds, final double endSeconds)
    {
        final long intervalBytes = bytes - intervalMarkBytes;
        intervalMarkBytes = bytes;
        SenderSample state = null;
        if (sends)
        {
            final long retransmits = stats.packetsRetransmitted();
            state = SenderSample.of(stats, retransmits - intervalMarkRetransmits);
            intervalMarkRetransmits = retransmits;
        }
        return new IntervalSample(id, startSeconds, endSeconds, intervalBytes, sends, state);
    }

    /**
     * @param deadlineNs a time.
     * @param nowNs      the time of the last {@link #serviceAll}.
     * @return the earlier of it and this stream's next timer: the rate limiter's release of the message it held back
     * in that turn, the next RTT sample while it sends. What else it waits for (ACKs that free the send buffer, data)
     * arrives, and an arrival ends a turn's sleep.
     */
    long earlierDeadlineNs(final long deadlineNs, final long nowNs)
    {
        if (!sends || stopped)
        {
            return deadlineNs;
        }
        final long withSampleNs = TransportWaits.earlier(nextSampleNs, deadlineNs);
        return 0 == rateLimitedLength ? withSampleNs :
            TransportWaits.earlier(rateLimiter.releaseNs(rateLimitedLength, nowNs), withSampleNs);
    }

    /**
     * @param streams    an end's streams.
     * @param deadlineNs a time.
     * @param nowNs      the time of the last {@link #serviceAll}.
     * @return the earlier of it and every stream's next timer ({@link #earlierDeadlineNs(long, long)}).
     */
    static long earlierDeadlineNs(final List<PerfStream> streams, final long deadlineNs, final long nowNs)
    {
        long earliestNs = deadlineNs;
        for (int i = 0, size = streams.size(); i < size; i++)
        {
            earliestNs = streams.get(i).earlierDeadlineNs(earliestNs, nowNs);
        }
        return earliestNs;
    }

    /**
     * One turn of a test's streams at one end: senders offer, receivers poll, and a connection that closed too early
     * fails the test.
     *
     * @param streams  the end's streams.
     * @param nowNs    the time now.
     * @param peerName who is on the other end, for messages.
     * @return messages offered and received.
     * @throws TransportFailure if a stream cannot go on.
     */
    static int serviceAll(final List<PerfStream> streams, final long nowNs, final String peerName)
    {
        int work = 0;
        for (int i = 0, size = streams.size(); i < size; i++)
        {
            final PerfStream stream = streams.get(i);
            if (stream.sends)
            {
                work += stream.send(nowNs);
                stream.sample(nowNs);
            }
            else
            {
                work += stream.receive(nowNs);
            }
            stream.checkOpen(peerName);
        }
        return work;
    }

    /**
     * @param streams an end's streams.
     * @return true once every receiving stream among them is complete.
     */
    static boolean allReceived(final List<PerfStream> streams)
    {
        for (int i = 0, size = streams.size(); i < size; i++)
        {
            final PerfStream stream = streams.get(i);
            if (!stream.sends && !stream.isReceivingComplete())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return this end's figures over the test, the omitted seconds left out of everything but {@code omittedBytes}
     * (the largest window and the RTTs cover the whole test).
     */
    StreamTotals totals()
    {
        SenderTotals senderTotals = null;
        if (sends)
        {
            senderTotals = new SenderTotals(
                stats.packetsRetransmitted() - omittedRetransmits,
                stats.packetsLost() - omittedLost,
                Math.max(maxCwndBytes, stats.congestionWindowBytes()),
                stats.rttSamples() > 0 ? stats.minRttNs() : 0,
                0 == rttSamples ? 0 : rttSampleSumNs / rttSamples,
                maxRttNs);
        }
        return new StreamTotals(id, sends, (omitEndNs - startNs) / 1e9, (Math.max(lastNs, omitEndNs) - startNs) / 1e9,
            bytes - omittedBytes, senderTotals, EcnTotals.of(stats), omittedBytes);
    }
}
