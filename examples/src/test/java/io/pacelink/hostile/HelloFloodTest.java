package io.pacelink.hostile;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.RetryMode;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static io.pacelink.hostile.Servers.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The acceptance test of docs/security.md, "Admission": 100,000 hellos from 2,000 source ports at full speed leave
 * the endpoint's heap and direct memory within 64 MiB of idle, while a real client connects and moves 5 MB through
 * it, byte for byte.
 */
class HelloFloodTest
{
    private static final int HELLOS = 100_000;
    private static final int SOURCE_PORTS = 2_000;
    private static final int TRANSFER_BYTES = 5_000_000;
    private static final int MESSAGE_BYTES = 10_000;
    private static final long LIMIT_BYTES = 64L << 20;

    /**
     * With the RETRY forced, and in the default mode, where the flood must turn it on. The real client is another host
     * (127.0.0.2): the flood spends its own host's rates.
     */
    @ParameterizedTest
    @EnumSource(value = RetryMode.class, names = {"ALWAYS", "AUTO"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aFloodOfHellosLeavesMemoryNearIdleWhileARealClientTransfers(final RetryMode retryMode) throws Exception
    {
        final DatagramChannel[] sources = new DatagramChannel[SOURCE_PORTS];
        try (Endpoint server = Servers.launch((context) -> context.limits().retryMode(retryMode));
            Endpoint client = Servers.launch((context) -> context.acceptConnections(false)
                .bindAddress(new InetSocketAddress("127.0.0.2", 0))))
        {
            for (int i = 0; i < SOURCE_PORTS; i++)
            {
                sources[i] = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
                sources[i].configureBlocking(false);
            }
            final long idleBytes = MemoryProbe.liveHeapPlusDirectBytes();
            final long idleDirectBytes = MemoryProbe.directBytes();

            final AtomicLong peakDirectBytes = new AtomicLong();
            final AtomicReference<Throwable> transferFailure = new AtomicReference<>();
            final long[] received = new long[1];
            final Thread transfer = new Thread(() ->
            {
                try
                {
                    received[0] = transfer(server, client, peakDirectBytes);
                }
                catch (final Throwable ex)
                {
                    transferFailure.set(ex);
                }
            }, "real-client");
            transfer.start();

            final long floodStartNs = System.nanoTime();
            flood(sources, server.localAddress());
            final long floodNs = System.nanoTime() - floodStartNs;
            transfer.join(TimeUnit.SECONDS.toMillis(90));
            final long afterBytes = MemoryProbe.liveHeapPlusDirectBytes();

            assertNull(transferFailure.get(), () -> "the real client failed: " + transferFailure.get());
            assertEquals(TRANSFER_BYTES, received[0]);
            final long retries = counter(server, "retries-sent");
            System.out.printf("hello flood: %d hellos from %d ports in %d ms; server received %d datagrams, sent %d " +
                "retries; connections opened %d; idle %s, after %s (+%s), peak direct during the flood +%s%n",
                HELLOS, SOURCE_PORTS, TimeUnit.NANOSECONDS.toMillis(floodNs),
                counter(server, "datagrams-received"), retries, counter(server, "connections-opened"),
                MemoryProbe.mebibytes(idleBytes), MemoryProbe.mebibytes(afterBytes),
                MemoryProbe.mebibytes(afterBytes - idleBytes),
                MemoryProbe.mebibytes(peakDirectBytes.get() - idleDirectBytes));
            final long answersLimited = counter(server, "answers-rate-limited");
            final long unvalidated = counter(server, "handshakes-unvalidated");
            System.out.printf("  %s: answers over the rate %d, handshakes without a RETRY %d, evicted %d%n", retryMode,
                answersLimited, unvalidated, counter(server, "handshakes-evicted"));
            assertTrue(retries > 0, "the flood turned the RETRY on");
            assertTrue(retries + answersLimited + unvalidated > HELLOS / 10,
                "the flood reached the server: " + retries + " retries");
            // One source's answers stay within its rate: a burst of 200 and 100 a second.
            final long floodSeconds = 1 + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - floodStartNs);
            assertTrue(retries <= 1 + 200 + 100 * floodSeconds, retries + " retries to one address");
            if (RetryMode.ALWAYS == retryMode)
            {
                assertEquals(1, counter(server, "connections-opened"), "only the real client got state");
            }
            assertTrue(afterBytes - idleBytes <= LIMIT_BYTES,
                "grew by " + MemoryProbe.mebibytes(afterBytes - idleBytes));
        }
        finally
        {
            for (final DatagramChannel source : sources)
            {
                CloseHelper.quietClose(source);
            }
        }
    }

    private static void flood(final DatagramChannel[] sources, final InetSocketAddress server) throws IOException
    {
        final ByteBuffer datagram = ByteBuffer.allocateDirect(HostilePeer.HELLO_BYTES);
        final UnsafeBuffer hello = new UnsafeBuffer(datagram);
        final PacketWriter writer = new PacketWriter().wrap(hello, 0, hello.capacity());
        writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
        writer.appendHandshake(1, false, 1472, 1_000, 30_000, 1 << 20, 1 << 20, null, 0, 0);
        writer.appendPadding(writer.remaining() - Crc32cPacketCheck.TRAILER_LENGTH);
        final Crc32cPacketCheck crc = new Crc32cPacketCheck();
        for (int i = 0; i < HELLOS; i++)
        {
            hello.putLong(HostilePeer.helloClientIdOffset(), 0x5eedL * i + 1, PacketHeaderFlyweight.BYTE_ORDER);
            crc.seal(hello, 0, writer.length());
            datagram.clear();
            sources[i % SOURCE_PORTS].send(datagram, server);
        }
    }

    private static long transfer(final Endpoint server, final Endpoint client, final AtomicLong peakDirectBytes)
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        final Connection sender = client.connect(server.localAddress());
        Connection receiver = null;
        while (null == receiver || ConnectionState.CONNECTED != sender.state())
        {
            if (null == receiver)
            {
                receiver = server.accept();
            }
            check(deadlineNs, sender, "connect");
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }

        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE_BYTES));
        long offered = 0;
        final long[] received = {0, 0};
        while (received[0] < TRANSFER_BYTES)
        {
            if (offered < TRANSFER_BYTES)
            {
                final int length = (int)Math.min(MESSAGE_BYTES, TRANSFER_BYTES - offered);
                for (int i = 0; i < length; i += Long.BYTES)
                {
                    message.putLong(i, offered + i);
                }
                if (sender.offer(message, 0, length) > 0)
                {
                    offered += length;
                }
            }
            receiver.poll((buffer, offset, length) ->
            {
                for (int i = 0; i + Long.BYTES <= length; i += Long.BYTES)
                {
                    if (buffer.getLong(offset + i) != received[0] + i)
                    {
                        throw new AssertionError("byte " + (received[0] + i) + " differs");
                    }
                }
                received[0] += length;
            }, 16);
            peakDirectBytes.accumulateAndGet(MemoryProbe.directBytes(), Math::max);
            check(deadlineNs, sender, "transfer at " + received[0]);
        }
        return received[0];
    }

    private static void check(final long deadlineNs, final Connection sender, final String what)
    {
        if (System.nanoTime() > deadlineNs || ConnectionState.CLOSED == sender.state())
        {
            throw new AssertionError(what + " failed: " + sender);
        }
    }
}
