package io.pacelink.hostile;

import io.pacelink.transport.Endpoint;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.pacelink.hostile.Servers.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an idle connection costs a server (docs/security.md, "Memory"): 10,000 connections opened and confirmed by hand
 * from a raw socket, so only the server's side is measured, then the server's live heap and direct memory compared
 * with before. The counters each connection registers live in the endpoint's preallocated counters buffer, reported
 * beside (the default buffer, sized for {@code maxConnections}).
 */
class IdleConnectionsMemoryTest
{
    private static final int CONNECTIONS = 10_000;
    private static final int BATCH = 200;

    /**
     * The bound asserted: far above the measured figure, far below what a connection cost before its memory was
     * committed as needed (two 32 MiB buffers, a 16 MiB scratch array and a 64 Ki-slot sent-packet ring).
     */
    private static final long MAX_BYTES_PER_CONNECTION = 64 << 10;

    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
    private final Crc32cPacketCheck crc = new Crc32cPacketCheck();
    private final ByteBuffer receiveByteBuffer = ByteBuffer.allocateDirect(2048);
    private final UnsafeBuffer receiveBuffer = new UnsafeBuffer(receiveByteBuffer);

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void tenThousandIdleConnections() throws Exception
    {
        // maxConnections and the counters buffer are the defaults: they hold 10,000 connections without a setting.
        try (Endpoint server = Servers.launch((context) -> context
                .idleTimeoutNs(TimeUnit.MINUTES.toNanos(10))
                .limits().handshakesPerSecondPerSource(1_000_000).handshakeBurstPerSource(1_000_000)
                .maxUnconfirmedHandshakes(CONNECTIONS).maxUnconfirmedHandshakesPerSource(CONNECTIONS)
                .unvalidatedAnswersPerSecondPerSource(1_000_000).unvalidatedAnswersPerSecond(10_000_000));
            Servers.SendingApplication application = new Servers.SendingApplication(server, 0);
            DatagramChannel channel = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0)))
        {
            channel.configureBlocking(false);
            final InetSocketAddress address = server.localAddress();
            final long beforeBytes = MemoryProbe.liveHeapPlusDirectBytes();

            final Map<Long, byte[]> tokens = new HashMap<>();
            final Map<Long, Long> serverIds = new HashMap<>();
            final long firstClientId = 0x1000_0000L;
            for (int first = 0; first < CONNECTIONS; first += BATCH)
            {
                final int from = first;
                final int to = Math.min(CONNECTIONS, first + BATCH);
                exchange(channel, address, from, to, firstClientId, (clientId) -> !tokens.containsKey(clientId),
                    (clientId) -> sendHello(channel, address, clientId, null), tokens, serverIds);
                exchange(channel, address, from, to, firstClientId, (clientId) -> !serverIds.containsKey(clientId),
                    (clientId) -> sendHello(channel, address, clientId, tokens.get(clientId)), tokens, serverIds);
                final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (application.accepted.size() < to)
                {
                    assertTrue(System.nanoTime() < deadlineNs, application.accepted.size() + " accepted");
                    // A duplicate of a confirmation that arrived is dropped as such: resending is harmless.
                    for (long clientId = firstClientId + from; clientId < firstClientId + to; clientId++)
                    {
                        sendPing(channel, address, serverIds.get(clientId));
                    }
                    final long waitUntilNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                    while (application.accepted.size() < to && System.nanoTime() < waitUntilNs)
                    {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                }
            }
            Servers.await(() -> CONNECTIONS == application.accepted.size(), TimeUnit.SECONDS.toNanos(60),
                "every connection accepted");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
            final long afterBytes = MemoryProbe.liveHeapPlusDirectBytes();

            final int countersPerConnection = countersOf(server.countersReader(), CONNECTIONS);
            final long perConnectionBytes = (afterBytes - beforeBytes) / CONNECTIONS;
            final long counterBytes = (long)countersPerConnection *
                (CountersReader.COUNTER_LENGTH + CountersReader.METADATA_LENGTH);
            System.out.printf("idle connections: %d open; heap + direct %s before, %s after: %d bytes per " +
                "connection, plus %d counters (%d bytes) in the preallocated counters buffer; memory committed %d%n",
                CONNECTIONS, MemoryProbe.mebibytes(beforeBytes), MemoryProbe.mebibytes(afterBytes), perConnectionBytes,
                countersPerConnection, counterBytes, counter(server, "memory-committed-bytes"));
            assertEquals(CONNECTIONS, counter(server, "connections-opened") - counter(server, "connections-closed"));
            assertTrue(perConnectionBytes < MAX_BYTES_PER_CONNECTION, perConnectionBytes + " bytes per connection");
        }
    }

    private int countersOf(final CountersReader reader, final int connections)
    {
        final int[] count = {0};
        reader.forEach((counterId, label) -> count[0]++);
        final int[] system = {0};
        reader.forEach((counterId, typeId, keyBuffer, label) -> system[0] += label.startsWith("endpoint") ? 1 : 0);
        // A connection's transport counters are registered by their first values other than 0, its state at once.
        assertTrue(count[0] - system[0] >= connections,
            count[0] + " counters, " + system[0] + " of the endpoint");
        return (count[0] - system[0]) / connections;
    }

    private interface ClientIdPredicate
    {
        boolean test(long clientId);
    }

    private interface ClientIdAction
    {
        void apply(long clientId) throws IOException;
    }

    /**
     * Send for every client id of the batch still missing an answer, collect answers, and repeat for what the
     * sockets dropped.
     */
    private void exchange(
        final DatagramChannel channel,
        final InetSocketAddress address,
        final int from,
        final int to,
        final long firstClientId,
        final ClientIdPredicate isMissing,
        final ClientIdAction send,
        final Map<Long, byte[]> tokens,
        final Map<Long, Long> serverIds) throws IOException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true)
        {
            int missing = 0;
            for (long clientId = firstClientId + from; clientId < firstClientId + to; clientId++)
            {
                if (isMissing.test(clientId))
                {
                    send.apply(clientId);
                    missing++;
                }
            }
            if (0 == missing)
            {
                return;
            }
            assertTrue(System.nanoTime() < deadlineNs, missing + " hellos unanswered");
            final long waitUntilNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            while (System.nanoTime() < waitUntilNs)
            {
                if (!receive(channel, tokens, serverIds))
                {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
                }
            }
        }
    }

    private boolean receive(final DatagramChannel channel, final Map<Long, byte[]> tokens,
        final Map<Long, Long> serverIds) throws IOException
    {
        receiveByteBuffer.clear();
        if (null == channel.receive(receiveByteBuffer))
        {
            return false;
        }
        final int length = receiveByteBuffer.position() - Crc32cPacketCheck.TRAILER_LENGTH;
        if (PacketDecoder.OK != decoder.validate(receiveBuffer, 0, length))
        {
            return true;
        }
        final long clientId = decoder.destinationConnectionId();
        if (PacketType.RETRY == decoder.packetType())
        {
            final byte[] token = new byte[decoder.retry().tokenLength()];
            receiveBuffer.getBytes(RetryPacketFlyweight.TOKEN_OFFSET, token);
            tokens.put(clientId, token);
        }
        else if (PacketType.HANDSHAKE == decoder.packetType())
        {
            for (int type = decoder.firstFrame(receiveBuffer, 0, length);
                PacketDecoder.NO_MORE_FRAMES != type;
                type = decoder.nextFrame())
            {
                if (FrameType.HANDSHAKE == type)
                {
                    serverIds.put(clientId, decoder.handshake().sourceConnectionId());
                }
            }
        }
        return true;
    }

    private void sendHello(
        final DatagramChannel channel, final InetSocketAddress address, final long clientId, final byte[] token)
        throws IOException
    {
        writer.wrap(sendBuffer, 0, HostilePeer.HELLO_BYTES - Crc32cPacketCheck.TRAILER_LENGTH);
        writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
        final UnsafeBuffer tokenBuffer = null == token ? null : new UnsafeBuffer(token);
        writer.appendHandshake(clientId, false, 1472, 1_000, 600_000, 1 << 20, 1 << 20,
            tokenBuffer, 0, null == token ? 0 : token.length);
        writer.appendPadding(writer.remaining());
        send(channel, address, writer.length());
    }

    private void sendPing(final DatagramChannel channel, final InetSocketAddress address, final long serverId)
        throws IOException
    {
        writer.wrap(sendBuffer, 0, 64);
        writer.writeHeader(PacketType.ONE_RTT, serverId, 0);
        writer.appendPing();
        send(channel, address, writer.length());
    }

    private void send(final DatagramChannel channel, final InetSocketAddress address, final int length)
        throws IOException
    {
        final ByteBuffer datagram = sendBuffer.byteBuffer().duplicate();
        datagram.clear().limit(crc.seal(sendBuffer, 0, length));
        channel.send(datagram, address);
        assertTrue(PacketHeaderFlyweight.HEADER_LENGTH <= length);
    }
}
