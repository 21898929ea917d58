package io.pacelink.hostile;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.secure.StatelessResetTokens;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.pacelink.hostile.Servers.counter;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stateless reset (RFC 9000 section 10.3) from raw sockets against real endpoints: a packet for a connection id the
 * server does not know draws one reset, shorter than the packet (one byte shorter up to 43 bytes, none for a trigger
 * of 21 bytes or less), looking like a ONE_RTT packet and ending in the id's token; resets to one address are held to
 * the answer rate; a client connection ignores a reset with a forged token, and the genuine token from the server's
 * address closes it as {@code PEER_RESET}.
 */
class StatelessResetHostileTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long MILLISECOND_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final byte[] resetKey = key(21);

    @Test
    void aPacketForAnUnknownConnectionIdDrawsAResetShorterThanItEndingInTheIdsToken()
    {
        try (Endpoint server = Servers.launch((context) -> context.security().statelessResetKey(resetKey));
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            final long unknownId = 0x0123_4567_89ab_cdefL;
            final byte[] token = tokenOf(unknownId);
            for (final int triggerLength : new int[]{ 20, 21, 22, 30, 43, 44, 100, 1200 })
            {
                peer.received().clear();
                final byte[] trigger = TestPackets.sealedLooking(triggerLength, unknownId);
                peer.sendRaw(new UnsafeBuffer(trigger), trigger.length);
                peer.receiveFor(triggerLength <= 21 ? 100 * MILLISECOND_NS : 0);
                if (triggerLength <= 21)
                {
                    assertEquals(0, peer.received().size(), "a trigger of " + triggerLength + " bytes gets none");
                    continue;
                }
                final byte[] reset = awaitOne(peer);
                assertTrue(reset.length < triggerLength, reset.length + " bytes for " + triggerLength);
                assertTrue(triggerLength > 43 ? reset.length >= 43 : reset.length == triggerLength - 1,
                    reset.length + " bytes for " + triggerLength);
                assertEquals(PacketHeaderFlyweight.CURRENT_VERSION, reset[PacketHeaderFlyweight.VERSION_OFFSET]);
                assertEquals(PacketType.ONE_RTT, reset[PacketHeaderFlyweight.PACKET_TYPE_OFFSET]);
                assertArrayEquals(token, Arrays.copyOfRange(reset, reset.length - token.length, reset.length));
            }

            // A genuine-looking plaintext packet (its CRC32C checks) to an unknown id draws one too.
            peer.received().clear();
            peer.serverId = unknownId;
            peer.sendOneRtt((writer) -> writer.appendPing());
            final byte[] reset = awaitOne(peer);
            assertArrayEquals(token, Arrays.copyOfRange(reset, reset.length - token.length, reset.length));
            assertEquals(7, counter(server, "stateless-resets-sent"));
        }
    }

    @Test
    void resetsToOneAddressAreHeldToTheAnswerRate()
    {
        try (Endpoint server = Servers.launch((context) -> context.limits().unvalidatedAnswersPerSecondPerSource(100));
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            final long startNs = System.nanoTime();
            for (int i = 0; i < 1000; i++)
            {
                final byte[] trigger = TestPackets.sealedLooking(200, 1_000_000L + i);
                peer.sendRaw(new UnsafeBuffer(trigger), trigger.length);
                peer.receiveAvailable();
            }
            awaitCounter(server, "packets-for-unknown-connection", 1000);
            peer.receiveFor(50 * MILLISECOND_NS);
            final double elapsedSeconds = (System.nanoTime() - startNs) / 1e9;
            final int resets = peer.received().size();
            // The per-address bucket: a burst of 200, then 100 a second.
            assertTrue(resets <= 200 + 100 * elapsedSeconds + 1, resets + " resets in " + elapsedSeconds + " s");
            assertTrue(resets >= 100, "resets: " + resets);
            assertEquals(resets, counter(server, "stateless-resets-sent"));
            assertEquals(1000 - resets, counter(server, "answers-rate-limited"));
            for (final byte[] reset : peer.received())
            {
                assertTrue(reset.length < 200, "never longer than its trigger: " + reset.length);
            }
        }
    }

    @Test
    void aForgedResetDoesNothingAndTheGenuineOneClosesTheClientAsPeerReset() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> context.security().statelessResetKey(resetKey));
            Endpoint client = Servers.launch((context) -> context.acceptConnections(false));
            OnPathRelay relay = new OnPathRelay(server.localAddress()))
        {
            final Connection sender = client.connect(relay.address());
            final Connection receiver = awaitAccepted(server, sender);
            final byte[] token = tokenOf(receiver.connectionId());
            final byte[] forged = token.clone();
            forged[0] ^= 0x40;
            for (final int length : new int[]{ 21, 43, 100, 1200 })
            {
                relay.injectToClient(TestPackets.endingIn(length, forged));
            }
            exchange(sender, receiver, 50);
            assertEquals(ConnectionState.CONNECTED, sender.state());
            assertEquals(0, counter(client, "stateless-resets-received"));
            assertTrue(counter(client, "integrity-failures") >= 4, "the forged resets, dropped as corrupt packets");

            relay.injectToClient(TestPackets.endingIn(57, token));
            final long deadlineNs = System.nanoTime() + 5 * SECOND_NS;
            while (ConnectionState.CLOSED != sender.state())
            {
                assertTrue(System.nanoTime() < deadlineNs, "the genuine reset closes the client");
                LockSupport.parkNanos(MILLISECOND_NS);
            }
            assertEquals(CloseReason.PEER_RESET, sender.closeReason());
            assertEquals(1, counter(client, "stateless-resets-received"));
        }
    }

    private byte[] tokenOf(final long connectionId)
    {
        final byte[] token = new byte[StatelessResetTokens.TOKEN_LENGTH];
        new StatelessResetTokens(resetKey).write(connectionId, new UnsafeBuffer(token), 0);
        return token;
    }

    private static byte[] awaitOne(final HostilePeer peer)
    {
        final long deadlineNs = System.nanoTime() + 5 * SECOND_NS;
        while (peer.received().isEmpty())
        {
            assertTrue(System.nanoTime() < deadlineNs, "no reset came");
            peer.receiveFor(MILLISECOND_NS);
        }
        peer.receiveFor(20 * MILLISECOND_NS);
        assertEquals(1, peer.received().size(), "one reset per trigger");
        return peer.received().get(0);
    }

    private static void awaitCounter(final Endpoint endpoint, final String name, final long value)
    {
        final long deadlineNs = System.nanoTime() + 10 * SECOND_NS;
        while (counter(endpoint, name) < value)
        {
            assertTrue(System.nanoTime() < deadlineNs, name + ": " + counter(endpoint, name));
            LockSupport.parkNanos(MILLISECOND_NS);
        }
    }

    private static Connection awaitAccepted(final Endpoint server, final Connection sender)
    {
        final long deadlineNs = System.nanoTime() + 5 * SECOND_NS;
        Connection accepted = null;
        while (null == accepted || ConnectionState.CONNECTED != sender.state())
        {
            assertTrue(System.nanoTime() < deadlineNs, "connect");
            if (null == accepted)
            {
                accepted = server.accept();
            }
            LockSupport.parkNanos(MILLISECOND_NS);
        }
        return accepted;
    }

    private static void exchange(final Connection sender, final Connection receiver, final int messages)
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[512]);
        final int[] received = {0};
        int sent = 0;
        final long deadlineNs = System.nanoTime() + 10 * SECOND_NS;
        while (received[0] < messages)
        {
            assertTrue(System.nanoTime() < deadlineNs, "exchange: " + received[0] + " of " + messages);
            if (sent < messages && sender.offer(message, 0, message.capacity()) > 0)
            {
                sent++;
            }
            receiver.poll((buffer, offset, length) -> received[0]++, 16);
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
    }

    private static byte[] key(final long seed)
    {
        final byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }
}
