package io.pacelink.sim.scenario;

import io.pacelink.sim.results.FlowResults;
import io.pacelink.transport.Connection;
import io.pacelink.transport.MessageHandler;
import io.pacelink.transport.engine.EndpointCore;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The server side of one flow (its own endpoint): accepts the flow's connection, counts what the application
 * receives as goodput, and answers requests of a request/response flow.
 */
final class ReceiverApp implements HostApp, MessageHandler
{
    private final EndpointCore core;
    private final FlowResults results;
    private final AppPattern pattern;
    private final UnsafeBuffer response;
    private Connection connection;
    private long nowNs;
    private int responsesOffered;

    ReceiverApp(final EndpointCore core, final FlowResults results, final AppPattern pattern)
    {
        this.core = core;
        this.results = results;
        this.pattern = pattern;
        this.response = AppPattern.Kind.REQUEST_RESPONSE == pattern.kind() ?
            new UnsafeBuffer(new byte[Math.max(Long.BYTES, pattern.responseBytes())]) : null;
    }

    public void beforeWork(final long nowNs)
    {
    }

    public int afterWork(final long nowNs)
    {
        if (null == connection)
        {
            connection = core.accept();
            if (null == connection)
            {
                return 0;
            }
        }
        this.nowNs = nowNs;
        responsesOffered = 0;
        connection.poll(this, Integer.MAX_VALUE);
        return responsesOffered;
    }

    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        results.onDelivered(nowNs, length);
        if (null != response && length >= Long.BYTES)
        {
            response.putLong(0, buffer.getLong(offset));
            if (connection.offer(response, 0, pattern.responseBytes()) > 0)
            {
                responsesOffered++;
            }
        }
    }

    public long nextEventNs()
    {
        return Long.MAX_VALUE;
    }
}
