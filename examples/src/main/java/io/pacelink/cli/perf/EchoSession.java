package io.pacelink.cli.perf;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.MessageHandler;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * A ping connection at the server: every message is sent straight back. A reply the send buffer cannot take yet is
 * kept (one message) and nothing more is read until it went out, so a client that floods only slows itself down.
 */
final class EchoSession implements MessageHandler
{
    private static final int MAX_ECHOES_PER_TURN = 16;

    private final Connection connection;
    private final ExpandableDirectByteBuffer pending = new ExpandableDirectByteBuffer(256);
    private int pendingLength = -1;

    /**
     * @param connection a connection whose hello said {@code ping}.
     */
    EchoSession(final Connection connection)
    {
        this.connection = connection;
    }

    /**
     * @return messages echoed.
     */
    int echo()
    {
        if (pendingLength >= 0)
        {
            if (connection.offer(pending, 0, pendingLength) < 0)
            {
                return 0;
            }
            pendingLength = -1;
        }
        int echoed = 0;
        // One message per poll, so that a reply the send buffer refuses is the only one kept.
        while (echoed < MAX_ECHOES_PER_TURN && pendingLength < 0 && connection.poll(this, 1) > 0)
        {
            echoed++;
        }
        return echoed;
    }

    /**
     * @return true once the client closed the connection (or it failed) and nothing is left to answer.
     */
    boolean isClosed()
    {
        return ConnectionState.CLOSED == connection.state();
    }

    /**
     * @return the connection.
     */
    Connection connection()
    {
        return connection;
    }

    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        if (connection.offer(buffer, offset, length) < 0)
        {
            pending.putBytes(0, buffer, offset, length);
            pendingLength = length;
        }
    }
}
