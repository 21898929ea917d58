package io.pacelink.transport.secure;

import io.pacelink.transport.wire.PacketHeaderFlyweight;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The key-update handshake of RFC 9001 section 6 on two {@link PacketProtection}s, packet by packet: an update is
 * answered by the peer's own; no second update before an acknowledgement of a packet of the current phase and the
 * peer's answer (section 6.5); a reordered packet of the old phase opens with the previous key until it is discarded;
 * garbage with the key-phase bit flipped, or a genuine next-phase packet damaged on the way, switches nothing.
 */
class KeyUpdateHandshakeTest
{
    private static final int PAYLOAD_BYTES = 200;
    private static final byte[] A_SECRET = secret(1);
    private static final byte[] B_SECRET = secret(2);

    private final PacketProtection a = new PacketProtection(AeadAlgorithm.AES_GCM, A_SECRET, B_SECRET, 4);
    private final PacketProtection b =
        new PacketProtection(AeadAlgorithm.AES_GCM, B_SECRET, A_SECRET, Long.MAX_VALUE);
    private final byte[] opened = new byte[2048];
    private long aNextPacketNumber;
    private long bNextPacketNumber;

    @Test
    void eachUpdateIsAnsweredByThePeersOwnAndThePhasesNeverDriftByTwo()
    {
        for (int round = 0; round < 40; round++)
        {
            final byte[] fromA = seal(a, aNextPacketNumber++);
            assertTrue(open(b, fromA) > 0, "round " + round);
            final byte[] fromB = seal(b, bNextPacketNumber++);
            assertTrue(open(a, fromB) > 0, "round " + round);
            // Each side acknowledges what it received in its next packet.
            acknowledge(a, aNextPacketNumber - 1);
            acknowledge(b, bNextPacketNumber - 1);
            assertEquals(a.sendKeyPhase(), b.receiveKeyPhase(), "round " + round);
            assertTrue(Math.abs(a.keyUpdates() - b.keyUpdates()) <= 1, "round " + round);
        }
        assertTrue(a.keyUpdates() >= 5, "a initiated every few packets: " + a.keyUpdates());
        assertEquals(a.keyUpdates(), b.keyUpdates(), "b, which never initiates, answered every update");
        assertEquals(0, a.authenticationFailures() + b.authenticationFailures());
    }

    @Test
    void noSecondUpdateBeforeAnAcknowledgementOfThePhase()
    {
        for (int i = 0; i < 40; i++)
        {
            open(b, seal(a, aNextPacketNumber++));
            open(a, seal(b, bNextPacketNumber++)); // b answers, but nothing a sends is ever acknowledged
        }
        assertEquals(0, a.keyUpdates(), "nothing of the first phase acknowledged: no update at all");

        acknowledge(a, aNextPacketNumber - 1);
        for (int i = 0; i < 40; i++)
        {
            open(b, seal(a, aNextPacketNumber++));
            open(a, seal(b, bNextPacketNumber++));
        }
        assertEquals(1, a.keyUpdates(), "one update; the next waits for an acknowledgement of the new phase");
        assertEquals(1, b.keyUpdates(), "answered");
    }

    @Test
    void aReorderedPacketOfTheOldPhaseOpensWithThePreviousKeyUntilItIsDiscarded()
    {
        final byte[][] sent = new byte[8][];
        for (int i = 0; i < sent.length; i++)
        {
            sent[i] = seal(a, aNextPacketNumber++);
            if (0 == i)
            {
                open(b, sent[0]);
                acknowledge(a, 0);
            }
        }
        // Packets 4 to 7 are of the new phase; 1 to 3, of the old, arrive after them.
        for (int i = 4; i < sent.length; i++)
        {
            assertTrue(open(b, sent[i]) > 0, "new phase " + i);
        }
        assertTrue(b.takeReceivePhaseChange());
        assertTrue(open(b, sent[1]) > 0, "the old phase's late packet opens with the previous key");
        b.discardPreviousReceiveKeys();
        assertEquals(-1, open(b, sent[2]), "after the previous key is discarded it does not");
        assertEquals(1, b.receiveKeyPhase());
    }

    @Test
    void garbageWithTheKeyPhaseFlippedSwitchesNothing()
    {
        final Random random = new Random(7);
        assertTrue(open(b, seal(a, aNextPacketNumber++)) > 0);
        for (int i = 0; i < 1000; i++)
        {
            final byte[] garbage = new byte[PacketHeaderFlyweight.HEADER_LENGTH + PAYLOAD_BYTES];
            random.nextBytes(garbage);
            garbage[PacketHeaderFlyweight.FLAGS_OFFSET] = (byte)(PacketHeaderFlyweight.FLAG_SEALED |
                (1 - b.receiveKeyPhase()) * PacketHeaderFlyweight.FLAG_KEY_PHASE);
            ByteBuffer.wrap(garbage).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, 1000 + i);
            assertEquals(-1, open(b, garbage));
        }
        assertEquals(0, b.receiveKeyPhase(), "no switch");
        assertEquals(0, b.keyUpdates(), "no answer to an update nobody made");
        assertEquals(1000, b.authenticationFailures());
        assertTrue(open(b, seal(a, aNextPacketNumber++)) > 0, "the genuine peer's next packet opens");
    }

    @Test
    void aNextPhasePacketThatFailsToOpenDoesNotSwitchKeysAndTheGenuineOneDoes()
    {
        open(b, seal(a, aNextPacketNumber++));
        acknowledge(a, 0);
        byte[] nextPhase = null;
        while (null == nextPhase)
        {
            final byte[] datagram = seal(a, aNextPacketNumber++);
            if (0 != (datagram[PacketHeaderFlyweight.FLAGS_OFFSET] & PacketHeaderFlyweight.FLAG_KEY_PHASE))
            {
                nextPhase = datagram;
            }
            else
            {
                open(b, datagram);
            }
        }
        final byte[] damaged = nextPhase.clone();
        damaged[PacketHeaderFlyweight.HEADER_LENGTH + 10] ^= 1;
        assertEquals(-1, open(b, damaged));
        assertEquals(0, b.receiveKeyPhase(), "a damaged next-phase packet switches nothing");
        assertEquals(0, b.keyUpdates());
        assertTrue(open(b, nextPhase) > 0);
        assertEquals(1, b.receiveKeyPhase(), "the genuine one switches");
        assertEquals(1, b.keyUpdates(), "and is answered");
    }

    /**
     * The peer acknowledged up to {@code largest}, and the three probe timeouts a connection waits before it permits
     * the next update have passed.
     */
    private static void acknowledge(final PacketProtection protection, final long largest)
    {
        protection.onLargestAcknowledged(largest);
        protection.permitKeyUpdate();
    }

    private byte[] seal(final PacketProtection protection, final long packetNumber)
    {
        final byte[] packet = new byte[PacketHeaderFlyweight.HEADER_LENGTH + PAYLOAD_BYTES];
        packet[PacketHeaderFlyweight.VERSION_OFFSET] = (byte)PacketHeaderFlyweight.CURRENT_VERSION;
        packet[PacketHeaderFlyweight.PACKET_TYPE_OFFSET] = 2;
        ByteBuffer.wrap(packet).order(ByteOrder.LITTLE_ENDIAN)
            .putLong(PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, packetNumber)
            .putLong(PacketHeaderFlyweight.HEADER_LENGTH, packetNumber * 31);
        final byte[] output = new byte[packet.length + PacketProtection.TRAILER_LENGTH];
        assertEquals(output.length, protection.seal(packet, packet.length, output));
        return output;
    }

    private int open(final PacketProtection protection, final byte[] datagram)
    {
        return protection.open(datagram, datagram.length, opened);
    }

    private static byte[] secret(final int seed)
    {
        final byte[] secret = new byte[32];
        new Random(seed).nextBytes(secret);
        return secret;
    }
}
