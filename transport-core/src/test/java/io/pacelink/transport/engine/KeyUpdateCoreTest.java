package io.pacelink.transport.engine;

import io.pacelink.transport.Connection;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.secure.X25519;
import io.pacelink.transport.testing.TestNetwork;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The key-update handshake of RFC 9001 section 6 between two secure cores in virtual time, over a path that reorders
 * (every fifth datagram each way held back 3 ms): the client updates every 64 packets (the setting lowered from
 * 2^23), the server answers each update with its own, the phases of the two directions never drift by two, late
 * packets of the old phase still open with the previous key, and the data arrives byte-exact. Then the hostile
 * side: datagrams with the connection's id and the key-phase bit flipped over garbage are dropped as integrity
 * failures and change no key.
 */
class KeyUpdateCoreTest
{
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long HOLD_NS = TimeUnit.MILLISECONDS.toNanos(3);
    private static final long PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(300);

    private final CoreTestBed bed = new CoreTestBed(10 * SECOND_NS, SECOND_NS);
    private final TestNetwork network = bed.network();
    private final TestNetwork.Port serverPort = network.newPort(1000);
    private final TestNetwork.Port clientPort = network.newPort(2000);
    private final byte[] serverPrivateKey = randomKey(1);
    private final List<byte[]> heldDatagrams = new ArrayList<>();
    private final List<InetSocketAddress> heldDestinations = new ArrayList<>();
    private final List<Long> heldUntilNs = new ArrayList<>();
    private int datagrams;
    private int clientPhase;
    private int serverPhase;
    private int maxPhaseDrift;
    private final NumberedTransfer numbered = new NumberedTransfer(bed, this::releaseHeld);

    @Test
    void updatesAreAnsweredAndSurviveAReorderingPathByteExact()
    {
        final Connection[] pair = connectSecure(64);
        reorderEveryFifthDatagram(pair);
        // In rounds with pauses between them: after each update the client waits three PTOs before the next
        // (RFC 9001 section 6.5), longer than a burst of a few hundred packets takes on this path.
        for (int round = 0; round < 15; round++)
        {
            numbered.transfer(pair[0], pair[1], 200);
            final long pauseEndNs = bed.nowNs() + PAUSE_NS;
            while (bed.nowNs() < pauseEndNs)
            {
                bed.step();
                releaseHeld();
            }
        }

        final EndpointCore client = clientCore;
        final EndpointCore server = serverCore;
        final long clientUpdates = client.securityCounters().keyUpdates().get();
        final long serverUpdates = server.securityCounters().keyUpdates().get();
        assertTrue(clientUpdates >= 10, "client key updates: " + clientUpdates);
        assertTrue(Math.abs(clientUpdates - serverUpdates) <= 1,
            "each update answered: client " + clientUpdates + ", server " + serverUpdates);
        assertTrue(maxPhaseDrift <= 1, "the directions' phases drifted by " + maxPhaseDrift);
        assertTrue(heldCount > 100, "datagrams reordered: " + heldCount);
        assertEquals(0, client.securityCounters().integrityFailures().get() +
            server.securityCounters().integrityFailures().get(), "every late packet of the old phase opened");
        assertEquals(ConnectionState.CONNECTED, pair[1].state());
    }

    @Test
    void garbageWithTheKeyPhaseFlippedIsDroppedAndChangesNoKey()
    {
        final Connection[] pair = connectSecure(1L << 23);
        numbered.transfer(pair[0], pair[1], 50);
        final Random random = new Random(9);
        for (int i = 0; i < 1000; i++)
        {
            final byte[] garbage = new byte[300];
            random.nextBytes(garbage);
            final ByteBuffer header = ByteBuffer.wrap(garbage).order(ByteOrder.LITTLE_ENDIAN);
            garbage[PacketHeaderFlyweight.VERSION_OFFSET] = (byte)PacketHeaderFlyweight.CURRENT_VERSION;
            garbage[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] = PacketType.ONE_RTT;
            header.putShort(PacketHeaderFlyweight.FLAGS_OFFSET,
                (short)(PacketHeaderFlyweight.FLAG_SEALED | PacketHeaderFlyweight.FLAG_KEY_PHASE));
            header.putLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, pair[1].connectionId());
            header.putLong(PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, 10_000 + i);
            serverPort.inject(garbage, clientPort.localAddress());
            if (0 == i % 50)
            {
                bed.step();
            }
        }
        bed.runFor(SECOND_NS / 10);
        assertEquals(1000, serverCore.securityCounters().integrityFailures().get());
        assertEquals(0, serverCore.securityCounters().keyUpdates().get(), "no answer to an update nobody made");
        assertEquals(0, clientCore.securityCounters().keyUpdates().get());
        numbered.transfer(pair[0], pair[1], 50);
        assertEquals(ConnectionState.CONNECTED, pair[1].state());
    }

    // ---------------------------------------------------------------- helpers

    private EndpointCore clientCore;
    private EndpointCore serverCore;
    private int heldCount;

    private Connection[] connectSecure(final long keyUpdateIntervalPackets)
    {
        final PacelinkContext clientContext = new PacelinkContext().randomSeed(51);
        clientContext.security().serverPublicKey(new X25519().publicKey(serverPrivateKey))
            .keyUpdateIntervalPackets(keyUpdateIntervalPackets);
        final PacelinkContext serverContext = new PacelinkContext().randomSeed(52);
        serverContext.security().serverPrivateKey(serverPrivateKey);
        clientCore = bed.newCore(clientPort, false, 4, clientContext, new ArrayList<>(), null);
        serverCore = bed.newCore(serverPort, true, 4, serverContext, new ArrayList<>(), null);
        return bed.connect(clientCore, serverCore, serverPort);
    }

    /**
     * Every fifth ONE_RTT datagram either way is taken off the path and delivered {@link #HOLD_NS} later, behind the
     * ones sent after it; the key phase of each direction's datagrams is watched as they leave.
     */
    private void reorderEveryFifthDatagram(final Connection[] pair)
    {
        final long serverId = pair[1].connectionId();
        network.dropWhen((datagram) ->
        {
            if (PacketType.ONE_RTT != datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET])
            {
                return false;
            }
            final long destinationId = ByteBuffer.wrap(datagram).order(ByteOrder.LITTLE_ENDIAN)
                .getLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET);
            final boolean toServer = destinationId == serverId;
            final int phase = 0 != (datagram[PacketHeaderFlyweight.FLAGS_OFFSET] &
                PacketHeaderFlyweight.FLAG_KEY_PHASE) ? 1 : 0;
            // Phases count up: a flip of a direction's bit is one more update in that direction.
            if (toServer && phase != (clientPhase & 1))
            {
                clientPhase++;
            }
            else if (!toServer && phase != (serverPhase & 1))
            {
                serverPhase++;
            }
            maxPhaseDrift = Math.max(maxPhaseDrift, Math.abs(clientPhase - serverPhase));
            if (0 == ++datagrams % 5)
            {
                heldDatagrams.add(datagram);
                heldDestinations.add(toServer ? serverPort.localAddress() : clientPort.localAddress());
                heldUntilNs.add(bed.nowNs() + HOLD_NS);
                heldCount++;
                return true;
            }
            return false;
        });
    }

    private void releaseHeld()
    {
        for (int i = heldDatagrams.size() - 1; i >= 0; i--)
        {
            if (heldUntilNs.get(i) <= bed.nowNs())
            {
                final boolean toServer = heldDestinations.get(i).equals(serverPort.localAddress());
                (toServer ? serverPort : clientPort).inject(heldDatagrams.get(i),
                    toServer ? clientPort.localAddress() : serverPort.localAddress());
                heldDatagrams.remove(i);
                heldDestinations.remove(i);
                heldUntilNs.remove(i);
            }
        }
    }

    private static byte[] randomKey(final long seed)
    {
        final byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }
}
