package io.pacelink.sim.scenario;

import io.pacelink.sim.results.FlowResults;
import io.pacelink.transport.Connection;
import io.pacelink.transport.MessagePartHandler;
import io.pacelink.transport.engine.AcceptHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The server side of one flow (its own endpoint): accepts the flow's connection, counts what the application
 * receives as goodput, and answers requests of a request/response flow.
 * <p>
 * It takes a message that spans the receive log's segments in its parts ({@link MessagePartHandler}), as an
 * application that streams what it receives does: it reads at most a request's first 8 bytes, so a contiguous copy
 * of each such message (one in four of the default 16-KiB messages in 64-KiB segments) would be work for nothing.
 * The message counts when its last part arrives, with the same time and length as it would whole.
 */
final class ReceiverApp implements HostApp, AcceptHandler, MessagePartHandler
{
    private final FlowResults results;
    private final AppPattern pattern;
    private final UnsafeBuffer response;
    private final ConnectionWatch watch = new ConnectionWatch();
    private Connection connection;
    private long nowNs;
    private int responsesOffered;

    ReceiverApp(final FlowResults results, final AppPattern pattern)
    {
        this.results = results;
        this.pattern = pattern;
        this.response = AppPattern.Kind.REQUEST_RESPONSE == pattern.kind() ?
            new UnsafeBuffer(new byte[Math.max(Long.BYTES, pattern.responseBytes())]) : null;
    }

    /**
     * @return the connection it accepted, or null before one arrived.
     */
    Connection connection()
    {
        return connection;
    }

    public boolean onAccepted(final Connection connection)
    {
        if (null == this.connection)
        {
            this.connection = connection;
            watch.watch(connection);
        }
        return true;
    }

    /**
     * @return how the receiving connection stands now.
     */
    ConnectionEnd connectionEnd()
    {
        return watch.end();
    }

    public void beforeWork(final long nowNs)
    {
    }

    public int afterWork(final long nowNs)
    {
        if (null == connection)
        {
            return 0;
        }
        watch.observe(nowNs);
        this.nowNs = nowNs;
        responsesOffered = 0;
        connection.poll(this, Integer.MAX_VALUE);
        return responsesOffered;
    }

    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        if (null != response && length >= Long.BYTES)
        {
            response.putLong(0, buffer.getLong(offset));
        }
        onWhole(length);
    }

    public void onMessagePart(
        final DirectBuffer buffer, final int offset, final int length, final int messageOffset, final int messageLength)
    {
        if (null != response && messageLength >= Long.BYTES && messageOffset < Long.BYTES)
        {
            // The request's first 8 bytes, which the response echoes, may lie across two parts.
            for (int i = 0, n = Math.min(length, Long.BYTES - messageOffset); i < n; i++)
            {
                response.putByte(messageOffset + i, buffer.getByte(offset + i));
            }
        }
        if (messageOffset + length == messageLength)
        {
            onWhole(messageLength);
        }
    }

    private void onWhole(final int length)
    {
        results.onDelivered(nowNs, length);
        if (null != response && length >= Long.BYTES && connection.offer(response, 0, pattern.responseBytes()) > 0)
        {
            responsesOffered++;
        }
    }

    public long nextEventNs()
    {
        return Long.MAX_VALUE;
    }
}
