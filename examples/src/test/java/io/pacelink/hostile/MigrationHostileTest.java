package io.pacelink.hostile;

import io.pacelink.transport.Endpoint;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static io.pacelink.hostile.Servers.counter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connection migration from raw sockets (docs/security.md, "Connection migration"): a server's plaintext connection
 * set up by one socket, then packets for it from a second socket. Stale and duplicate packet numbers from there move
 * nothing and draw nothing; the newest packet draws PATH_CHALLENGEs, at most 3 times its bytes, and a challenge nobody
 * answers leaves the connection where it was; answered, the connection moves to the new socket.
 */
class MigrationHostileTest
{
    private static final long MILLISECOND_NS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void staleAndDuplicatePacketsFromANewAddressMoveNothing()
    {
        try (Endpoint server = Servers.launch((context) -> context.initialRttNs(50 * MILLISECOND_NS));
            HostilePeer peer = new HostilePeer(server.localAddress());
            HostilePeer elsewhere = new HostilePeer(server.localAddress()))
        {
            peer.handshake(TimeUnit.SECONDS.toNanos(2));
            for (int i = 0; i < 5; i++)
            {
                peer.sendOneRtt(PacketWriter::appendPing);
            }
            peer.receiveFor(200 * MILLISECOND_NS);
            final long wrongAddressBefore = counter(server, "packets-from-wrong-address");

            elsewhere.serverId = peer.serverId;
            for (long packetNumber = 0; packetNumber < peer.nextPacketNumber; packetNumber++)
            {
                elsewhere.nextPacketNumber = packetNumber;
                elsewhere.sendOneRtt(PacketWriter::appendPing);
            }
            elsewhere.receiveFor(500 * MILLISECOND_NS);

            assertEquals(0, elsewhere.received().size(), "nothing toward the new address");
            assertEquals(wrongAddressBefore + peer.nextPacketNumber, counter(server, "packets-from-wrong-address"));
            assertEquals(0, counter(server, "migrations"));
            assertEquals(0, counter(server, "path-validations-failed"));
            peer.received().clear();
            peer.sendOneRtt(PacketWriter::appendPing);
            peer.receiveFor(300 * MILLISECOND_NS);
            assertTrue(peer.oneRttPacketNumbers().size() >= 1, "the connection still answers its client");
        }
    }

    @Test
    void anUnansweredChallengeLeavesTheConnectionWhereItWasWithinThreeTimes()
    {
        try (Endpoint server = Servers.launch((context) -> context.initialRttNs(50 * MILLISECOND_NS));
            HostilePeer peer = new HostilePeer(server.localAddress());
            HostilePeer elsewhere = new HostilePeer(server.localAddress()))
        {
            final int sentBytes = newestPacketFromElsewhere(peer, elsewhere);
            elsewhere.receiveFor(2_000 * MILLISECOND_NS);

            final int challenges = pathChallenges(elsewhere);
            assertTrue(challenges >= 1, "the new address was challenged");
            assertTrue(elsewhere.bytesReceived <= 3L * sentBytes,
                elsewhere.bytesReceived + " bytes toward an address that sent " + sentBytes);
            assertEquals(elsewhere.received().size(), challenges, "nothing but challenges toward it");
            assertEquals(1, counter(server, "path-validations-failed"));
            assertEquals(0, counter(server, "migrations"));

            peer.received().clear();
            peer.nextPacketNumber = elsewhere.nextPacketNumber;
            peer.sendOneRtt(PacketWriter::appendPing);
            peer.receiveFor(300 * MILLISECOND_NS);
            assertTrue(peer.oneRttPacketNumbers().size() >= 1, "the connection still answers at its old address");
        }
    }

    @Test
    void anAnsweredChallengeMovesTheConnectionToTheNewAddress()
    {
        try (Endpoint server = Servers.launch((context) -> context.initialRttNs(50 * MILLISECOND_NS));
            HostilePeer peer = new HostilePeer(server.localAddress());
            HostilePeer elsewhere = new HostilePeer(server.localAddress()))
        {
            newestPacketFromElsewhere(peer, elsewhere);
            final byte[] challenge = elsewhere.awaitPacket(PacketType.ONE_RTT, TimeUnit.SECONDS.toNanos(2));
            final long challengeData = pathFrameData(challenge, FrameType.PATH_CHALLENGE);
            elsewhere.sendOneRtt((writer) -> writer.appendPathFrame(FrameType.PATH_RESPONSE, challengeData ^ 1));
            elsewhere.receiveFor(100 * MILLISECOND_NS);
            assertEquals(0, counter(server, "migrations"), "the wrong bytes prove nothing");

            elsewhere.sendOneRtt((writer) -> writer.appendPathFrame(FrameType.PATH_RESPONSE, challengeData));
            elsewhere.receiveFor(100 * MILLISECOND_NS);
            assertEquals(1, counter(server, "migrations"));

            elsewhere.received().clear();
            peer.received().clear();
            elsewhere.sendOneRtt(PacketWriter::appendPing);
            elsewhere.receiveFor(300 * MILLISECOND_NS);
            peer.receiveFor(10 * MILLISECOND_NS);
            assertTrue(elsewhere.oneRttPacketNumbers().size() >= 1, "the server answers at the new address");
            assertEquals(0, peer.received().size(), "and no longer at the old one");
        }
    }

    /**
     * The peer sets its connection up; then the other socket sends a packet for it numbered beyond any the server
     * received: the newest, from a new address.
     *
     * @return the bytes of that packet.
     */
    private static int newestPacketFromElsewhere(final HostilePeer peer, final HostilePeer elsewhere)
    {
        peer.handshake(TimeUnit.SECONDS.toNanos(2));
        peer.receiveFor(200 * MILLISECOND_NS);
        elsewhere.serverId = peer.serverId;
        elsewhere.nextPacketNumber = peer.nextPacketNumber + 10;
        return elsewhere.sendOneRtt(PacketWriter::appendPing);
    }

    private static int pathChallenges(final HostilePeer peer)
    {
        int count = 0;
        for (final byte[] datagram : peer.received())
        {
            if (PacketType.ONE_RTT == datagram[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] &&
                pathFrameData(datagram, FrameType.PATH_CHALLENGE) != Long.MIN_VALUE)
            {
                count++;
            }
        }
        return count;
    }

    /**
     * @return the data of the datagram's first frame of that type, or {@link Long#MIN_VALUE} if it has none.
     */
    private static long pathFrameData(final byte[] datagram, final int frameType)
    {
        final PacketDecoder decoder = new PacketDecoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
        final int length = datagram.length - Crc32cPacketCheck.TRAILER_LENGTH;
        if (PacketDecoder.OK != decoder.validate(buffer, 0, length))
        {
            return Long.MIN_VALUE;
        }
        for (int type = decoder.firstFrame(buffer, 0, length); PacketDecoder.NO_MORE_FRAMES != type;
            type = decoder.nextFrame())
        {
            if (frameType == type)
            {
                return decoder.path().pathData();
            }
        }
        return Long.MIN_VALUE;
    }
}
