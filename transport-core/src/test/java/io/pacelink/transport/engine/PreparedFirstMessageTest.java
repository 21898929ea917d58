package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.secure.X25519;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * While its agent idles ({@link EndpointCore#prepareWhileIdle}) a secure client makes its next connect's first Noise
 * message ahead — one at a time, none while a connect waits for its answer, none for a client that has yet to learn
 * the server's key or a plaintext one; the connect then uses it (so the next can be made) and completes,
 * also when a forged answer comes before the genuine one — and a secure server its next answer's ephemeral key pair,
 * which the next hello's answer takes.
 */
class PreparedFirstMessageTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    private final CoreTestBed bed = new CoreTestBed(10 * SECOND_NS, 2 * SECOND_NS);
    private final TestNetwork network = bed.network();
    private final TestNetwork.Port serverPort = network.newPort(1000);
    private final TestNetwork.Port clientPort = network.newPort(2000);
    private final byte[] serverPrivateKey = randomKey(1);
    private final byte[] serverPublicKey = new X25519().publicKey(serverPrivateKey);
    private boolean isAnswerHeld;
    private boolean isAnswerForged;

    PreparedFirstMessageTest()
    {
        network.dropWhen((datagram) ->
        {
            if (isServerAnswer(datagram) && isAnswerForged)
            {
                // Change a byte of the answer's Noise message and fix its CRC32C, as an on-path attacker would.
                isAnswerForged = false;
                final byte[] packet = TestPackets.withoutCrc(datagram);
                packet[packet.length - 40] ^= 1;
                System.arraycopy(TestPackets.withCrc(packet), 0, datagram, 0, datagram.length);
                return false;
            }
            return isAnswerHeld && isServerAnswer(datagram);
        });
    }

    @Test
    void aSecureClientPreparesOneFirstMessageUsesItAndPreparesTheNextOnlyOnceItsConnectIsAnswered()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final EndpointCore client = newCore(clientPort, nkClient());
        assertTrue(client.prepareWhileIdle());
        assertFalse(client.prepareWhileIdle(), "one waits for the next connect");

        isAnswerHeld = true;
        final Connection first = client.connect(server.localAddress(), null, bed.nowNs());
        bed.runFor(SECOND_NS / 100);
        assertEquals(ConnectionState.CONNECTING, first.state());
        assertFalse(client.prepareWhileIdle(), "not while a connect waits for its answer");

        isAnswerHeld = false;
        bed.run(() -> ConnectionState.CONNECTED == first.state() && null != bed.accept(server), SECOND_NS,
            "the connect");
        assertTrue(client.prepareWhileIdle(), "the connect took the prepared message, the next is made");

        isAnswerForged = true;
        final Connection second = client.connect(server.localAddress(), null, bed.nowNs());
        bed.run(() -> ConnectionState.CONNECTED == second.state(), 2 * SECOND_NS, "the second connect");
        assertEquals(1, client.securityCounters().handshakeAuthFailures().get(), "the forged answer, read apart");
        assertTrue(client.prepareWhileIdle());
    }

    @Test
    void aSecureServerMakesItsNextAnswersKeyPairAheadAndItsNextAnswerTakesIt()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final EndpointCore client = newCore(clientPort, nkClient());
        assertTrue(server.prepareWhileIdle());
        assertFalse(server.prepareWhileIdle(), "one waits for the next hello");
        final Connection connection = client.connect(server.localAddress(), null, bed.nowNs());
        bed.run(() -> ConnectionState.CONNECTED == connection.state() && null != bed.accept(server), SECOND_NS,
            "the connect");
        assertTrue(server.prepareWhileIdle(), "the answer took the key pair, the next is made");
        assertFalse(newCore(network.newPort(1001), new PacelinkContext()).prepareWhileIdle(), "plaintext");
    }

    @Test
    void aClientWithoutTheServersKeyAndAPlaintextOneMakeNothingAhead()
    {
        final PacelinkContext learning = new PacelinkContext();
        learning.security().serverKeyVerifier((address, key) -> null);
        assertFalse(newCore(clientPort, learning).prepareWhileIdle(), "no es before the key is known");
        assertFalse(newCore(network.newPort(2001), new PacelinkContext()).prepareWhileIdle(), "plaintext");
    }

    private static boolean isServerAnswer(final byte[] datagram)
    {
        // A hello names no destination connection yet; the server's answer names the client's.
        return PacketType.HANDSHAKE == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] && 0 != new UnsafeBuffer(
            datagram).getLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    private PacelinkContext nkServer()
    {
        final PacelinkContext context = new PacelinkContext();
        context.security().serverPrivateKey(serverPrivateKey);
        return context;
    }

    private PacelinkContext nkClient()
    {
        final PacelinkContext context = new PacelinkContext().acceptConnections(false);
        context.security().serverPublicKey(serverPublicKey);
        return context;
    }

    private EndpointCore newCore(final TestNetwork.Port port, final PacelinkContext context)
    {
        // Seeded, as every engine test's core: which endpoints prepare while idle is the agent's decision (unseeded
        // real endpoints only, Endpoint's construction of EndpointAgent), not the core's.
        context.randomSeed(port.localAddress().getPort());
        return bed.newCore(port, context.acceptConnections(), 16, context, new ArrayList<>(), null);
    }

    private static byte[] randomKey(final long seed)
    {
        final byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }
}
