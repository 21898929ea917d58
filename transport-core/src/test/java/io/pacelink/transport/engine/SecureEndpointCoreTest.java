package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.keys.KeyFingerprint;
import io.pacelink.transport.schedule.RoundRobinScheduler;
import io.pacelink.transport.secure.X25519;
import io.pacelink.transport.stats.CountersBuffers;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.testing.TestPackets;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The integrity check and the secure mode in the sans-IO core, over an in-memory network in virtual time: both Noise
 * profiles connect and deliver; every way a secure connect fails says what it is — a wrong pinned key (at once, with
 * both fingerprints), a wrong pre-shared key, a mode or profile mismatch, a learned key the verifier distrusts, a
 * forged RETRY key, answers that never authenticate, and silence; a client without a pinned key learns and verifies
 * the server's; a captured session shows no
 * plaintext payload; forged, replayed, truncated and plaintext packets toward a secure connection are dropped and
 * counted with the connection unharmed; keys update; a corrupted plaintext packet is dropped and counted.
 */
class SecureEndpointCoreTest
{
    private static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final byte[] MARKER = "PLAINTEXT-MARKER".getBytes(StandardCharsets.US_ASCII);

    private final TestNetwork network = new TestNetwork();
    private final List<EndpointCore> cores = new ArrayList<>();
    private final List<ArrayDeque<Connection>> acceptQueues = new ArrayList<>();
    private final List<byte[]> wire = new ArrayList<>();
    private final TestNetwork.Port serverPort = network.newPort(1000);
    private final TestNetwork.Port clientPort = network.newPort(2000);
    private final byte[] serverPrivateKey = randomKey(1);
    private final byte[] serverPublicKey = new X25519().publicKey(serverPrivateKey);
    private final byte[] preSharedKey = randomKey(2);
    private Predicate<byte[]> tamper = (datagram) -> false;
    private long nowNs = SECOND_NS;

    SecureEndpointCoreTest()
    {
        // Every datagram is recorded; the tamper hook may change one in place or drop it.
        network.dropWhen((datagram) ->
        {
            wire.add(datagram.clone());
            return tamper.test(datagram);
        });
    }

    @Test
    void noiseNkConnectsDeliversAndShowsNoPlaintextOnTheWire()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final EndpointCore client = newCore(clientPort, nkClient());
        final Connection[] pair = connect(client, server);
        deliver(pair, 300);

        int sealed = 0;
        for (final byte[] datagram : wire)
        {
            assertEquals(-1, TestPackets.indexOf(datagram, MARKER), "payload bytes in the clear");
            if (PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET])
            {
                assertEquals(PacketHeaderFlyweight.FLAG_SEALED,
                    datagram[PacketHeaderFlyweight.FLAGS_OFFSET] & PacketHeaderFlyweight.FLAG_SEALED);
                sealed++;
            }
        }
        assertTrue(sealed > 50, "sealed packets: " + sealed);
        assertEquals(0, server.securityCounters().integrityFailures().get());
        assertEquals(0, client.securityCounters().integrityFailures().get());
    }

    @Test
    void plaintextModeCarriesThePayloadInTheClearSoTheMarkerTestCanFail()
    {
        final Connection[] pair = connect(newCore(clientPort, plain()), newCore(serverPort, plain()));
        deliver(pair, 10);
        assertTrue(wire.stream().anyMatch((datagram) -> TestPackets.indexOf(datagram, MARKER) >= 0));
    }

    @Test
    void noiseNnPsk0WithChaChaPolyConnectsAndDelivers()
    {
        final PacelinkContext serverContext = plain();
        serverContext.security().preSharedKey(preSharedKey);
        final PacelinkContext clientContext = plain();
        clientContext.security().preSharedKey(preSharedKey).aead("ChaChaPoly");
        final Connection[] pair = connect(newCore(clientPort, clientContext), newCore(serverPort, serverContext));
        deliver(pair, 200);
    }

    @Test
    void aClientPinningAnotherKeyFailsAtOnceNamingBothKeysWithoutAnyPublicKeyWork()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final PacelinkContext wrongPin = plain();
        final byte[] otherKey = new X25519().publicKey(randomKey(9));
        wrongPin.security().serverPublicKey(otherKey);
        final EndpointCore client = newCore(clientPort, wrongPin);
        final Connection connection = client.connect(serverPort.localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == connection.state(), SECOND_NS / 10, "the failure");
        assertEquals(CloseReason.AUTHENTICATION_FAILED, connection.closeReason());
        assertEquals("the server presents key " + KeyFingerprint.of(serverPublicKey) + ", not the pinned key " +
            KeyFingerprint.of(otherKey), connection.outcome().detail());
        assertEquals(1, server.securityCounters().retriesSent().get(), "its RETRY carried the key");
        assertEquals(0, server.counters().connectionsOpened().get());
        assertEquals(0, server.securityCounters().handshakeAuthFailures().get(), "no Diffie-Hellman was tried");
    }

    @Test
    void aWrongPreSharedKeyIsRefusedAsAnAuthenticationFailureNotSilence()
    {
        final PacelinkContext serverContext = plain();
        serverContext.security().preSharedKey(preSharedKey);
        final PacelinkContext clientContext = plain();
        clientContext.security().preSharedKey(randomKey(3));
        final EndpointCore server = newCore(serverPort, serverContext);
        final Connection connection =
            newCore(clientPort, clientContext).connect(serverPort.localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == connection.state(), SECOND_NS / 10, "the refusal");
        assertEquals(CloseReason.AUTHENTICATION_FAILED, connection.closeReason());
        assertTrue(connection.outcome().detail().startsWith("wrong pre-shared key"), connection.outcome().detail());
        assertEquals(1, server.securityCounters().hellosBadMac().get(), "refused once its address was validated");
        assertEquals(1, server.securityCounters().retriesSent().get());
        assertEquals(0, server.counters().connectionsOpened().get());
        assertEquals(0, server.securityCounters().handshakeAuthFailures().get(), "no Diffie-Hellman was tried");
    }

    @Test
    void mismatchedModesAreRefusedWithAReasonBothWays()
    {
        final EndpointCore secureServer = newCore(serverPort, nkServer());
        final Connection plaintextClient =
            newCore(clientPort, plain()).connect(serverPort.localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == plaintextClient.state(), SECOND_NS, "refusal");
        assertEquals(CloseReason.SECURITY_MISMATCH, plaintextClient.closeReason());
        assertTrue(plaintextClient.outcome().detail().startsWith("secure mode required"));
        assertEquals(1, secureServer.securityCounters().handshakesRefusedMode().get());

        final TestNetwork.Port plainPort = network.newPort(3000);
        final EndpointCore plaintextServer = newCore(plainPort, plain());
        final Connection secureClient = newCore(network.newPort(4000), nkClient())
            .connect(plainPort.localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == secureClient.state(), SECOND_NS, "refusal");
        assertEquals(CloseReason.SECURITY_MISMATCH, secureClient.closeReason());
        assertTrue(secureClient.outcome().detail().startsWith("secure mode unsupported"));
        assertEquals(1, plaintextServer.securityCounters().handshakesRefusedMode().get());
    }

    @Test
    void aProfileTheServerHasNoKeyForIsAMismatchSayingWhichKeyItHas()
    {
        final PacelinkContext pskServer = plain();
        pskServer.security().preSharedKey(preSharedKey);
        newCore(serverPort, pskServer);
        final Connection nkToPsk = newCore(clientPort, nkClient()).connect(serverPort.localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == nkToPsk.state(), SECOND_NS, "refusal");
        assertEquals(CloseReason.SECURITY_MISMATCH, nkToPsk.closeReason());
        assertTrue(nkToPsk.outcome().detail().startsWith("this server has no static key"));

        final TestNetwork.Port nkPort = network.newPort(3000);
        newCore(nkPort, nkServer());
        final PacelinkContext pskClient = plain();
        pskClient.security().preSharedKey(preSharedKey);
        final Connection pskToNk =
            newCore(network.newPort(4000), pskClient).connect(nkPort.localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == pskToNk.state(), SECOND_NS, "refusal");
        assertEquals(CloseReason.SECURITY_MISMATCH, pskToNk.closeReason());
        assertTrue(pskToNk.outcome().detail().startsWith("this server has no pre-shared key"));
    }

    @Test
    void aClientWithoutAPinnedKeyLearnsTheServersKeyProvesItAndAsksItsVerifierOnce()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final List<byte[]> verified = new ArrayList<>();
        final PacelinkContext discovering = plain();
        discovering.security().serverKeyVerifier((address, key) ->
        {
            assertEquals(serverPort.localAddress(), address);
            verified.add(key);
            return null;
        });
        final Connection[] pair = connect(newCore(clientPort, discovering), server);
        deliver(pair, 50);
        assertEquals(1, verified.size());
        assertArrayEquals(serverPublicKey, verified.get(0));
        assertEquals(0, noiseMessageLength(firstHello()), "the first hello asks for the key");
        assertEquals(1, server.securityCounters().retriesSent().get());
        assertEquals(0, server.securityCounters().handshakeAuthFailures().get());
        assertEquals(0, server.securityCounters().hellosBadMac().get());
    }

    /**
     * A client that pins no key asks for it on every connect, and from its second connect on its key request carries
     * the NEW_TOKEN its last connection brought: the token proves the address, not that the client knows the key, so
     * the request still gets the RETRY with the key — not the "wrong server key" refusal a validated hello whose MAC
     * fails gets.
     */
    @Test
    void aClientWithoutAPinnedKeyConnectsAgainWithTheNewTokenItKept()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final PacelinkContext discovering = plain();
        discovering.security().serverKeyVerifier((address, key) -> null);
        final EndpointCore client = newCore(clientPort, discovering);
        for (int i = 1; i <= 3; i++)
        {
            final Connection[] pair = connect(client, server);
            deliver(pair, 5);
            runFor(TimeUnit.MILLISECONDS.toNanos(50)); // the NEW_TOKEN, sent after the confirmation, reaches the client
            assertEquals(i, server.securityCounters().newTokensSent().get());
            pair[0].closeNow();
            runFor(TimeUnit.MILLISECONDS.toNanos(50));
        }
        assertEquals(2, server.securityCounters().newTokensAccepted().get(), "connects 2 and 3 carried a token");
        assertEquals(3, server.securityCounters().retriesSent().get(), "every key request got the key");
        assertEquals(0, server.securityCounters().hellosBadMac().get(), "no key request was taken for a wrong key");
    }

    @Test
    void aVerifierThatDistrustsTheKeyEndsTheConnectWithItsReasonAndTheServerNeverAccepts()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final PacelinkContext discovering = plain();
        discovering.security().serverKeyVerifier((address, key) -> "not the key on record");
        final Connection connection =
            newCore(clientPort, discovering).connect(serverPort.localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == connection.state(), SECOND_NS, "the failure");
        assertEquals(CloseReason.AUTHENTICATION_FAILED, connection.closeReason());
        assertEquals("not the key on record", connection.outcome().detail());
        runFor(11 * SECOND_NS);
        assertTrue(acceptQueues.get(cores.indexOf(server)).isEmpty(), "the server's application saw nothing");
        assertEquals(1, server.securityCounters().handshakeTimeouts().get(), "its half-open connection ended");
        assertEquals(0, server.counters().connectionsOpened().get() - server.counters().connectionsClosed().get());
    }

    @Test
    void aForgedKeyInTheRetryFailsTheDiscoveringClientAsAnAuthenticationFailureNeverTrustingIt()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final int[] verified = {0};
        final PacelinkContext discovering = plain();
        discovering.security().serverKeyVerifier((address, key) ->
        {
            verified[0]++;
            return null;
        });
        tamper = (datagram) ->
        {
            if (PacketType.RETRY == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET])
            {
                // An on-path attacker swaps the key the RETRY carries (its last 32 bytes before the CRC32C).
                final byte[] packet = TestPackets.withoutCrc(datagram);
                packet[packet.length - 1] ^= 1;
                System.arraycopy(TestPackets.withCrc(packet), 0, datagram, 0, datagram.length);
            }
            return false;
        };
        final Connection connection =
            newCore(clientPort, discovering).connect(serverPort.localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == connection.state(), SECOND_NS, "the failure");
        assertEquals(CloseReason.AUTHENTICATION_FAILED, connection.closeReason());
        assertTrue(connection.outcome().detail().startsWith("wrong server key"), connection.outcome().detail());
        assertEquals(0, verified[0]);
        assertEquals(1, server.securityCounters().hellosBadMac().get());
        assertEquals(0, server.counters().connectionsOpened().get());
    }

    @Test
    void answersThatNeverAuthenticateEndTheConnectAsAnAuthenticationFailureNotATimeout()
    {
        newCore(serverPort, nkServer());
        final EndpointCore client = newCore(clientPort, nkClient());
        tamper = (datagram) ->
        {
            if (isServerAnswer(datagram))
            {
                final byte[] packet = TestPackets.withoutCrc(datagram);
                packet[packet.length - 40] ^= 1;
                System.arraycopy(TestPackets.withCrc(packet), 0, datagram, 0, datagram.length);
            }
            return false;
        };
        final Connection connection = client.connect(serverPort.localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == connection.state(), 11 * SECOND_NS, "the handshake timeout");
        assertEquals(CloseReason.AUTHENTICATION_FAILED, connection.closeReason());
        assertTrue(connection.outcome().detail().contains("answers authenticated"), connection.outcome().detail());
        assertTrue(client.securityCounters().handshakeAuthFailures().get() > 0);
    }

    @Test
    void silenceIsStillAHandshakeTimeout()
    {
        final EndpointCore client = newCore(clientPort, nkClient());
        final Connection connection = client.connect(network.newPort(5000).localAddress(), null, nowNs);
        run(() -> ConnectionState.CLOSED == connection.state(), 11 * SECOND_NS, "the handshake timeout");
        assertEquals(CloseReason.HANDSHAKE_TIMEOUT, connection.closeReason());
    }

    @Test
    void forgedReplayedTruncatedAndPlaintextPacketsAreDroppedAndCountedTheConnectionUnharmed()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final EndpointCore client = newCore(clientPort, nkClient());
        final Connection[] pair = connect(client, server);
        deliver(pair, 20);
        final SecurityCounters counters = server.securityCounters();
        final long duplicatesBefore = server.counters().duplicatePackets().get();

        // A sealed packet the client sent, captured: replayed, then with its tag cut short, then with a flipped bit.
        final byte[] captured = lastSealedFrom(pair[0].connectionId(), pair[1].connectionId());
        serverPort.inject(captured, clientPort.localAddress());
        step();
        assertEquals(duplicatesBefore + 1, server.counters().duplicatePackets().get(), "replay dropped as duplicate");

        final byte[] renumbered = captured.clone();
        new UnsafeBuffer(renumbered).putLong(PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, 1_000_000,
            PacketHeaderFlyweight.BYTE_ORDER);
        serverPort.inject(renumbered, clientPort.localAddress());
        serverPort.inject(Arrays.copyOf(renumbered, renumbered.length - 5), clientPort.localAddress());
        final byte[] flipped = captured.clone();
        flipped[flipped.length - 30] ^= 4;
        new UnsafeBuffer(flipped).putLong(PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, 1_000_001,
            PacketHeaderFlyweight.BYTE_ORDER);
        serverPort.inject(flipped, clientPort.localAddress());
        step();
        assertEquals(3, counters.integrityFailures().get(), "renumbered (header is AAD), truncated, flipped");

        // A plaintext CLOSE and a plaintext DATA with the right id, number and address, as an on-path attacker can
        // forge them: a secure connection ignores both.
        serverPort.inject(plaintextClose(pair[1].connectionId(), 2_000_000), clientPort.localAddress());
        serverPort.inject(plaintextData(pair[1].connectionId(), 2_000_001), clientPort.localAddress());
        step();
        assertEquals(2, counters.packetsUnauthenticated().get());

        // The client's hello, replayed after the connection was confirmed.
        serverPort.inject(firstHello(), clientPort.localAddress());
        step();
        assertEquals(1, counters.hellosReplayed().get());

        assertEquals(ConnectionState.CONNECTED, pair[1].state());
        assertEquals(1, server.counters().connectionsOpened().get());
        deliver(pair, 20);
    }

    /**
     * A flood repeating a genuine hello (valid MAC, its handshake held by the server) draws the server's answer again
     * at most once a quarter of the server's initial RTT (10 ms here): a thousand repeats within 2 ms draw none beyond
     * the first answer; one after the quarter draws one; one right after that, none.
     */
    @Test
    void aHelloRepeatedAThousandTimesDrawsNoMoreThanOneAnswerAQuarterOfTheInitialRtt()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final EndpointCore client = newCore(clientPort, nkClient());
        // The client never hears the answer, so it never confirms; the server holds the handshake.
        tamper = this::isServerAnswer;
        client.connect(serverPort.localAddress(), null, nowNs);
        run(() -> 1 == answersOnTheWire(), SECOND_NS, "the answer");
        cores.remove(client);
        final byte[] hello = firstHello();

        for (int i = 0; i < 1000; i++)
        {
            serverPort.inject(hello, clientPort.localAddress());
            if (i % 50 == 49)
            {
                step();
            }
        }
        assertEquals(1, answersOnTheWire(), "answers to a thousand repeats within 2 ms");
        runFor(TimeUnit.MICROSECONDS.toNanos(500));
        serverPort.inject(hello, clientPort.localAddress());
        step();
        assertEquals(2, answersOnTheWire(), "a repeat 2.5 ms after the answer is answered");
        serverPort.inject(hello, clientPort.localAddress());
        step();
        assertEquals(2, answersOnTheWire(), "a repeat right after that is not");
        assertEquals(1, server.counters().connectionsOpened().get());
    }

    /**
     * The other side: a legitimate client whose first two answers were lost repeats its hello after its backed-off
     * retry delays (20 and 40 ms with an initial RTT of 10 ms, beyond the server's 2.5 ms) and each repeat is
     * answered: the third answer completes the handshake.
     */
    @Test
    void aClientWhoseAnswersWereLostRepeatsItsHelloAndConnects()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final EndpointCore client = newCore(clientPort, nkClient());
        final int[] answers = {0};
        tamper = (datagram) -> isServerAnswer(datagram) && ++answers[0] <= 2;
        final Connection[] pair = connect(client, server);
        assertEquals(3, answersOnTheWire(), "two answers lost, the third one arrived");
        assertEquals(1, server.counters().connectionsOpened().get());
        deliver(pair, 5);
    }

    private long answersOnTheWire()
    {
        return wire.stream().filter(this::isServerAnswer).count();
    }

    @Test
    void aTamperedAnswerIsIgnoredAndTheGenuineOneStillCompletesTheHandshake()
    {
        final EndpointCore server = newCore(serverPort, nkServer());
        final EndpointCore client = newCore(clientPort, nkClient());
        final boolean[] tampered = {false};
        tamper = (datagram) ->
        {
            if (!tampered[0] && isServerAnswer(datagram))
            {
                // Change a byte of the answer's Noise message and fix its CRC32C, as an on-path attacker would.
                final byte[] packet = TestPackets.withoutCrc(datagram);
                packet[packet.length - 40] ^= 1;
                System.arraycopy(TestPackets.withCrc(packet), 0, datagram, 0, datagram.length);
                tampered[0] = true;
            }
            return false;
        };
        final Connection[] pair = connect(client, server);
        assertTrue(tampered[0]);
        assertEquals(1, client.securityCounters().handshakeAuthFailures().get());
        deliver(pair, 10);
    }

    @Test
    void keysUpdateAndDataKeepFlowing()
    {
        final PacelinkContext serverContext = nkServer();
        serverContext.security().keyUpdateIntervalPackets(40);
        final PacelinkContext clientContext = nkClient();
        clientContext.security().keyUpdateIntervalPackets(40);
        final EndpointCore server = newCore(serverPort, serverContext);
        final EndpointCore client = newCore(clientPort, clientContext);
        final Connection[] pair = connect(client, server);
        // In rounds with pauses: an update waits three PTOs after the previous one (RFC 9001 section 6.5).
        for (int round = 0; round < 5; round++)
        {
            deliver(pair, 80);
            runFor(TimeUnit.MILLISECONDS.toNanos(300));
        }
        assertTrue(client.securityCounters().keyUpdates().get() >= 3, "client key updates");
        assertEquals(0, server.securityCounters().integrityFailures().get());
        final long phases = wire.stream()
            .filter((datagram) -> PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET])
            .map((datagram) -> datagram[PacketHeaderFlyweight.FLAGS_OFFSET] & PacketHeaderFlyweight.FLAG_KEY_PHASE)
            .distinct().count();
        assertEquals(2, phases, "both key phases on the wire");
    }

    @Test
    void aCorruptedPlaintextPacketIsDroppedAndCountedAndTheDataStillArrivesIntact()
    {
        final EndpointCore server = newCore(serverPort, plain());
        final EndpointCore client = newCore(clientPort, plain());
        final Connection[] pair = connect(client, server);
        final Random random = new Random(5);
        final int[] corrupted = {0};
        tamper = (datagram) ->
        {
            if (random.nextInt(20) == 0)
            {
                final int bit = random.nextInt(datagram.length * 8);
                datagram[bit / 8] ^= (byte)(1 << (bit % 8));
                corrupted[0]++;
            }
            return false;
        };
        deliver(pair, 300);
        assertTrue(corrupted[0] > 5);
        assertEquals(corrupted[0],
            server.securityCounters().integrityFailures().get() + client.securityCounters().integrityFailures().get());
        assertEquals(0, server.counters().malformedDropped().get() + client.counters().malformedDropped().get());
    }

    private boolean isServerAnswer(final byte[] datagram)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
        return PacketType.HANDSHAKE == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] &&
            0 != buffer.getLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    private byte[] firstHello()
    {
        for (final byte[] datagram : wire)
        {
            if (PacketType.HANDSHAKE == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] && !isServerAnswer(datagram))
            {
                return datagram;
            }
        }
        throw new AssertionError("no hello on the wire");
    }

    private static int noiseMessageLength(final byte[] hello)
    {
        final PacketDecoder decoder = new PacketDecoder();
        final byte[] packet = TestPackets.withoutCrc(hello);
        assertEquals(PacketDecoder.OK, decoder.validate(new UnsafeBuffer(packet), 0, packet.length));
        for (int type = decoder.firstFrame(new UnsafeBuffer(packet), 0, packet.length);
            PacketDecoder.NO_MORE_FRAMES != type; type = decoder.nextFrame())
        {
            if (FrameType.NOISE == type)
            {
                return decoder.noise().messageLength();
            }
        }
        throw new AssertionError("no NOISE frame in the hello");
    }

    private byte[] lastSealedFrom(final long clientId, final long serverId)
    {
        byte[] last = null;
        for (final byte[] datagram : wire)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
            if (PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] && serverId ==
                buffer.getLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, ByteOrder.LITTLE_ENDIAN))
            {
                last = datagram;
            }
        }
        assertNotNull(last, "no sealed packet from client " + clientId);
        return last;
    }

    private static byte[] plaintextClose(final long connectionId, final long packetNumber)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final PacketWriter writer = new PacketWriter().wrap(buffer, 0, 128);
        writer.writeHeader(PacketType.CLOSE, connectionId, packetNumber);
        writer.appendClose(0, null, 0, 0);
        return TestPackets.withCrc(buffer, writer.length());
    }

    private static byte[] plaintextData(final long connectionId, final long packetNumber)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
        final PacketWriter writer = new PacketWriter().wrap(buffer, 0, 128);
        writer.writeHeader(PacketType.ONE_RTT, connectionId, packetNumber);
        final int payloadOffset = writer.appendDataHeader(0, 0, false, 8);
        buffer.putLong(payloadOffset, 0x4141414141414141L);
        return TestPackets.withCrc(buffer, writer.length());
    }

    private PacelinkContext plain()
    {
        return new PacelinkContext();
    }

    private PacelinkContext nkServer()
    {
        final PacelinkContext context = plain();
        context.security().serverPrivateKey(serverPrivateKey);
        return context;
    }

    private PacelinkContext nkClient()
    {
        final PacelinkContext context = plain();
        context.security().serverPublicKey(serverPublicKey);
        return context;
    }

    private EndpointCore newCore(final TestNetwork.Port port, final PacelinkContext context)
    {
        context
            .datagramPort(port)
            .randomSeed(port.localAddress().getPort())
            .congestionControl(FixedWindowController.NAME)
            .sendBufferBytes(256 * 1024)
            .receiveBufferBytes(256 * 1024)
            .maxMessageLengthBytes(64 * 1024)
            .initialRttNs(TimeUnit.MILLISECONDS.toNanos(10))
            .countersBufferBytes(256 * 1024);
        context.conclude();
        final ArrayDeque<Connection> accepted = new ArrayDeque<>();
        final EndpointCore core = new EndpointCore(
            context,
            port,
            CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024, new ArrayList<>())),
            new RoundRobinScheduler(),
            CountersBuffers.newManager(256 * 1024),
            accepted::add);
        cores.add(core);
        acceptQueues.add(accepted);
        return core;
    }

    private Connection[] connect(final EndpointCore client, final EndpointCore server)
    {
        final Connection clientSide = client.connect(server.localAddress(), null, nowNs);
        final ArrayDeque<Connection> accepted = acceptQueues.get(cores.indexOf(server));
        run(() -> !accepted.isEmpty() && ConnectionState.CONNECTED == clientSide.state(), SECOND_NS, "connect");
        return new Connection[]{ clientSide, accepted.poll() };
    }

    /**
     * Send messages that each carry the marker, and check every one arrives whole and in order.
     */
    private void deliver(final Connection[] pair, final int count)
    {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1500]);
        final List<Integer> received = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            message.putInt(0, i);
            for (int at = 4; at + MARKER.length <= 1000 + i; at += MARKER.length)
            {
                message.putBytes(at, MARKER);
            }
            while (pair[0].offer(message, 0, 1000 + i) < 0)
            {
                step();
            }
        }
        run(() ->
        {
            pair[1].poll((buffer, offset, length) ->
            {
                assertEquals(1000 + buffer.getInt(offset), length);
                received.add(buffer.getInt(offset));
            }, 100);
            return received.size() == count;
        }, 20 * SECOND_NS, "delivery");
        for (int i = 0; i < count; i++)
        {
            assertEquals(i, received.get(i));
        }
    }

    private void run(final BooleanSupplier until, final long maxNs, final String what)
    {
        final long endNs = nowNs + maxNs;
        while (!until.getAsBoolean())
        {
            assertTrue(nowNs < endNs, () -> "timed out waiting for " + what);
            step();
        }
    }

    private void runFor(final long durationNs)
    {
        final long endNs = nowNs + durationNs;
        while (nowNs < endNs)
        {
            step();
        }
    }

    private void step()
    {
        nowNs += STEP_NS;
        for (final EndpointCore core : cores)
        {
            core.doWork(nowNs);
        }
    }


    private static byte[] randomKey(final long seed)
    {
        final byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }
}
