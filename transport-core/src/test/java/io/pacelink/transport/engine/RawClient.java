package io.pacelink.transport.engine;

import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A client written by hand on a port of the test network, for the engine's hostile-input tests in virtual time: it
 * sends hellos (with or without a token), and reads what the server answered — RETRY tokens, HANDSHAKE answers,
 * refusals — without ever confirming a handshake unless told to.
 */
final class RawClient
{
    static final int HELLO_BYTES = 1200;

    private final TestNetwork.Port port;
    private final InetSocketAddress server;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private final PacketWriter writer = new PacketWriter();
    private final List<byte[]> received = new ArrayList<>();

    RawClient(final TestNetwork.Port port, final InetSocketAddress server)
    {
        this.port = port;
        this.server = server;
    }

    TestNetwork.Port port()
    {
        return port;
    }

    /**
     * A full-size hello of this version for the client id, echoing a token if one is given.
     */
    void sendHello(final long clientId, final byte[] token)
    {
        port.send(buffer, 0, helloDatagram(clientId, token).length, server);
    }

    /**
     * @return the datagram of such a hello (CRC32C included), also left at the start of the buffer.
     */
    byte[] helloDatagram(final long clientId, final byte[] token)
    {
        writer.wrap(buffer, 0, HELLO_BYTES - Crc32cPacketCheck.TRAILER_LENGTH);
        writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
        final int tokenLength = null == token ? 0 : token.length;
        writer.appendHandshake(clientId, false, 1472, 1_000, 30_000, 1 << 20, 1 << 20,
            null == token ? null : new UnsafeBuffer(token), 0, tokenLength);
        writer.appendPadding(writer.remaining());
        final byte[] datagram = TestPackets.withCrc(buffer, writer.length());
        buffer.putBytes(0, datagram);
        return datagram;
    }

    /**
     * Take everything the server sent since the last call.
     *
     * @return the datagrams, oldest first.
     */
    List<byte[]> drain(final long nowNs)
    {
        received.clear();
        port.receive((data, offset, length, source, timeNs) ->
        {
            final byte[] datagram = new byte[length];
            data.getBytes(offset, datagram);
            received.add(datagram);
        }, Integer.MAX_VALUE, nowNs);
        return new ArrayList<>(received);
    }

    static int type(final byte[] datagram)
    {
        return datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET];
    }

    static long destinationId(final byte[] datagram)
    {
        return new UnsafeBuffer(datagram).getLong(
            PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, PacketHeaderFlyweight.BYTE_ORDER);
    }

    /**
     * @return the token of a RETRY datagram.
     */
    static byte[] retryToken(final byte[] retry)
    {
        final DirectBuffer retryBuffer = new UnsafeBuffer(retry);
        final int length =
            retryBuffer.getInt(RetryPacketFlyweight.TOKEN_LENGTH_OFFSET, PacketHeaderFlyweight.BYTE_ORDER);
        final byte[] token = new byte[length];
        retryBuffer.getBytes(RetryPacketFlyweight.TOKEN_OFFSET, token);
        return token;
    }
}
