package io.pacelink.transport.ack;

import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.EcnCodepoint;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RecordingFrameVisitor;
import io.pacelink.transport.wire.RecordingFrameVisitor.Ack;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Receiver-side ACK generation (RFC 9000 section 13.2) and range encoding (section 19.3.1), checked by writing real
 * ACK frames and decoding them with {@link PacketDecoder}. Time is a hand-advanced virtual clock.
 */
class ReceivedPacketTrackerTest
{
    private static final long MS = 1_000_000L;
    private static final long US = 1_000L;
    private static final long MAX_ACK_DELAY_NS = MS;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2_048]);
    private final PacketWriter writer = new PacketWriter();
    private final PacketDecoder decoder = new PacketDecoder();
    private final RecordingFrameVisitor visitor = new RecordingFrameVisitor();
    private final ReceivedPacketTracker tracker = new ReceivedPacketTracker(32, 2, MAX_ACK_DELAY_NS);

    @Test
    void inOrderPacketsAreAcknowledgedEverySecondAckElicitingPacket()
    {
        assertTrue(tracker.onPacketReceived(0, true, 0));
        assertFalse(tracker.isAckDue(0));
        assertEquals(MAX_ACK_DELAY_NS, tracker.ackDeadlineNs(), "first unacknowledged packet arms max_ack_delay");

        assertTrue(tracker.onPacketReceived(1, true, 100 * US));
        assertTrue(tracker.isAckDue(100 * US), "second ack-eliciting packet (RFC 9000 section 13.2.2)");
        assertEquals(new Ack(1, 50, List.of("0..1")), writeAck(150 * US));

        assertFalse(tracker.isAckDue(150 * US));
        assertEquals(Long.MAX_VALUE, tracker.ackDeadlineNs());
        assertFalse(tracker.hasNewAckInformation());
        assertEquals(0, tracker.ackElicitingSinceLastAck());

        assertTrue(tracker.onPacketReceived(2, true, 200 * US));
        assertFalse(tracker.isAckDue(200 * US));
        assertEquals(200 * US + MAX_ACK_DELAY_NS, tracker.ackDeadlineNs());
        assertTrue(tracker.onPacketReceived(3, true, 210 * US));
        assertTrue(tracker.isAckDue(210 * US));
        assertEquals(new Ack(3, 0, List.of("0..3")), writeAck(210 * US));
    }

    @Test
    void packetNumbersFarBeyondTheLargestReceivedAreOutsideTheWindow()
    {
        assertFalse(tracker.isBeyondWindow(0));
        assertFalse(tracker.isBeyondWindow(ReceivedPacketTracker.MAX_PACKET_NUMBER_JUMP - 1));
        assertTrue(tracker.isBeyondWindow(1L << 62));
        tracker.onPacketReceived(1_000, true, 0);
        assertFalse(tracker.isBeyondWindow(1_000 + ReceivedPacketTracker.MAX_PACKET_NUMBER_JUMP));
        assertTrue(tracker.isBeyondWindow(1_001 + ReceivedPacketTracker.MAX_PACKET_NUMBER_JUMP));
    }

    @Test
    void anAcknowledgedAckFrameEndsTheRangesItCovered()
    {
        // Gaps at 3 and 7, as skipped packet numbers leave them.
        for (final long pn : new long[]{ 0, 1, 2, 4, 5, 6, 8, 9 })
        {
            tracker.onPacketReceived(pn, true, 0);
        }
        assertEquals(3, tracker.rangeCount());

        tracker.onAckFrameAcknowledged(5);
        assertEquals(2, tracker.rangeCount(), "ranges above 5 remain: [6, 6] and [8, 9]");
        assertEquals(6, tracker.rangeSmallest(1));
        assertEquals(6, tracker.lowestAcceptedPacketNumber());
        assertTrue(tracker.isDuplicate(3), "an old gap is closed for good");
        assertTrue(tracker.isDuplicate(5));
        assertFalse(tracker.isDuplicate(7));

        tracker.onAckFrameAcknowledged(9);
        assertEquals(0, tracker.rangeCount());
        assertTrue(tracker.isDuplicate(9));
        assertTrue(tracker.onPacketReceived(10, true, 0));
        assertEquals(1, tracker.rangeCount());
        tracker.onAckFrameAcknowledged(4);
        assertEquals(1, tracker.rangeCount(), "an older acknowledgement changes nothing");
    }

    @Test
    void thresholdIsConfigurable()
    {
        final ReceivedPacketTracker everyThird = new ReceivedPacketTracker(8, 3, MAX_ACK_DELAY_NS);
        everyThird.onPacketReceived(0, true, 0);
        everyThird.onPacketReceived(1, true, 0);
        assertFalse(everyThird.isAckDue(0));
        everyThird.onPacketReceived(2, true, 0);
        assertTrue(everyThird.isAckDue(0));
    }

    @Test
    void gapMakesAnAckDueImmediatelyWithRfc9000Ranges()
    {
        tracker.onPacketReceived(0, true, 0);
        tracker.onPacketReceived(1, true, 0);
        writeAck(0);

        // 2 and 3 missing: an ack-eliciting packet above a gap is acknowledged without delay (RFC 9000 section
        // 13.2.1) even though it is only the first since the last ACK.
        assertTrue(tracker.onPacketReceived(4, true, 10 * US));
        assertTrue(tracker.isAckDue(10 * US));
        assertEquals(10 * US, tracker.ackDeadlineNs());

        writer.wrap(buffer, 0, 1_200).writeHeader(PacketType.ONE_RTT, 1, 1);
        assertEquals(AckFrameFlyweight.frameLength(1), tracker.writeAckFrame(writer, 10 * US));
        // Largest 4, first range 0; then gap = 4 - 1 - 2 = 1 (two missing packets), length = 1 - 0 = 1.
        final AckFrameFlyweight ack = new AckFrameFlyweight();
        ack.wrap(buffer, 20);
        assertEquals(4, ack.largestAcked());
        assertEquals(0, ack.firstRange());
        assertEquals(1, ack.rangeCount());
        assertEquals(1, ack.gap(0));
        assertEquals(1, ack.rangeLength(0));
        assertEquals(List.of("4..4", "0..1"), RecordingFrameVisitor.ranges(ack));
    }

    @Test
    void severalGapsEncodeAsRfc9000GapAndLengthPairs()
    {
        // Received {0..2, 6..7, 10, 20..22}.
        final long[] received = {0, 1, 2, 6, 7, 10, 20, 21, 22};
        for (final long packetNumber : received)
        {
            assertTrue(tracker.onPacketReceived(packetNumber, true, 0));
        }
        assertEquals(4, tracker.rangeCount());

        writer.wrap(buffer, 0, 1_200).writeHeader(PacketType.ONE_RTT, 1, 1);
        tracker.writeAckFrame(writer, 0);
        final AckFrameFlyweight ack = new AckFrameFlyweight();
        ack.wrap(buffer, 20);
        assertEquals(22, ack.largestAcked());
        assertEquals(2, ack.firstRange());
        assertEquals(3, ack.rangeCount());
        assertEquals(8, ack.gap(0), "20 - 10 - 2");
        assertEquals(0, ack.rangeLength(0));
        assertEquals(1, ack.gap(1), "10 - 7 - 2");
        assertEquals(1, ack.rangeLength(1));
        assertEquals(2, ack.gap(2), "6 - 2 - 2");
        assertEquals(2, ack.rangeLength(2));
    }

    @Test
    void reorderedPacketFillingAGapIsAcknowledgedImmediatelyAndMergesRanges()
    {
        tracker.onPacketReceived(0, true, 0);
        tracker.onPacketReceived(2, true, 100 * US);
        assertEquals(new Ack(2, 0, List.of("2..2", "0..0")), writeAck(100 * US));

        assertTrue(tracker.onPacketReceived(1, true, 300 * US));
        assertTrue(tracker.isAckDue(300 * US), "below the largest received (RFC 9000 section 13.2.1)");
        assertEquals(1, tracker.rangeCount());
        // The delay is measured from the largest acknowledged packet's arrival (RFC 9000 section 13.2.5).
        assertEquals(new Ack(2, 200, List.of("0..2")), writeAck(300 * US));
    }

    @Test
    void firstPacketAboveZeroIsOutOfOrder()
    {
        assertTrue(tracker.onPacketReceived(3, true, 0));
        assertTrue(tracker.isAckDue(0), "packets 0..2 are missing below it");
        assertEquals(new Ack(3, 0, List.of("3..3")), writeAck(0));
        assertTrue(tracker.onPacketReceived(0, true, 5 * US), "a late packet below the first is still new");
        assertEquals(new Ack(3, 5, List.of("3..3", "0..0")), writeAck(5 * US));
    }

    @Test
    void maxAckDelayDeadlineFromTheFirstUnacknowledgedPacket()
    {
        tracker.onPacketReceived(0, true, 5 * MS);
        assertEquals(6 * MS, tracker.ackDeadlineNs());
        assertFalse(tracker.isAckDue(6 * MS - 1));
        assertTrue(tracker.isAckDue(6 * MS));
        assertEquals(new Ack(0, 1_000, List.of("0..0")), writeAck(6 * MS));
    }

    @Test
    void packetsThatAreNotAckElicitingNeverMakeAnAckDue()
    {
        tracker.onPacketReceived(0, false, 0);
        assertFalse(tracker.isAckDue(Long.MAX_VALUE - 1));
        assertEquals(Long.MAX_VALUE, tracker.ackDeadlineNs());
        assertTrue(tracker.hasNewAckInformation(), "still worth piggybacking");

        tracker.onPacketReceived(5, false, 0);
        assertFalse(tracker.isAckDue(0), "out of order, but an ACK-only packet");

        tracker.onPacketReceived(6, true, 0);
        assertFalse(tracker.isAckDue(0), "in order and the first ack-eliciting one");
        assertEquals(MAX_ACK_DELAY_NS, tracker.ackDeadlineNs());
        assertEquals(new Ack(6, 0, List.of("5..6", "0..0")), writeAck(0), "acknowledged along with the others");
    }

    @Test
    void duplicatesAreRejectedAndChangeNothing()
    {
        tracker.onPacketReceived(0, true, 0);
        tracker.onPacketReceived(1, true, 0);
        tracker.onPacketReceived(5, true, 0);
        writeAck(0);

        for (final long duplicate : new long[] {0, 1, 5})
        {
            assertTrue(tracker.isDuplicate(duplicate));
            assertFalse(tracker.onPacketReceived(duplicate, true, 10 * US));
        }
        assertFalse(tracker.hasNewAckInformation());
        assertFalse(tracker.isAckDue(Long.MAX_VALUE - 1));
        assertEquals(0, tracker.ackElicitingSinceLastAck());
        assertFalse(tracker.isDuplicate(3));
        assertFalse(tracker.isDuplicate(6));
        assertTrue(tracker.isDuplicate(-1), "packet numbers start at 0");
    }

    @Test
    void rangeCapKeepsTheNewestRangesAndTreatsOlderPacketsAsDuplicates()
    {
        final ReceivedPacketTracker capped = new ReceivedPacketTracker(3, 2, MAX_ACK_DELAY_NS);
        for (final long packetNumber : new long[] {0, 2, 4, 6})
        {
            assertTrue(capped.onPacketReceived(packetNumber, true, 0));
        }
        assertEquals(3, capped.rangeCount());
        assertEquals(6, capped.rangeLargest(0));
        assertEquals(4, capped.rangeLargest(1));
        assertEquals(2, capped.rangeLargest(2));
        assertEquals(2, capped.lowestAcceptedPacketNumber());

        assertFalse(capped.onPacketReceived(0, true, 0), "replay of a packet whose range was dropped");
        assertFalse(capped.onPacketReceived(1, true, 0), "older than everything still tracked");
        assertTrue(capped.onPacketReceived(3, true, 0), "a gap between tracked ranges is still accepted");
        assertEquals(2, capped.rangeCount());
        assertEquals(2, capped.rangeSmallest(1));
        assertEquals(4, capped.rangeLargest(1));

        writer.wrap(buffer, 0, 1_200).writeHeader(PacketType.ONE_RTT, 1, 1);
        capped.writeAckFrame(writer, 0);
        assertEquals(new Ack(6, 0, List.of("6..6", "2..4")), decodeSingleAck());
    }

    @Test
    void ackFrameCarriesAtMostTheRangeCapNewestFirst()
    {
        final ReceivedPacketTracker many = new ReceivedPacketTracker(100, 2, MAX_ACK_DELAY_NS);
        for (long packetNumber = 0; packetNumber < 200; packetNumber += 2)
        {
            many.onPacketReceived(packetNumber, true, 0);
        }
        assertEquals(100, many.rangeCount());

        writer.wrap(buffer, 0, 2_000).writeHeader(PacketType.ONE_RTT, 1, 1);
        assertEquals(AckFrameFlyweight.frameLength(PacketDecoder.MAX_ACK_RANGES), many.writeAckFrame(writer, 0));
        final List<String> ranges = decodeSingleAck().ranges();
        assertEquals(PacketDecoder.MAX_ACK_RANGES + 1, ranges.size());
        assertEquals("198..198", ranges.get(0));
        assertEquals("70..70", ranges.get(PacketDecoder.MAX_ACK_RANGES), "198 - 2 x 64: the oldest are left out");
    }

    @Test
    void ackFrameShrinksToTheSpaceLeft()
    {
        for (long packetNumber = 0; packetNumber < 20; packetNumber += 2)
        {
            tracker.onPacketReceived(packetNumber, true, 0);
        }
        final int roomForThreeRanges = 20 + AckFrameFlyweight.frameLength(3) + AckFrameFlyweight.BYTES_PER_RANGE - 1;
        writer.wrap(buffer, 0, roomForThreeRanges).writeHeader(PacketType.ONE_RTT, 1, 1);
        assertEquals(AckFrameFlyweight.frameLength(3), tracker.writeAckFrame(writer, 0));
        assertEquals(List.of("18..18", "16..16", "14..14", "12..12"), decodeSingleAck().ranges());
    }

    @Test
    void ackThatDoesNotFitWritesNothingAndStaysDue()
    {
        tracker.onPacketReceived(0, true, 0);
        tracker.onPacketReceived(1, true, 0);
        writer.wrap(buffer, 0, 20 + AckFrameFlyweight.frameLength(0) - 1).writeHeader(PacketType.ONE_RTT, 1, 1);

        assertEquals(0, tracker.writeAckFrame(writer, 0));
        assertEquals(20, writer.length());
        assertTrue(tracker.isAckDue(0));
        assertTrue(tracker.hasNewAckInformation());
    }

    @Test
    void nothingReceivedWritesNothing()
    {
        writer.wrap(buffer, 0, 1_200).writeHeader(PacketType.ONE_RTT, 1, 1);
        assertEquals(0, tracker.writeAckFrame(writer, 0));
        assertEquals(-1, tracker.largestReceived());
    }

    @Test
    void ackDelayIsMicrosecondsSinceTheLargestArrivedRoundedDown()
    {
        tracker.onPacketReceived(0, true, 1 * MS);
        tracker.onPacketReceived(5, true, 2 * MS);
        tracker.onPacketReceived(3, true, 3 * MS);

        assertEquals(new Ack(5, 1_250, List.of("5..5", "3..3", "0..0")), writeAck(3 * MS + 250 * US + 999));
    }

    /**
     * RFC 9000 section 13.2.5: the ACK Delay runs from when the largest acknowledged packet was received. A packet
     * read 4 ms after the kernel received it reports those 4 ms; the ACK's deadline, this side's own bound, still
     * runs from the read, and an arrival stamped after the read counts as the read.
     */
    @Test
    void ackDelayRunsFromTheLargestPacketsArrivalAndTheDeadlineFromTheRead()
    {
        tracker.onPacketReceived(0, true, EcnCodepoint.NOT_ECT, 2 * MS, 6 * MS);
        assertEquals(7 * MS, tracker.ackDeadlineNs());
        assertEquals(new Ack(0, 4_000, List.of("0..0")), writeAck(6 * MS));

        tracker.onPacketReceived(1, true, EcnCodepoint.NOT_ECT, 7 * MS, 6 * MS + 500 * US);
        assertEquals(new Ack(1, 0, List.of("0..1")), writeAck(6 * MS + 500 * US));
    }

    @Test
    void randomArrivalOrderIsAcknowledgedExactly()
    {
        final Random random = new Random(13_2_1);
        for (int trial = 0; trial < 200; trial++)
        {
            final ReceivedPacketTracker fresh = new ReceivedPacketTracker(64, 2, MAX_ACK_DELAY_NS);
            final TreeSet<Long> received = new TreeSet<>();
            final List<Long> arrivals = new ArrayList<>();
            for (long packetNumber = 0; packetNumber < 120; packetNumber++)
            {
                if (random.nextInt(4) != 0)
                {
                    arrivals.add(packetNumber);
                }
            }
            Collections.shuffle(arrivals, random);
            for (final long packetNumber : arrivals)
            {
                assertTrue(fresh.onPacketReceived(packetNumber, true, 0));
                received.add(packetNumber);
                assertFalse(fresh.onPacketReceived(packetNumber, true, 0));
            }

            writer.wrap(buffer, 0, 2_000).writeHeader(PacketType.ONE_RTT, 1, 1);
            fresh.writeAckFrame(writer, 0);
            final TreeSet<Long> acknowledged = new TreeSet<>();
            for (final String range : decodeSingleAck().ranges())
            {
                final String[] bounds = range.split("\\.\\.");
                for (long p = Long.parseLong(bounds[0]); p <= Long.parseLong(bounds[1]); p++)
                {
                    acknowledged.add(p);
                }
            }
            assertEquals(received, acknowledged, "trial " + trial);
        }
    }

    @Test
    void invalidConfigurationIsRejected()
    {
        assertThrows(IllegalArgumentException.class, () -> new ReceivedPacketTracker(0, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> new ReceivedPacketTracker(1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ReceivedPacketTracker(1, 2, -1));
    }

    @Test
    void fastArrivalsAreAcknowledgedInThinnedBatchesAfterTheFirstHundredPackets()
    {
        final ReceivedPacketTracker thinning = new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS);
        final long gapNs = 10 * US; // 100 ack-eliciting packets per max ACK delay: 1.2 Gbit/s of 1500-byte packets
        long pn = 0;
        int acks = 0;
        for (; pn < ReceivedPacketTracker.PACKETS_BEFORE_THINNING; pn++)
        {
            thinning.onPacketReceived(pn, true, pn * gapNs);
            if (thinning.isAckDue(pn * gapNs))
            {
                acks++;
                acknowledge(thinning, pn * gapNs);
            }
        }
        assertEquals(ReceivedPacketTracker.PACKETS_BEFORE_THINNING / 2, acks, "every second packet at first");
        assertEquals(2, thinning.ackElicitingThreshold());

        acks = 0;
        for (final long end = pn + 1_000; pn < end; pn++)
        {
            thinning.onPacketReceived(pn, true, pn * gapNs);
            assertEquals(10, thinning.ackElicitingThreshold(), "a quarter of 100 arrivals per ms, capped at 10");
            assertTrue(thinning.ackDeadlineNs() <= pn * gapNs + 2 * gapNs, "a pause of two gaps ends the wait");
            if (thinning.isAckDue(pn * gapNs))
            {
                acks++;
                acknowledge(thinning, pn * gapNs);
            }
        }
        assertEquals(100, acks, "one ACK per 10 packets");

        // The sender pauses (its window is full): the ACK of the packets so far goes two mean gaps after the last.
        thinning.onPacketReceived(pn, true, pn * gapNs);
        assertFalse(thinning.isAckDue(pn * gapNs));
        assertEquals(pn * gapNs + 2 * gapNs, thinning.ackDeadlineNs());

        // Out of order is still acknowledged at once (RFC 9000 section 13.2.1).
        thinning.onPacketReceived(pn + 2, true, pn * gapNs + gapNs);
        assertTrue(thinning.isAckDue(pn * gapNs + gapNs));
    }

    @Test
    void slowArrivalsAndAnIdleSpellKeepEverySecondPacket()
    {
        final ReceivedPacketTracker thinning = new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS);
        final long gapNs = 100 * US; // 10 per max ACK delay: a quarter is 2
        for (long pn = 0; pn < 300; pn++)
        {
            thinning.onPacketReceived(pn, true, pn * gapNs);
            assertEquals(2, thinning.ackElicitingThreshold());
            assertEquals(pn % 2 == 1, thinning.isAckDue(pn * gapNs), "packet " + pn);
            if (thinning.isAckDue(pn * gapNs))
            {
                acknowledge(thinning, pn * gapNs);
            }
        }

        final ReceivedPacketTracker burst = new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS);
        long nowNs = 0;
        long pn = 0;
        for (; pn < 1_500; pn++, nowNs += US)
        {
            burst.onPacketReceived(pn, true, nowNs);
        }
        assertEquals(10, burst.ackElicitingThreshold());
        nowNs += 5 * MS; // idle: the first packet after it starts again from every second one
        burst.onPacketReceived(pn, true, nowNs);
        assertEquals(2, burst.ackElicitingThreshold());
    }

    @Test
    void anAckFrequencyFrameSetsTheDelayAndTheMostPacketsPerAckWithinWhichThinningStillApplies()
    {
        final ReceivedPacketTracker asked = new ReceivedPacketTracker(32, 2, 32, MAX_ACK_DELAY_NS);
        assertEquals(MAX_ACK_DELAY_NS, asked.maxAckDelayNs());
        assertEquals(MAX_ACK_DELAY_NS, asked.minAckDelayNs(), "the announced delay is the least a peer may ask for");
        // 10 ms and one ACK per 20 packets: within the local cap of 32.
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_APPLIED, asked.applyAckFrequency(0, 19, 10 * MS, 1));
        assertEquals(10 * MS, asked.maxAckDelayNs());
        assertEquals(0, asked.ackFrequencySequence());

        final long gapNs = 100 * US; // 100 arrivals per 10 ms: a quarter is 25, the request caps it at 20
        long pn = 0;
        int acks = 0;
        for (; pn < ReceivedPacketTracker.PACKETS_BEFORE_THINNING; pn++)
        {
            asked.onPacketReceived(pn, true, pn * gapNs);
            if (asked.isAckDue(pn * gapNs))
            {
                acks++;
                acknowledge(asked, pn * gapNs);
            }
        }
        assertEquals(ReceivedPacketTracker.PACKETS_BEFORE_THINNING / 2, acks, "slow start: every second packet");

        acks = 0;
        for (final long end = pn + 2_000; pn < end; pn++)
        {
            asked.onPacketReceived(pn, true, pn * gapNs);
            if (asked.isAckDue(pn * gapNs))
            {
                acks++;
                acknowledge(asked, pn * gapNs);
            }
        }
        assertEquals(20, asked.ackElicitingThreshold());
        assertEquals(100, acks, "one ACK per 20 packets");

        // The sender pauses: the ACK goes 16 mean gaps after the last arrival (a held wake is never a pause), and
        // never later than the delay asked for.
        asked.onPacketReceived(pn, true, pn * gapNs);
        assertEquals(pn * gapNs + ReceivedPacketTracker.PAUSE_IN_MEAN_GAPS_WITH_ACK_FREQUENCY * gapNs,
            asked.ackDeadlineNs());
        // Out of order is still acknowledged at once with a reordering threshold of 1.
        asked.onPacketReceived(pn + 2, true, pn * gapNs + gapNs);
        assertTrue(asked.isAckDue(pn * gapNs + gapNs));
    }

    @Test
    void aRequestForMorePacketsPerAckThanTheLocalCapGetsTheCap()
    {
        final long gapNs = 100 * US; // 100 arrivals per 10 ms: thinning alone would allow 25
        // The local cap at its default of 10, asked for 20: 10; asked for 8 (threshold 7): 8.
        assertEquals(10, packetsPerAckInSteadyState(new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS), 19, gapNs));
        assertEquals(8, packetsPerAckInSteadyState(new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS), 7, gapNs));
        // The cap at its edges: exactly the request (10 of 10), and 2, every second packet whatever is asked.
        assertEquals(10, packetsPerAckInSteadyState(new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS), 9, gapNs));
        assertEquals(2, packetsPerAckInSteadyState(new ReceivedPacketTracker(32, 2, 2, MAX_ACK_DELAY_NS), 9, gapNs));
        assertEquals(2, packetsPerAckInSteadyState(
            new ReceivedPacketTracker(32, 2, 2, MAX_ACK_DELAY_NS), Integer.MAX_VALUE, gapNs));
        // Fewer than the cap is always honoured, down to every packet.
        assertEquals(1, packetsPerAckInSteadyState(new ReceivedPacketTracker(32, 2, 2, MAX_ACK_DELAY_NS), 0, gapNs));
    }

    /**
     * @return ack-eliciting packets per ACK over 2,000 in-order packets after the first 100, with the frame applied.
     */
    private int packetsPerAckInSteadyState(
        final ReceivedPacketTracker tracker, final int askedThreshold, final long gapNs)
    {
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_APPLIED,
            tracker.applyAckFrequency(0, askedThreshold, 10 * MS, 1));
        long pn = 0;
        for (; pn < ReceivedPacketTracker.PACKETS_BEFORE_THINNING; pn++)
        {
            tracker.onPacketReceived(pn, true, pn * gapNs);
            if (tracker.isAckDue(pn * gapNs))
            {
                acknowledge(tracker, pn * gapNs);
            }
        }
        int acks = 0;
        final long packets = 2_000;
        for (final long end = pn + packets; pn < end; pn++)
        {
            tracker.onPacketReceived(pn, true, pn * gapNs);
            if (tracker.isAckDue(pn * gapNs))
            {
                acks++;
                acknowledge(tracker, pn * gapNs);
            }
        }
        return (int)(packets / acks);
    }

    @Test
    void aThresholdOfZeroAcknowledgesEveryPacketAndOfOneEverySecondOne()
    {
        final ReceivedPacketTracker everyPacket = new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS);
        everyPacket.applyAckFrequency(0, 0, 5 * MS, 1);
        for (long pn = 0; pn < 300; pn++)
        {
            everyPacket.onPacketReceived(pn, true, pn * US);
            assertTrue(everyPacket.isAckDue(pn * US), "packet " + pn);
            acknowledge(everyPacket, pn * US);
        }

        final ReceivedPacketTracker everySecond = new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS);
        everySecond.applyAckFrequency(0, 1, 5 * MS, 1);
        for (long pn = 0; pn < 300; pn++)
        {
            everySecond.onPacketReceived(pn, true, pn * US);
            assertEquals(pn % 2 == 1, everySecond.isAckDue(pn * US), "packet " + pn);
            if (everySecond.isAckDue(pn * US))
            {
                acknowledge(everySecond, pn * US);
            }
        }
    }

    @Test
    void aHugeThresholdStillAcknowledgesWithinTheDelayAskedFor()
    {
        final ReceivedPacketTracker huge = new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS);
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_APPLIED,
            huge.applyAckFrequency(0, Integer.MAX_VALUE, 20 * MS, 1));
        huge.onPacketReceived(0, true, 0);
        assertEquals(20 * MS, huge.ackDeadlineNs(), "the first unacknowledged packet arms the delay asked for");
        for (long pn = 1; pn < 10_000; pn++)
        {
            huge.onPacketReceived(pn, true, pn * US);
            assertTrue(huge.ackDeadlineNs() <= 20 * MS);
        }
        assertTrue(huge.isAckDue(20 * MS));
    }

    @Test
    void anOlderOrRepeatedFrameIsIgnoredAndADelayOutsideTheLimitsIsRefused()
    {
        final ReceivedPacketTracker asked = new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS);
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_APPLIED, asked.applyAckFrequency(5, 9, 8 * MS, 1));
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_STALE, asked.applyAckFrequency(5, 0, 2 * MS, 1));
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_STALE, asked.applyAckFrequency(4, 0, 2 * MS, 1));
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_STALE, asked.applyAckFrequency(3, 0, 1, 1),
            "a stale frame is ignored whatever it asks");
        assertEquals(8 * MS, asked.maxAckDelayNs(), "a stale frame changes nothing");
        assertEquals(5, asked.ackFrequencySequence());

        // Both sides of the min ACK delay (1 ms, the announced one) and of 2^14 ms.
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_INVALID_DELAY,
            asked.applyAckFrequency(6, 9, MAX_ACK_DELAY_NS - 1, 1));
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_APPLIED, asked.applyAckFrequency(7, 9, MAX_ACK_DELAY_NS, 1));
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_INVALID_DELAY,
            asked.applyAckFrequency(8, 9, ReceivedPacketTracker.MAX_REQUESTED_ACK_DELAY_NS, 1));
        assertEquals(ReceivedPacketTracker.ACK_FREQUENCY_APPLIED,
            asked.applyAckFrequency(9, 9, ReceivedPacketTracker.MAX_REQUESTED_ACK_DELAY_NS - 1, 1));
        assertEquals(9, asked.ackFrequencySequence());
    }

    @Test
    void aReorderingThresholdOfZeroLetsOutOfOrderPacketsWaitAndAnImmediateAckDoesNot()
    {
        final ReceivedPacketTracker ignoring = new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS);
        ignoring.applyAckFrequency(0, 9, 10 * MS, 0);
        long pn = warmUp(ignoring, 300, 100 * US);
        long nowNs = pn * 100 * US;
        assertEquals(10, ignoring.ackElicitingThreshold());
        ignoring.onPacketReceived(pn + 1, true, nowNs);
        assertFalse(ignoring.isAckDue(nowNs), "a gap waits with a reordering threshold of 0");
        ignoring.onPacketReceived(pn, true, nowNs + US);
        assertFalse(ignoring.isAckDue(nowNs + US), "so does the packet that fills it");

        ignoring.onPacketReceived(pn + 2, true, nowNs + 2 * US);
        ignoring.ackNow(nowNs + 2 * US);
        assertTrue(ignoring.isAckDue(nowNs + 2 * US), "IMMEDIATE_ACK");
        acknowledge(ignoring, nowNs + 2 * US);
        assertFalse(ignoring.isAckDue(nowNs + 3 * US));

        final ReceivedPacketTracker ordered = new ReceivedPacketTracker(32, 2, 10, MAX_ACK_DELAY_NS);
        ordered.applyAckFrequency(0, 9, 10 * MS, 1);
        pn = warmUp(ordered, 300, 100 * US);
        nowNs = pn * 100 * US;
        ordered.onPacketReceived(pn + 1, true, nowNs);
        assertTrue(ordered.isAckDue(nowNs), "a gap is acknowledged at once with a reordering threshold of 1");
    }

    /**
     * @return the next packet number after {@code packets} in-order packets {@code gapNs} apart, each ACK written
     * when due, the last one included.
     */
    private long warmUp(final ReceivedPacketTracker receiver, final int packets, final long gapNs)
    {
        for (long pn = 0; pn < packets; pn++)
        {
            receiver.onPacketReceived(pn, true, pn * gapNs);
            if (receiver.isAckDue(pn * gapNs) || pn == packets - 1)
            {
                acknowledge(receiver, pn * gapNs);
            }
        }
        return packets;
    }

    @Test
    void ecnCountsAppearOnceAnEcnCapablePacketArrivedAndCountEachNewPacketOnce()
    {
        tracker.onPacketReceived(0, true, EcnCodepoint.NOT_ECT, 0);
        tracker.onPacketReceived(1, true, EcnCodepoint.NOT_ECT, 0);
        assertFalse(tracker.hasEcnCounts());
        assertEquals(new Ack(1, 0, List.of("0..1")), writeAck(0), "no counts while nothing arrived ECN-capable");

        tracker.onPacketReceived(2, true, EcnCodepoint.ECT_0, US);
        tracker.onPacketReceived(3, true, EcnCodepoint.ECT_1, US);
        tracker.onPacketReceived(4, false, EcnCodepoint.ECT_0, US);
        assertFalse(tracker.onPacketReceived(2, true, EcnCodepoint.CE, US), "a duplicate");
        assertTrue(tracker.hasEcnCounts());
        assertEquals(new Ack(4, 0, List.of("0..4"), "ect0=2 ect1=1 ce=0"), writeAck(US),
            "RFC 9000 section 13.4.1: non-ack-eliciting packets count, a duplicate changes nothing (section 21.10)");
        assertEquals(2, tracker.ect0Received());
        assertEquals(1, tracker.ect1Received());
        assertEquals(0, tracker.ceReceived());

        tracker.onPacketReceived(5, true, EcnCodepoint.NOT_ECT, 2 * US);
        assertEquals(new Ack(5, 0, List.of("0..5"), "ect0=2 ect1=1 ce=0"), writeAck(2 * US),
            "once counting, every ACK frame carries the counts");
    }

    @Test
    void anAckElicitingPacketMarkedCeIsAcknowledgedAtOnce()
    {
        tracker.onPacketReceived(0, true, EcnCodepoint.ECT_0, 0);
        writeAck(0);
        tracker.onPacketReceived(1, true, EcnCodepoint.ECT_0, 10 * US);
        assertFalse(tracker.isAckDue(10 * US), "an in-order ECT(0) packet waits for the next one or the delay");
        tracker.onPacketReceived(2, true, EcnCodepoint.CE, 20 * US);
        assertTrue(tracker.isAckDue(20 * US), "RFC 9000 section 13.2.1: CE is acknowledged immediately");
        assertEquals(new Ack(2, 0, List.of("0..2"), "ect0=2 ect1=0 ce=1"), writeAck(20 * US));

        tracker.onPacketReceived(3, false, EcnCodepoint.CE, 30 * US);
        assertFalse(tracker.isAckDue(30 * US), "never an ACK only for packets that do not elicit one");
        assertEquals(2, tracker.ceReceived());
    }

    @Test
    void anAckWithCountsNeedsItsRoomOrIsNotWritten()
    {
        tracker.onPacketReceived(0, true, EcnCodepoint.CE, 0);
        writer.wrap(buffer, 0, 20 + AckFrameFlyweight.frameLength(0, true) - 1).writeHeader(PacketType.ONE_RTT, 1, 1);
        assertEquals(0, tracker.writeAckFrame(writer, 0), "one byte short of an ACK with counts");
        writer.wrap(buffer, 0, 20 + AckFrameFlyweight.frameLength(0, true)).writeHeader(PacketType.ONE_RTT, 1, 1);
        assertEquals(AckFrameFlyweight.frameLength(0, true), tracker.writeAckFrame(writer, 0));
        assertEquals(new Ack(0, 0, List.of("0..0"), "ect0=0 ect1=0 ce=1"), decodeSingleAck());
    }

    private void acknowledge(final ReceivedPacketTracker receiver, final long nowNs)
    {
        writer.wrap(buffer, 0, 1_200).writeHeader(PacketType.ONE_RTT, 1, 1);
        assertTrue(receiver.writeAckFrame(writer, nowNs) > 0);
    }

    private Ack writeAck(final long nowNs)
    {
        writer.wrap(buffer, 0, 1_200).writeHeader(PacketType.ONE_RTT, 1, 1);
        assertTrue(tracker.writeAckFrame(writer, nowNs) > 0);
        return decodeSingleAck();
    }

    private Ack decodeSingleAck()
    {
        assertEquals(PacketDecoder.OK, decoder.validate(buffer, 0, writer.length()));
        visitor.clear();
        decoder.visitFrames(buffer, 0, writer.length(), visitor);
        assertEquals(1, visitor.frames().size());
        return (Ack)visitor.frames().get(0);
    }
}
