package io.pacelink.cli.perf;

import io.pacelink.transport.Connection;
import io.pacelink.transport.MessageHandler;
import org.agrona.DirectBuffer;

/**
 * A connection that carries perf protocol messages: decodes what arrives, one message per {@link #poll()}, and
 * encodes what is sent.
 */
final class ControlChannel implements MessageHandler
{
    private final Connection connection;
    private final String peerName;
    private final int maxMessageBytes;
    private PerfMessage received;

    /**
     * @param connection the connection.
     * @param peerName   who is on the other end, for messages, e.g. {@code the server}.
     */
    ControlChannel(final Connection connection, final String peerName)
    {
        this(connection, peerName, PerfCodec.MAX_CONTROL_MESSAGE_BYTES);
    }

    /**
     * @param connection      the connection.
     * @param peerName        who is on the other end, for messages, e.g. {@code the client}.
     * @param maxMessageBytes the longest message read; a longer one is the peer's error.
     */
    ControlChannel(final Connection connection, final String peerName, final int maxMessageBytes)
    {
        this.connection = connection;
        this.peerName = peerName;
        this.maxMessageBytes = maxMessageBytes;
    }

    /**
     * @return the connection.
     */
    Connection connection()
    {
        return connection;
    }

    /**
     * @return the next message, or null if none has arrived.
     * @throws io.pacelink.cli.net.TransportFailure if what arrived is not a message of the protocol.
     */
    PerfMessage poll()
    {
        received = null;
        connection.poll(this, 1);
        return received;
    }

    /**
     * @param message to send.
     * @throws io.pacelink.cli.net.TransportFailure if the connection does not take it.
     */
    void send(final PerfMessage message)
    {
        PerfCodec.send(connection, message);
    }

    public void onMessage(final DirectBuffer buffer, final int offset, final int length)
    {
        received = PerfCodec.decode(buffer, offset, length, peerName, maxMessageBytes);
    }
}
