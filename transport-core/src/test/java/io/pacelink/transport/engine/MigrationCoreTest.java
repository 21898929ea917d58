package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.recovery.EcnValidation;
import io.pacelink.transport.secure.X25519;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connection migration (RFC 9000 section 9) in the sans-IO core, in virtual time: a NAT in front of the client
 * rebinds mid-transfer and the server's connection follows once the new address answers its PATH_CHALLENGE —
 * keeping its controller and RTT estimate when only the port changed, starting both over for a new address
 * (section 9.4) — while a copy of an old packet from elsewhere moves nothing, a challenge nobody answers leaves the
 * connection where it was, and the challenges toward an unproven address stay within 3 times what it sent.
 */
class MigrationCoreTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);

    private final CoreTestBed bed = new CoreTestBed(10 * SECOND_NS, SECOND_NS);
    private final TestNetwork network = bed.network();
    private final TestNetwork.Port serverPort = network.newPort(1000);
    private final TestNetwork.Port clientPort = network.newPort(2000);
    private final List<FixedWindowController> serverControllers = new ArrayList<>();
    private final byte[] serverPrivateKey = randomKey(1);
    private final NumberedTransfer numbered = new NumberedTransfer(bed, () ->
    {
    });

    @Test
    void aNatRebindingMidTransferMovesThePlaintextConnectionAndKeepsItsControllerAndRtt()
    {
        rebindingMidTransferMovesTheConnection(new PacelinkContext(), new PacelinkContext(), "127.0.0.1", 1);
    }

    @Test
    void aNatRebindingMidTransferMovesTheSecureConnectionAndKeepsItsControllerAndRtt()
    {
        final PacelinkContext clientContext = new PacelinkContext();
        clientContext.security().serverPublicKey(new X25519().publicKey(serverPrivateKey));
        rebindingMidTransferMovesTheConnection(clientContext, nkServer(), "127.0.0.1", 1);
    }

    @Test
    void aNewClientAddressStartsTheControllerAndTheRttOver()
    {
        rebindingMidTransferMovesTheConnection(new PacelinkContext(), new PacelinkContext(), "127.0.0.2", 2);
    }

    @Test
    void rebindingsOfAnEcnCapableConnectionKeepEveryPacketTrackedAndEcnValidated()
    {
        // On a path that carries ECN each rebinding puts an unmarked PATH_CHALLENGE between the server's marked
        // packets. The server once failed its own bookkeeping at the second (a packet left but was never tracked), and
        // the client's ACK of it closed the connection as "an ACK of a packet number never sent".
        network.carryEcn();
        final EndpointCore client = bed.newCore(clientPort, false, 4, new PacelinkContext().randomSeed(31),
            new ArrayList<>(), null);
        final EndpointCore server = bed.newCore(serverPort, true, 4, new PacelinkContext().randomSeed(32),
            serverControllers, null);
        final Connection[] pair = bed.connect(client, server, serverPort);
        numbered.transfer(pair[0], pair[1], 200);
        assertEquals(EcnValidation.CAPABLE, pair[1].stats().ecnState(), "the server's packets validated ECN");

        for (int rebinding = 1; rebinding <= 3; rebinding++)
        {
            final InetSocketAddress newAddress = new InetSocketAddress("127.0.0.1", 2345 + rebinding);
            network.rebind(clientPort, newAddress);
            numbered.transfer(pair[0], pair[1], 200);
            assertEquals(newAddress, pair[1].remoteAddress(), "rebinding " + rebinding);
            assertEquals(rebinding, server.securityCounters().migrations().get());
        }
        assertEquals(ConnectionState.CONNECTED, pair[0].state());
        assertEquals(ConnectionState.CONNECTED, pair[1].state());
        assertEquals(0, server.securityCounters().acksOfSkippedPackets().get());
        assertEquals(0, client.securityCounters().acksOfSkippedPackets().get());
        assertEquals(EcnValidation.CAPABLE, pair[0].stats().ecnState());
        assertEquals(EcnValidation.CAPABLE, pair[1].stats().ecnState());
    }

    private void rebindingMidTransferMovesTheConnection(
        final PacelinkContext clientContext,
        final PacelinkContext serverContext,
        final String newHost,
        final int controllersAfter)
    {
        final EndpointCore client = bed.newCore(clientPort, false, 4, clientContext.randomSeed(11), new ArrayList<>(),
            null);
        final EndpointCore server = bed.newCore(serverPort, true, 4, serverContext.randomSeed(12), serverControllers,
            null);
        final Connection[] pair = bed.connect(client, server, serverPort);
        numbered.transfer(pair[0], pair[1], 200);
        assertEquals(1, serverControllers.size());

        final InetSocketAddress newAddress = new InetSocketAddress(newHost, 2345);
        network.rebind(clientPort, newAddress);
        numbered.transfer(pair[0], pair[1], 400);

        assertEquals(newAddress, pair[1].remoteAddress(), "the server's connection follows its client");
        assertEquals(1, server.securityCounters().migrations().get());
        assertEquals(0, server.securityCounters().pathValidationsFailed().get());
        assertEquals(ConnectionState.CONNECTED, pair[0].state());
        assertEquals(ConnectionState.CONNECTED, pair[1].state());
        assertEquals(controllersAfter, serverControllers.size(), "a new controller only for a new address");
    }

    @Test
    void aCopyOfAnOldPacketFromAnotherAddressMovesNothingAndDrawsNoChallenge()
    {
        final EndpointCore client = bed.newCore(clientPort, false, 4, new PacelinkContext().randomSeed(21),
            new ArrayList<>(), null);
        final EndpointCore server = bed.newCore(serverPort, true, 4, new PacelinkContext().randomSeed(22),
            serverControllers, null);
        final List<byte[]> fromClient = new ArrayList<>();
        network.dropWhen((datagram) ->
        {
            if (PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET])
            {
                fromClient.add(datagram);
            }
            return false;
        });
        final Connection[] pair = bed.connect(client, server, serverPort);
        numbered.transfer(pair[0], pair[1], 50);
        final TestNetwork.Port spoofer = network.newPort("127.0.0.7", 7000);
        final long wrongAddressBefore = server.securityCounters().packetsFromWrongAddress().get();
        int copies = 0;
        for (final byte[] datagram : fromClient)
        {
            if (packetNumber(datagram) > 0 && connectionId(datagram) == pair[1].connectionId())
            {
                serverPort.inject(datagram, spoofer.localAddress());
                copies++;
            }
        }
        network.dropWhen((datagram) -> false);
        bed.runFor(SECOND_NS);

        assertTrue(copies > 10, "copies: " + copies);
        assertEquals(wrongAddressBefore + copies, server.securityCounters().packetsFromWrongAddress().get());
        assertEquals(0, receivedBy(spoofer), "no challenge toward the spoofed address");
        assertEquals(clientPort.localAddress(), pair[1].remoteAddress());
        assertEquals(0, server.securityCounters().migrations().get());
        numbered.transfer(pair[0], pair[1], 10);
    }

    @Test
    void aChallengeNeverAnsweredLeavesTheConnectionOnItsOldPathWithinTheAmplificationLimit()
    {
        final EndpointCore client = bed.newCore(clientPort, false, 4, new PacelinkContext().randomSeed(31),
            new ArrayList<>(), null);
        final EndpointCore server = bed.newCore(serverPort, true, 4, new PacelinkContext().randomSeed(32),
            serverControllers, null);
        final Connection[] pair = bed.connect(client, server, serverPort);
        numbered.transfer(pair[0], pair[1], 20);

        // The client's next packet is taken off the path and played from another address, as an on-path observer
        // could in plaintext: it is the newest the server has seen, so it starts a validation nobody will answer.
        final byte[][] held = new byte[1][];
        network.dropWhen((datagram) ->
        {
            if (null == held[0] && PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] &&
                connectionId(datagram) == pair[1].connectionId())
            {
                held[0] = datagram;
                return true;
            }
            return false;
        });
        final UnsafeBuffer message = numbered.nextMessage();
        assertTrue(pair[0].offer(message, 0, NumberedTransfer.MESSAGE_BYTES) >= 0);
        bed.run(() -> null != held[0], SECOND_NS, "the client's next packet");
        final TestNetwork.Port silent = network.newPort("127.0.0.8", 8000);
        serverPort.inject(held[0], silent.localAddress());
        final long[] bytesToSilent = {0};
        final int[] challenges = {0};
        for (int i = 0; i < 100; i++)
        {
            bed.runFor(SECOND_NS / 20);
            silent.receive((buffer, offset, length, source, nowNs) ->
            {
                bytesToSilent[0] += length;
                challenges[0]++;
            }, 100, bed.nowNs());
        }

        assertTrue(challenges[0] >= 1, "a challenge was sent");
        assertTrue(bytesToSilent[0] <= 3L * held[0].length,
            bytesToSilent[0] + " bytes toward an address that sent " + held[0].length);
        assertEquals(1, server.securityCounters().pathValidationsFailed().get());
        assertEquals(0, server.securityCounters().migrations().get());
        assertEquals(clientPort.localAddress(), pair[1].remoteAddress());
        assertEquals(ConnectionState.CONNECTED, pair[1].state());
        numbered.transfer(pair[0], pair[1], 20);
    }

    @Test
    void aSmallPacketFromANewAddressAllowsOnlyAChallengeWithinThreeTimesItsSize()
    {
        final EndpointCore client = bed.newCore(clientPort, false, 4, new PacelinkContext().randomSeed(41),
            new ArrayList<>(), null);
        final EndpointCore server = bed.newCore(serverPort, true, 4, new PacelinkContext().randomSeed(42),
            serverControllers, null);
        final Connection[] pair = bed.connect(client, server, serverPort);
        numbered.transfer(pair[1], pair[0], 5);
        // An ACK-only packet of the client's, the smallest it sends, taken off the path and played from elsewhere.
        final byte[][] held = new byte[1][];
        network.dropWhen((datagram) ->
        {
            if (null == held[0] && datagram.length < 100 &&
                PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] &&
                connectionId(datagram) == pair[1].connectionId())
            {
                held[0] = datagram;
                return true;
            }
            return false;
        });
        numbered.transfer(pair[1], pair[0], 5);
        assertNotNull(held[0], "an ACK-only packet");
        network.dropWhen((datagram) -> false);
        final TestNetwork.Port silent = network.newPort("127.0.0.8", 8000);
        serverPort.inject(held[0], silent.localAddress());
        final long[] bytesToSilent = {0};
        final int[] challenges = {0};
        bed.runFor(5 * SECOND_NS);
        silent.receive((buffer, offset, length, source, nowNs) ->
        {
            bytesToSilent[0] += length;
            challenges[0]++;
        }, 100, bed.nowNs());
        assertTrue(challenges[0] >= 1, "a challenge within the budget of a " + held[0].length + "-byte packet");
        assertTrue(bytesToSilent[0] <= 3L * held[0].length,
            bytesToSilent[0] + " bytes toward an address that sent " + held[0].length);
        assertEquals(1, server.securityCounters().pathValidationsFailed().get());
        assertEquals(clientPort.localAddress(), pair[1].remoteAddress());
    }

    // ---------------------------------------------------------------- helpers

    private int receivedBy(final TestNetwork.Port port)
    {
        return port.receive((buffer, offset, length, source, nowNs) ->
        {
        }, 1000, bed.nowNs());
    }

    private static long packetNumber(final byte[] datagram)
    {
        return ByteBuffer.wrap(datagram).order(ByteOrder.LITTLE_ENDIAN)
            .getLong(PacketHeaderFlyweight.PACKET_NUMBER_OFFSET);
    }

    private static long connectionId(final byte[] datagram)
    {
        return ByteBuffer.wrap(datagram).order(ByteOrder.LITTLE_ENDIAN)
            .getLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET);
    }

    private PacelinkContext nkServer()
    {
        final PacelinkContext context = new PacelinkContext();
        context.security().serverPrivateKey(serverPrivateKey);
        return context;
    }

    private static byte[] randomKey(final long seed)
    {
        final byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }
}
