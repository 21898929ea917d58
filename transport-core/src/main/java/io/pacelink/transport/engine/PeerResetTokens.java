package io.pacelink.transport.engine;

import io.pacelink.transport.secure.StatelessResetTokens;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

import java.net.InetSocketAddress;

/**
 * The stateless reset tokens this endpoint's client connections were given by their servers, to recognise a reset
 * (RFC 9000 section 10.3.1): a datagram that belongs to no connection — an unknown connection id, or a failed
 * integrity check — whose last {@link StatelessResetTokens#TOKEN_LENGTH} bytes are a connection's token, from that
 * connection's server address. Found by the token's first 8 bytes in a primitive-keyed map and then compared whole,
 * so a check costs a hash lookup and allocates nothing. Agent thread only.
 */
final class PeerResetTokens
{
    private final Long2ObjectHashMap<ConnectionCore> byTokenHead = new Long2ObjectHashMap<>();

    /**
     * A client connection's server accepted its hello: its token, if the answer gave one, is recognised from now on.
     */
    void add(final ConnectionCore connection)
    {
        if (connection.hasPeerResetToken())
        {
            byTokenHead.put(connection.peerResetTokenHead(), connection);
        }
    }

    /**
     * A connection left the table: its token is no longer recognised.
     */
    void remove(final ConnectionCore connection)
    {
        if (connection.hasPeerResetToken() && byTokenHead.get(connection.peerResetTokenHead()) == connection)
        {
            byTokenHead.remove(connection.peerResetTokenHead());
        }
    }

    /**
     * Forget every token (the endpoint closed).
     */
    void clear()
    {
        byTokenHead.clear();
    }

    /**
     * @param buffer holding a datagram that belongs to no connection.
     * @param offset of its first byte.
     * @param length of the datagram.
     * @param source where it came from.
     * @return the open connection it resets, or null if it is not a stateless reset for any.
     */
    ConnectionCore resetConnection(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source)
    {
        if (length < StatelessReplies.MIN_STATELESS_RESET_BYTES || byTokenHead.isEmpty())
        {
            return null;
        }
        final int tokenOffset = offset + length - StatelessResetTokens.TOKEN_LENGTH;
        final long head = buffer.getLong(tokenOffset, PacketHeaderFlyweight.BYTE_ORDER);
        final long tail = buffer.getLong(tokenOffset + Long.BYTES, PacketHeaderFlyweight.BYTE_ORDER);
        final ConnectionCore connection = byTokenHead.get(head);
        if (null == connection || connection.isClosed() || !connection.isPeerResetToken(head, tail) ||
            !connection.remoteAddress().equals(source))
        {
            return null;
        }
        return connection;
    }
}
