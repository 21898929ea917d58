package io.pacelink.hostile;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionFailedException;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.keys.KeyFingerprint;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.secure.X25519;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.wire.NoiseFrameFlyweight;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.pacelink.hostile.Servers.await;
import static io.pacelink.hostile.Servers.counter;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The authenticated cases of the hostile-peer suite (docs/security.md, "Secure mode"), on real sockets: an on-path
 * attacker relays a Noise NK session between a real client and a real server, reads everything, and injects from the
 * client's address a forged plaintext CLOSE and DATA, replayed packets, a replayed hello, a forged sealed packet and a
 * truncated tag. Each is dropped and counted, the connection carries on, and no payload byte ever crossed the relay
 * in the clear. A client pinning the wrong key fails at once, naming both keys, and a hello whose MAC does not check
 * is answered (a RETRY carrying the server's key, then a refusal) with small packets and no public-key work.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecureHostilePeerTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final byte[] MARKER = "SECRET-PAYLOAD".getBytes(StandardCharsets.US_ASCII);

    private final byte[] serverPrivateKey = key(11);
    private final byte[] serverPublicKey = new X25519().publicKey(serverPrivateKey);

    @Test
    void anOnPathAttackerCanNeitherReadNorInjectNorReplay() throws Exception
    {
        try (Endpoint server = Servers.launch((context) -> context.security().serverPrivateKey(serverPrivateKey));
            Endpoint client = Servers.launch((context) -> context.acceptConnections(false)
                .security().serverPublicKey(serverPublicKey));
            OnPathRelay relay = new OnPathRelay(server.localAddress()))
        {
            final Connection sender = client.connect(relay.address());
            final Connection receiver = awaitAccepted(server, sender);
            transfer(sender, receiver, 200);

            final byte[] captured = lastOneRtt(relay.toServer());
            final long serverId = new UnsafeBuffer(captured).getLong(
                PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, PacketHeaderFlyweight.BYTE_ORDER);
            final long duplicatesBefore = counter(server, "duplicate-packets-dropped");

            relay.inject(captured);
            await(() -> counter(server, "duplicate-packets-dropped") > duplicatesBefore, SECOND_NS, "the replay");

            relay.inject(plaintext(PacketType.CLOSE, serverId, 5_000_000));
            relay.inject(plaintext(PacketType.ONE_RTT, serverId, 5_000_001));
            await(() -> 2 == counter(server, "packets-unauthenticated"), SECOND_NS, "forged plaintext dropped");

            final byte[] renumbered = renumber(captured, 5_000_002);
            relay.inject(Arrays.copyOf(renumbered, renumbered.length - 7));
            final byte[] forged = renumber(captured, 5_000_003);
            for (int i = PacketHeaderFlyweight.HEADER_LENGTH; i < forged.length; i++)
            {
                forged[i] ^= (byte)i;
            }
            relay.inject(forged);
            await(() -> 2 == counter(server, "integrity-failures"), SECOND_NS, "truncated and forged dropped");

            relay.inject(firstHello(relay.toServer()));
            await(() -> 1 == counter(server, "hellos-replayed"), SECOND_NS, "the replayed hello");

            assertEquals(ConnectionState.CONNECTED, receiver.state());
            assertEquals(ConnectionState.CONNECTED, sender.state());
            transfer(sender, receiver, 200);
            assertEquals(1, counter(server, "connections-opened"));
            for (final List<byte[]> direction : List.of(relay.toServer(), relay.toClient()))
            {
                for (final byte[] datagram : direction)
                {
                    assertEquals(-1, TestPackets.indexOf(datagram, MARKER), "payload in the clear");
                }
            }
        }
    }

    @Test
    void aClientPinningTheWrongKeyFailsAtOnceNamingBothKeysAndCostsTheServerNoPublicKeyWork()
    {
        final byte[] otherKey = new X25519().publicKey(key(12));
        try (Endpoint server = Servers.launch((context) -> context.security().serverPrivateKey(serverPrivateKey));
            Endpoint client = Servers.launch((context) -> context.acceptConnections(false)
                .security().serverPublicKey(otherKey)))
        {
            final ConnectionFailedException failure = assertThrows(ConnectionFailedException.class,
                () -> client.connect(server.localAddress(), null, 5 * SECOND_NS));
            assertEquals(CloseReason.AUTHENTICATION_FAILED, failure.reason());
            assertEquals("cannot connect to 127.0.0.1:" + server.localAddress().getPort() + ": authentication " +
                "failed (the server presents key " + KeyFingerprint.of(serverPublicKey) + ", not the pinned key " +
                KeyFingerprint.of(otherKey) + ")", failure.getMessage());
            assertEquals(0, counter(server, "connections-opened"));
            assertEquals(1, counter(server, "retries-sent"), "one RETRY, carrying the key");
            assertEquals(0, counter(server, "handshake-auth-failures"), "no Diffie-Hellman");
        }
    }

    @Test
    void aHelloWithABadMacFromARawSocketGetsASmallRetryWithTheKeyThenASmallRefusalNeverPublicKeyWork()
    {
        try (Endpoint server = Servers.launch((context) -> context.security().serverPrivateKey(serverPrivateKey));
            HostilePeer peer = new HostilePeer(server.localAddress()))
        {
            final byte[] garbage = new byte[NoiseFrameFlyweight.MIN_MESSAGE_LENGTH];
            new Random(3).nextBytes(garbage);
            final int helloBytes = sendSecureHello(peer, garbage, null, 0);
            final byte[] retry = peer.awaitPacket(PacketType.RETRY, SECOND_NS);
            assertTrue(retry.length * 10 < helloBytes, "RETRY of " + retry.length + " bytes for " + helloBytes);
            final UnsafeBuffer retryBuffer = new UnsafeBuffer(retry);
            final int tokenLength = retryBuffer.getInt(RetryPacketFlyweight.TOKEN_LENGTH_OFFSET,
                PacketHeaderFlyweight.BYTE_ORDER);
            assertArrayEquals(serverPublicKey, Arrays.copyOfRange(retry, RetryPacketFlyweight.TOKEN_OFFSET +
                tokenLength, RetryPacketFlyweight.TOKEN_OFFSET + tokenLength + 32), "the RETRY carries the key");

            final UnsafeBuffer token = new UnsafeBuffer(new byte[tokenLength]);
            token.putBytes(0, retryBuffer, RetryPacketFlyweight.TOKEN_OFFSET, tokenLength);
            sendSecureHello(peer, garbage, token, tokenLength);
            final byte[] refusal = peer.awaitPacket(PacketType.CLOSE, SECOND_NS);
            assertTrue(refusal.length * 3 < helloBytes, "refusal of " + refusal.length + " bytes for " + helloBytes);
            assertEquals(4, peer.closeErrorCode(), "AUTHENTICATION_FAILED");
            assertTrue(peer.closeReasonText().startsWith("wrong server key"), peer.closeReasonText());
            assertEquals(1, counter(server, "hellos-bad-mac"));
            assertEquals(0, counter(server, "handshake-auth-failures"), "no Diffie-Hellman");
            assertEquals(0, counter(server, "connections-opened"));
        }
    }

    /**
     * A Noise NK hello with the given message and a MAC of zeros, which never checks.
     */
    private static int sendSecureHello(
        final HostilePeer peer, final byte[] message, final UnsafeBuffer token, final int tokenLength)
    {
        return peer.send((writer) ->
        {
            writer.writeHeader(PacketType.HANDSHAKE, 0, 0);
            writer.appendHandshake(peer.clientId, false, 1472, 1_000, 30_000, 1 << 20, 1 << 20, token, 0,
                tokenLength);
            writer.appendNoise(NoiseFrameFlyweight.PROFILE_NK, 1, message);
            writer.appendPadding(HostilePeer.HELLO_BYTES - writer.length() - Crc32cPacketCheck.TRAILER_LENGTH);
        });
    }

    private static Connection awaitAccepted(final Endpoint server, final Connection sender)
    {
        final long deadlineNs = System.nanoTime() + 5 * SECOND_NS;
        Connection accepted = null;
        while (null == accepted || ConnectionState.CONNECTED != sender.state())
        {
            assertTrue(System.nanoTime() < deadlineNs, "connect through the relay");
            if (null == accepted)
            {
                accepted = server.accept();
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return accepted;
    }

    private static void transfer(final Connection sender, final Connection receiver, final int messages)
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1024]);
        for (int at = 4; at + MARKER.length <= message.capacity(); at += MARKER.length)
        {
            message.putBytes(at, MARKER);
        }
        final int[] received = {0};
        final long deadlineNs = System.nanoTime() + 20 * SECOND_NS;
        int sent = 0;
        while (received[0] < messages)
        {
            assertTrue(System.nanoTime() < deadlineNs, "transfer: " + received[0] + " of " + messages);
            if (sent < messages)
            {
                message.putInt(0, sent);
                if (sender.offer(message, 0, message.capacity()) > 0)
                {
                    sent++;
                }
            }
            receiver.poll((buffer, offset, length) ->
            {
                assertEquals(1024, length);
                assertEquals(received[0], buffer.getInt(offset), "in order");
                assertEquals(4, TestPackets.indexOf(copy(buffer, offset, length), MARKER), "payload intact");
                received[0]++;
            }, 16);
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
        }
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    private static byte[] plaintext(final int packetType, final long connectionId, final long packetNumber)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final PacketWriter writer = new PacketWriter().wrap(buffer, 0, 128);
        writer.writeHeader(packetType, connectionId, packetNumber);
        if (PacketType.CLOSE == packetType)
        {
            writer.appendClose(0, null, 0, 0);
        }
        else
        {
            buffer.putLong(writer.appendDataHeader(0, 0, false, 8), 0x4242424242424242L);
        }
        return TestPackets.withCrc(buffer, writer.length());
    }

    private static byte[] renumber(final byte[] datagram, final long packetNumber)
    {
        final byte[] copy = datagram.clone();
        new UnsafeBuffer(copy).putLong(
            PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, packetNumber, PacketHeaderFlyweight.BYTE_ORDER);
        return copy;
    }

    private static byte[] lastOneRtt(final List<byte[]> datagrams)
    {
        for (int i = datagrams.size() - 1; i >= 0; i--)
        {
            if (PacketType.ONE_RTT == datagrams.get(i)[PacketHeaderFlyweight.PACKET_TYPE_OFFSET])
            {
                return datagrams.get(i);
            }
        }
        throw new AssertionError("no ONE_RTT packet relayed");
    }

    private static byte[] firstHello(final List<byte[]> datagrams)
    {
        for (final byte[] datagram : datagrams)
        {
            if (PacketType.HANDSHAKE == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET])
            {
                return datagram;
            }
        }
        throw new AssertionError("no hello relayed");
    }


    private static byte[] key(final long seed)
    {
        final byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }
}
