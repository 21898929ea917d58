package io.pacelink.transport.recovery;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SentPacketRingTest
{
    private final SentPacketRing ring = new SentPacketRing(8);

    @Test
    void rejectsCapacityThatIsNotAPowerOfTwo()
    {
        assertThrows(IllegalArgumentException.class, () -> new SentPacketRing(6));
        assertThrows(IllegalArgumentException.class, () -> new SentPacketRing(1));
    }

    @Test
    void storesAndReturnsWhatThePacketCarried()
    {
        final int slot = ring.add(3, 42, 1200, true, true, 9000, 1100, true, 0b101);
        ring.stamp(slot, 5000, 40, 30, true, 3600, 1200, 700);

        assertEquals(3, ring.slot(3));
        assertEquals(3, ring.packetNumber(slot));
        assertEquals(SentPacketRing.IN_FLIGHT, ring.state(slot));
        assertEquals(42, ring.sentTimeNs(slot));
        assertEquals(1200, ring.sizeBytes(slot));
        assertTrue(ring.isAckEliciting(slot));
        assertTrue(ring.countsInFlight(slot));
        assertEquals(9000, ring.streamOffset(slot));
        assertEquals(1100, ring.streamLength(slot));
        assertTrue(ring.fin(slot));
        assertEquals(0b101, ring.frameFlags(slot));
        assertEquals(5000, ring.deliveredAtSendBytes(slot));
        assertEquals(40, ring.deliveredTimeAtSendNs(slot));
        assertEquals(30, ring.firstSentTimeAtSendNs(slot));
        assertTrue(ring.isAppLimitedAtSend(slot));
        assertEquals(3600, ring.txInFlightBytes(slot));
        assertEquals(1200, ring.lostAtSendBytes(slot));
        assertEquals(700, ring.deliveredCeAtSendBytes(slot));
    }

    @Test
    void growingKeepsEveryPacketAndItsRecord()
    {
        final SentPacketRing growing = new SentPacketRing(4, 16);
        for (int pn = 0; pn < 5; pn++)
        {
            if (pn == 4)
            {
                growing.state(growing.slot(0), SentPacketRing.ACKED);
            }
            final int slot = growing.add(pn, pn * 10L, 1000 + pn, true, true, pn * 100L, pn, false, pn);
            growing.stamp(slot, pn, pn, pn, false, pn, pn, pn);
        }
        growing.state(growing.slot(1), SentPacketRing.ACKED);
        assertTrue(growing.grow());
        assertEquals(8, growing.capacity());
        for (int pn = 1; pn < 5; pn++)
        {
            final int slot = growing.slot(pn);
            assertEquals(pn, growing.packetNumber(slot));
            assertEquals(pn * 10L, growing.sentTimeNs(slot));
            assertEquals(1000 + pn, growing.sizeBytes(slot));
            assertEquals(pn * 100L, growing.streamOffset(slot));
            assertEquals(pn, growing.frameFlags(slot));
            assertEquals(pn, growing.deliveredAtSendBytes(slot));
            assertEquals(pn, growing.deliveredCeAtSendBytes(slot));
        }
        assertEquals(SentPacketRing.ACKED, growing.state(growing.slot(1)));
        assertFalse(growing.contains(0), "pushed out before the growth");
        assertTrue(growing.grow());
        assertFalse(growing.grow(), "at its maximum");
        assertEquals(16, growing.capacity());
    }

    @Test
    void numbersJumpedOverAreSkipped()
    {
        ring.add(0, 0, 1200, true, true, 0, 0, false, 0);
        ring.add(3, 1, 1200, true, true, 0, 0, false, 0);

        assertEquals(SentPacketRing.SKIPPED, ring.state(ring.slot(1)));
        assertEquals(SentPacketRing.SKIPPED, ring.state(ring.slot(2)));
        assertTrue(ring.contains(2));
        assertTrue(ring.containsSkipped(2, 2));
        assertTrue(ring.containsSkipped(0, 3));
        assertFalse(ring.containsSkipped(3, 3));
        assertEquals(3, ring.largestSentPacketNumber());
    }

    @Test
    void stopsBeforeOverwritingAnUnresolvedPacket()
    {
        for (int pn = 0; pn < 8; pn++)
        {
            ring.add(pn, pn, 1200, true, true, 0, 0, false, 0);
        }
        assertFalse(ring.hasCapacity());
        assertThrows(IllegalStateException.class, () -> ring.add(8, 8, 1200, true, true, 0, 0, false, 0));

        ring.state(ring.slot(0), SentPacketRing.ACKED);
        assertTrue(ring.hasCapacity());
        assertFalse(ring.hasCapacityFor(9), "skipping 8 would overwrite packet 1, still in flight");

        ring.state(ring.slot(1), SentPacketRing.LOST);
        assertTrue(ring.hasCapacityFor(9));
        ring.add(9, 9, 1200, true, true, 0, 0, false, 0);
        assertFalse(ring.contains(0));
        assertFalse(ring.contains(1));
        assertEquals(SentPacketRing.SKIPPED, ring.state(ring.slot(8)));
    }

    @Test
    void packetsThatNeitherElicitAcksNorCountInFlightNeverBlockTheSender()
    {
        for (int pn = 0; pn < 8; pn++)
        {
            ring.add(pn, pn, 50, false, false, 0, 0, false, 0);
        }
        assertTrue(ring.hasCapacity());
    }

    @Test
    void rejectsNumbersThatDoNotGrow()
    {
        ring.add(5, 0, 1200, true, true, 0, 0, false, 0);
        assertFalse(ring.hasCapacityFor(5));
        assertFalse(ring.hasCapacityFor(4));
        assertFalse(ring.hasCapacityFor(5 + 8 + 1), "a jump beyond the capacity cannot be tracked");
    }

    @Test
    void oldestInFlightAdvancesPastResolvedAndSkippedPackets()
    {
        assertEquals(0, ring.oldestInFlightPacketNumber());
        ring.add(0, 0, 1200, true, true, 0, 0, false, 0);
        ring.add(2, 0, 1200, true, true, 0, 0, false, 0);
        ring.add(3, 0, 1200, true, true, 0, 0, false, 0);
        assertEquals(0, ring.oldestInFlightPacketNumber());

        ring.state(ring.slot(0), SentPacketRing.ACKED);
        assertEquals(2, ring.oldestInFlightPacketNumber());

        ring.state(ring.slot(2), SentPacketRing.LOST);
        ring.state(ring.slot(3), SentPacketRing.ACKED);
        assertEquals(4, ring.oldestInFlightPacketNumber());
    }

    @Test
    void aWalkCountsTheNumbersFromOneToTheOtherUpToTheRingsCapacity()
    {
        assertEquals(0, ring.countedSpan(5, 4));
        assertEquals(0, ring.countedSpan(Long.MAX_VALUE, Long.MIN_VALUE));
        assertEquals(1, ring.countedSpan(5, 5));
        assertEquals(1, ring.countedSpan(-1, -1));
        assertEquals(7, ring.countedSpan(0, 6));
        assertEquals(8, ring.countedSpan(0, 7));
        assertEquals(8, ring.countedSpan(0, 8));
        assertEquals(8, ring.countedSpan(-1, Long.MAX_VALUE));
        assertEquals(8, ring.countedSpan(Long.MIN_VALUE, Long.MAX_VALUE));
    }

    @Test
    void theWalksReachBothEndsOfAFullRing()
    {
        for (int pn = 0; pn < 8; pn++)
        {
            ring.add(pn, pn, 1200, true, true, 0, 0, false, 0);
        }
        assertEquals(0, ring.oldestInFlightPacketNumber());
        assertFalse(ring.hasCapacityFor(8));

        for (int pn = 0; pn < 7; pn++)
        {
            ring.state(ring.slot(pn), SentPacketRing.ACKED);
        }
        assertEquals(7, ring.oldestInFlightPacketNumber());
        assertTrue(ring.hasCapacityFor(14));
        assertFalse(ring.hasCapacityFor(15), "the eighth number's slot still holds packet 7, in flight");

        ring.state(ring.slot(7), SentPacketRing.ACKED);
        assertEquals(8, ring.oldestInFlightPacketNumber(), "a whole ring resolved: the next number");
        assertTrue(ring.hasCapacityFor(15));
        assertFalse(ring.hasCapacityFor(16), "nine numbers ahead: more than the ring holds");

        ring.add(15, 15, 1200, true, true, 0, 0, false, 0);
        for (long pn = 8; pn < 15; pn++)
        {
            assertEquals(SentPacketRing.SKIPPED, ring.state(ring.slot(pn)));
            assertEquals(pn, ring.packetNumber(ring.slot(pn)));
        }
        assertEquals(7, ring.countSkipped(8, 15));
        assertEquals(15, ring.oldestInFlightPacketNumber());
    }

    @Test
    void skippedNumbersInARangeAreCountedAsAWalkOfTheRememberedOnesCountsThem()
    {
        final SentPacketRing big = new SentPacketRing(1024);
        final SplittableRandom random = new SplittableRandom(11);
        final ArrayDeque<Long> remembered = new ArrayDeque<>();
        long next = 0;
        for (int sent = 0; sent < 2_000; sent++)
        {
            if (random.nextInt(8) == 0)
            {
                final int skips = 1 + random.nextInt(3);
                for (int k = 0; k < skips; k++)
                {
                    remembered.addLast(next + k);
                    if (remembered.size() > SentPacketRing.SKIPPED_HISTORY)
                    {
                        remembered.removeFirst();
                    }
                }
                next += skips;
            }
            big.state(big.add(next, sent, 1200, true, true, 0, 0, false, 0), SentPacketRing.ACKED);
            next++;
            for (int r = 0; r < 4; r++)
            {
                final long largest = random.nextLong(next);
                final long smallest = Math.max(0, largest - random.nextInt(r < 2 ? 4 : 200));
                long expected = 0;
                for (final long skipped : remembered)
                {
                    expected += skipped >= smallest && skipped <= largest ? 1 : 0;
                }
                assertEquals(expected, big.countSkipped(smallest, largest), smallest + ".." + largest);
                assertEquals(expected > 0, big.containsSkipped(smallest, largest));
            }
        }
    }
}
