package io.pacelink.hostile;

import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.CloseFrameFlyweight;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * An attacker's client: a raw {@link DatagramChannel} on loopback that writes whatever packets a test asks for with
 * the wire package's writer, not through an endpoint, and records every datagram it receives. It can also play the
 * honest client's part of the handshake by hand, to reach an established connection and misbehave inside it.
 */
final class HostilePeer implements AutoCloseable
{
    static final int HELLO_BYTES = 1200;

    final DatagramChannel channel;
    final InetSocketAddress server;
    final long clientId = ThreadLocalRandom.current().nextLong() | 1;

    private final ByteBuffer sendByteBuffer = ByteBuffer.allocateDirect(65536);
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(sendByteBuffer);
    private final Crc32cPacketCheck crc = new Crc32cPacketCheck();
    private final ByteBuffer receiveByteBuffer = ByteBuffer.allocateDirect(65536);
    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();
    private final List<byte[]> received = new ArrayList<>();

    long serverId;
    int serverMinAckDelayUs = -1;
    long nextPacketNumber;
    long bytesSent;
    long bytesReceived;

    HostilePeer(final InetSocketAddress server)
    {
        this.server = server;
        try
        {
            channel = DatagramChannel.open();
            channel.bind(new InetSocketAddress("127.0.0.1", 0));
            channel.configureBlocking(false);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    InetSocketAddress localAddress()
    {
        try
        {
            return (InetSocketAddress)channel.getLocalAddress();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Send a hello as a client would, with the given parameters.
     *
     * @return bytes sent.
     */
    int sendHello(final int maxDatagramSize, final int datagramBytes, final DirectBuffer token, final int tokenLength)
    {
        return send((writer) ->
        {
            writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
            writer.appendHandshake(clientId, false, maxDatagramSize, 1_000, 30_000, 1 << 20, 1 << 20,
                token, 0, tokenLength);
            writer.appendPadding(datagramBytes - writer.length() - Crc32cPacketCheck.TRAILER_LENGTH);
        });
    }

    /**
     * Build one packet with the wire writer and send it to the server with its CRC32C trailer, as every packet of
     * wire version 3 ends.
     *
     * @return bytes sent.
     */
    int send(final Consumer<PacketWriter> build)
    {
        writer.wrap(sendBuffer, 0, 65_000 - Crc32cPacketCheck.TRAILER_LENGTH);
        build.accept(writer);
        return sendRaw(sendBuffer, crc.seal(sendBuffer, 0, writer.length()));
    }

    int sendRaw(final DirectBuffer buffer, final int length)
    {
        return sendRawTo(buffer, length, server);
    }

    int sendRawTo(final DirectBuffer buffer, final int length, final InetSocketAddress destination)
    {
        sendBuffer.putBytes(0, buffer, 0, length);
        sendByteBuffer.clear().limit(length);
        try
        {
            channel.send(sendByteBuffer, destination);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        bytesSent += length;
        return length;
    }

    /**
     * A ONE_RTT packet to the server's connection with the next packet number.
     */
    int sendOneRtt(final Consumer<PacketWriter> frames)
    {
        final long packetNumber = nextPacketNumber++;
        return send((writer) ->
        {
            writer.writeHeader(PacketType.ONE_RTT, serverId, packetNumber);
            frames.accept(writer);
        });
    }

    /**
     * The honest client's handshake, by hand: hello, the RETRY's token echoed, the server's answer, then a PING from
     * this address to the server's connection id, which confirms the handshake.
     */
    void handshake(final long timeoutNs)
    {
        sendHello(1472, HELLO_BYTES, null, 0);
        final byte[] retry = awaitPacket(PacketType.RETRY, timeoutNs);
        final UnsafeBuffer token = new UnsafeBuffer(new byte[RetryPacketFlyweight.MAX_TOKEN_LENGTH]);
        final UnsafeBuffer retryBuffer = new UnsafeBuffer(retry);
        final int tokenLength = retryBuffer.getInt(RetryPacketFlyweight.TOKEN_LENGTH_OFFSET,
            PacketHeaderFlyweight.BYTE_ORDER);
        token.putBytes(0, retryBuffer, RetryPacketFlyweight.TOKEN_OFFSET, tokenLength);
        sendHello(1472, HELLO_BYTES, token, tokenLength);

        final byte[] answer = awaitPacket(PacketType.HANDSHAKE, timeoutNs);
        final UnsafeBuffer answerBuffer = new UnsafeBuffer(answer);
        final int answerLength = answer.length - Crc32cPacketCheck.TRAILER_LENGTH;
        decoder.validate(answerBuffer, 0, answerLength);
        for (int type = decoder.firstFrame(answerBuffer, 0, answerLength);
            PacketDecoder.NO_MORE_FRAMES != type;
            type = decoder.nextFrame())
        {
            if (FrameType.HANDSHAKE == type)
            {
                serverId = decoder.handshake().sourceConnectionId();
            }
            else if (FrameType.MIN_ACK_DELAY == type)
            {
                serverMinAckDelayUs = decoder.minAckDelay().minAckDelayUs();
            }
        }
        sendOneRtt(PacketWriter::appendPing);
    }

    /**
     * Receive until a packet of the type arrives (others are recorded too).
     */
    byte[] awaitPacket(final int packetType, final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        int seen = received.size();
        while (System.nanoTime() < deadlineNs)
        {
            receiveAvailable();
            for (; seen < received.size(); seen++)
            {
                final byte[] datagram = received.get(seen);
                if (datagram.length >= PacketHeaderFlyweight.HEADER_LENGTH &&
                    packetType == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET])
                {
                    return datagram;
                }
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
        }
        throw new AssertionError("no " + PacketType.name(packetType) + " packet within " +
            TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms; received " + received.size() + " datagrams");
    }

    /**
     * Receive for a while, recording everything.
     */
    void receiveFor(final long durationNs)
    {
        final long deadlineNs = System.nanoTime() + durationNs;
        while (System.nanoTime() < deadlineNs)
        {
            if (0 == receiveAvailable())
            {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
            }
        }
    }

    /**
     * @return datagrams received now.
     */
    int receiveAvailable()
    {
        int count = 0;
        try
        {
            while (true)
            {
                receiveByteBuffer.clear();
                if (null == channel.receive(receiveByteBuffer))
                {
                    return count;
                }
                final byte[] datagram = new byte[receiveByteBuffer.position()];
                receiveByteBuffer.flip().get(datagram);
                received.add(datagram);
                bytesReceived += datagram.length;
                count++;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    List<byte[]> received()
    {
        return received;
    }

    /**
     * @return the packet numbers of the ONE_RTT packets received, in arrival order.
     */
    List<Long> oneRttPacketNumbers()
    {
        final List<Long> numbers = new ArrayList<>();
        for (final byte[] datagram : received)
        {
            if (datagram.length >= PacketHeaderFlyweight.HEADER_LENGTH &&
                PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET])
            {
                numbers.add(new UnsafeBuffer(datagram).getLong(
                    PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, PacketHeaderFlyweight.BYTE_ORDER));
            }
        }
        return numbers;
    }

    /**
     * @return the largest Largest Acknowledged of the ACK frames received, -1 if none.
     */
    long largestAcknowledgedByServer()
    {
        long largest = -1;
        for (final byte[] datagram : received)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
            if (PacketDecoder.OK != decoder.validate(buffer, 0, datagram.length - Crc32cPacketCheck.TRAILER_LENGTH) ||
                PacketType.ONE_RTT != decoder.packetType())
            {
                continue;
            }
            for (int type = decoder.firstFrame(buffer, 0, datagram.length - Crc32cPacketCheck.TRAILER_LENGTH);
                PacketDecoder.NO_MORE_FRAMES != type;
                type = decoder.nextFrame())
            {
                if (FrameType.ACK == type)
                {
                    final AckFrameFlyweight ack = decoder.ack();
                    largest = Math.max(largest, ack.largestAcked());
                }
            }
        }
        return largest;
    }

    /**
     * @return the error code of the first CLOSE packet received within the time, or -1.
     */
    int closeErrorCodeAfterWaiting(final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        int code;
        while ((code = closeErrorCode()) < 0 && System.nanoTime() < deadlineNs)
        {
            receiveFor(TimeUnit.MILLISECONDS.toNanos(10));
        }
        return code;
    }

    /**
     * @return the reason of the first CLOSE packet received, or "".
     */
    String closeReasonText()
    {
        final CloseFrameFlyweight close = firstCloseFrame();
        return null == close ? "" : close.reason();
    }

    /**
     * @return the error code of the first CLOSE packet received, or -1.
     */
    int closeErrorCode()
    {
        final CloseFrameFlyweight close = firstCloseFrame();
        return null == close ? -1 : close.errorCode();
    }

    private CloseFrameFlyweight firstCloseFrame()
    {
        for (final byte[] datagram : received)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
            if (PacketDecoder.OK == decoder.validate(buffer, 0, datagram.length - Crc32cPacketCheck.TRAILER_LENGTH) &&
                PacketType.CLOSE == decoder.packetType())
            {
                for (int type = decoder.firstFrame(buffer, 0, datagram.length - Crc32cPacketCheck.TRAILER_LENGTH);
                    PacketDecoder.NO_MORE_FRAMES != type;
                    type = decoder.nextFrame())
                {
                    if (FrameType.CLOSE == type)
                    {
                        return decoder.close();
                    }
                }
            }
        }
        return null;
    }

    /**
     * @return the HANDSHAKE frame's offset of the client id in a hello, for tests that rewrite a hello.
     */
    static int helloClientIdOffset()
    {
        return PacketHeaderFlyweight.HEADER_LENGTH + HandshakeFrameFlyweight.SOURCE_CONNECTION_ID_OFFSET;
    }

    public void close()
    {
        CloseHelper.quietClose(channel);
    }
}
