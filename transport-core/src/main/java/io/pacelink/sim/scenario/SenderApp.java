package io.pacelink.sim.scenario;

import io.pacelink.sim.results.ConnectionSample;
import io.pacelink.sim.results.ConnectionSampler;
import io.pacelink.sim.results.FlowResults;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.ConnectionStats;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.engine.EndpointCore;
import io.pacelink.transport.stream.SendLog;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;

/**
 * The client side of one flow: connects at the flow's start, offers data as its pattern says, records the sending
 * connection's RTT samples and, for request/response flows, the response time of each request.
 */
final class SenderApp implements HostApp, ConnectionSampler, MessageHandler
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NOT_CONNECTED = Long.MIN_VALUE;

    private final FlowSpec spec;
    private final EndpointCore core;
    private final InetSocketAddress receiver;
    private final FlowResults results;
    private final Histogram responseTimes;
    private final UnsafeBuffer message;
    private final ConnectionWatch watch = new ConnectionWatch();
    private Connection connection;
    private long offeredBytes;
    private long connectedNs = NOT_CONNECTED;
    private long nextRequestNs;
    private long rttSamplesSeen;
    private long pollNowNs;
    private boolean hasTurnedBulk;
    private boolean isBehindWithFullBuffer;
    private final int heldUnsentBytes;
    private final int sendBufferBytes;
    private long wholeBufferTail;
    private boolean isFillingWholeBuffer;
    private SendLog sendLog;

    SenderApp(
        final FlowSpec spec,
        final EndpointCore core,
        final InetSocketAddress receiver,
        final FlowResults results,
        final Histogram responseTimes,
        final int heldUnsentBytes,
        final int sendBufferBytes)
    {
        this.heldUnsentBytes = heldUnsentBytes;
        this.sendBufferBytes = sendBufferBytes;
        this.spec = spec;
        this.core = core;
        this.receiver = receiver;
        this.results = results;
        this.responseTimes = responseTimes;
        this.message = new UnsafeBuffer(new byte[spec.pattern().messageBytes()]);
        this.nextRequestNs = spec.startNs();
    }

    Connection connection()
    {
        return connection;
    }

    /**
     * @return how the sending connection stands now.
     */
    ConnectionEnd connectionEnd()
    {
        return watch.end();
    }

    public void beforeWork(final long nowNs)
    {
        if (null == connection)
        {
            if (nowNs >= spec.startNs())
            {
                connection = core.connect(receiver, spec.congestionControl(), nowNs);
                watch.watch(connection);
                sendLog = core.sendLogOf(connection);
            }
            return;
        }
        offer(nowNs);
    }

    /**
     * Offer what the pattern allows now.
     *
     * @return messages offered; for a bulk application the scenario holds back, those an application that fills the
     * whole send buffer would have offered ({@link #offerAllAccepted}).
     */
    private int offer(final long nowNs)
    {
        if (ConnectionState.CONNECTED != connection.state() || nowNs >= spec.stopNs())
        {
            return 0;
        }
        if (NOT_CONNECTED == connectedNs)
        {
            // A rate-limited application offers at its rate from when it could first send, as one that waited for
            // its connect does: the handshake's round trips (two with the server's RETRY) are no backlog it owes.
            connectedNs = nowNs;
        }

        final long offeredBefore = offeredBytes;
        final AppPattern pattern = spec.pattern();
        switch (pattern.kind())
        {
            case BULK:
                return offerAllAccepted(pattern);

            case RATE_LIMITED:
                if (nowNs >= pattern.bulkFromNs())
                {
                    hasTurnedBulk = true;
                    return offerAllAccepted(pattern);
                }
                final long allowedBytes = pattern.bytesPerSecond() * (nowNs - connectedNs) / NANOS_PER_SECOND;
                isBehindWithFullBuffer = false;
                while (offeredBytes + pattern.messageBytes() <= allowedBytes)
                {
                    if (connection.offer(message, 0, pattern.messageBytes()) <= 0)
                    {
                        isBehindWithFullBuffer = true;
                        break;
                    }
                    offeredBytes += pattern.messageBytes();
                }
                break;

            case REQUEST_RESPONSE:
                if (nowNs >= nextRequestNs)
                {
                    message.putLong(0, nowNs);
                    if (connection.offer(message, 0, pattern.messageBytes()) > 0)
                    {
                        offeredBytes += pattern.messageBytes();
                    }
                    nextRequestNs += pattern.intervalNs();
                }
                break;
        }
        return (int)((offeredBytes - offeredBefore) / pattern.messageBytes());
    }

    /**
     * Offer messages until the connection refuses one (its send buffer is full) or, if the scenario holds this
     * application back ({@link Scenario#senderUnsentBytes}), until that many bytes wait unsent.
     *
     * @return messages offered, or if held back those an application that filled the whole send buffer would have
     * offered. The endpoint runs its duty cycle again at once when this is positive ({@link EndpointDriver#doWork}):
     * counted as offered, that would be after each duty cycle that sent, counted as the whole buffer's, after each that
     * freed room for a message (acknowledgements), as before; the second run is not idle (counted as offered, the
     * one-flow speed scenario's packets changed). Such an application's tail follows the acknowledged head as
     * {@link SendLog#offer}'s capacity check does: a message fits while its record (the message and its length
     * prefix) ends within one buffer of the head. After a probe timeout the application fills the whole buffer, and
     * so from then on offers what it counts: a connection that fails reports the bytes offered as before.
     */
    private int offerAllAccepted(final AppPattern pattern)
    {
        int offered = 0;
        final SendLog sendLog = this.sendLog;
        if (0 == heldUnsentBytes || null == sendLog)
        {
            while (connection.offer(message, 0, pattern.messageBytes()) > 0)
            {
                offeredBytes += pattern.messageBytes();
                offered++;
            }
            return offered;
        }
        if (!isFillingWholeBuffer && connection.stats().probeTimeouts() > 0)
        {
            isFillingWholeBuffer = true;
        }
        // The log's positions are read directly: the endpoint's duty cycle runs on this thread, between the offers.
        while ((isFillingWholeBuffer || sendLog.tailPosition() - sendLog.nextSendPosition() < heldUnsentBytes) &&
            connection.offer(message, 0, pattern.messageBytes()) > 0)
        {
            offeredBytes += pattern.messageBytes();
        }
        int wholeBufferOffers = 0;
        final long recordBytes = SendLog.LENGTH_PREFIX_BYTES + (long)pattern.messageBytes();
        final long ackedHead = sendLog.ackedHead();
        while (wholeBufferTail + recordBytes - sendBufferBytes <= ackedHead)
        {
            wholeBufferTail += recordBytes;
            wholeBufferOffers++;
        }
        return wholeBufferOffers;
    }

    public int afterWork(final long nowNs)
    {
        if (null == connection)
        {
            return 0;
        }
        watch.observe(nowNs);
        // Every RTT sample counts, not only changes of the latest value: on a stable path repeated values are the
        // common case. Samples taken within one duty cycle are represented by the latest.
        final ConnectionStats stats = connection.stats();
        final long rttSamples = stats.rttSamples();
        if (rttSamples > rttSamplesSeen)
        {
            results.onRttSamples(stats.latestRttNs(), rttSamples - rttSamplesSeen);
            rttSamplesSeen = rttSamples;
        }
        if (AppPattern.Kind.REQUEST_RESPONSE == spec.pattern().kind())
        {
            pollNowNs = nowNs;
            connection.poll(this, Integer.MAX_VALUE);
        }
        // The duty cycle may have connected or freed send-buffer space (ACKs): top up now so the data leaves at once.
        return offer(nowNs);
    }

    /**
     * A response: its first 8 bytes echo the request's send time.
     */
    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        responseTimes.recordValue(Math.max(0, pollNowNs - buffer.getLong(offset)));
    }

    public long nextEventNs()
    {
        if (null == connection)
        {
            return spec.startNs();
        }
        if (ConnectionState.CONNECTED != connection.state())
        {
            return Long.MAX_VALUE;
        }
        if (NOT_CONNECTED == connectedNs)
        {
            return spec.startNs(); // connected in this duty cycle: offer at once, which starts the rate's clock
        }
        final AppPattern pattern = spec.pattern();
        switch (pattern.kind())
        {
            case RATE_LIMITED:
                if (hasTurnedBulk || isBehindWithFullBuffer)
                {
                    // Bulk by now, or behind its rate with the send buffer full: acknowledgements make room and
                    // afterWork offers. A time in the past would make the host run this agent again at once, forever.
                    return Long.MAX_VALUE;
                }
                final long nextAllowedBytes = offeredBytes + pattern.messageBytes();
                final long nextNs = Math.min(pattern.bulkFromNs(),
                    connectedNs + nextAllowedBytes * NANOS_PER_SECOND / pattern.bytesPerSecond());
                return nextNs < spec.stopNs() ? nextNs : Long.MAX_VALUE;

            case REQUEST_RESPONSE:
                return nextRequestNs < spec.stopNs() ? nextRequestNs : Long.MAX_VALUE;

            default:
                return Long.MAX_VALUE;
        }
    }

    public void sample(final long nowNs, final ConnectionSample sample)
    {
        if (null == connection)
        {
            sample.set(0, 0, 0, 0, 0, 0, "IDLE");
            return;
        }
        final ConnectionStats stats = connection.stats();
        sample.set(
            stats.congestionWindowBytes(),
            stats.pacingRateBytesPerSecond(),
            stats.bytesInFlight(),
            stats.deliveryRateBytesPerSecond(),
            stats.smoothedRttNs(),
            stats.minRttNs(),
            core.controllerStateName(connection.connectionId()));
    }
}
