package io.pacelink.transport.recovery;

import org.junit.jupiter.api.Test;

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
    void theCapacityCheckAnsweredFromTheOldestInFlightAgreesWithAWalkOfTheSlots()
    {
        // A seeded mix of sends (some skipping a number, some ACK-only), acknowledgements, losses and growth: at every
        // step the ring's answer for the next few numbers equals a walk of the slots those numbers would take.
        final SplittableRandom random = new SplittableRandom(18);
        final SentPacketRing growing = new SentPacketRing(16, 64);
        int fastAnswers = 0;
        for (int step = 0; step < 20_000; step++)
        {
            final long largest = growing.largestSentPacketNumber();
            for (long next = largest + 1; next <= largest + 3; next++)
            {
                final boolean expected = walkSaysFree(growing, next);
                assertEquals(expected, growing.hasCapacityFor(next), "step " + step + ", number " + next);
                fastAnswers += expected ? 1 : 0;
            }
            final int action = random.nextInt(10);
            if (action < 5)
            {
                final long number = largest + (random.nextInt(8) == 0 ? 2 : 1);
                if (growing.hasCapacityFor(number))
                {
                    final boolean isAckOnly = random.nextInt(6) == 0;
                    growing.add(number, step, 1200, !isAckOnly, !isAckOnly, 0, 0, false, 0);
                }
                else if (!growing.grow())
                {
                    resolveOldest(growing, SentPacketRing.ACKED);
                }
            }
            else if (action < 8)
            {
                resolveOldest(growing, random.nextInt(4) == 0 ? SentPacketRing.LOST : SentPacketRing.ACKED);
            }
            else if (largest >= 0)
            {
                // Out of order: a random packet still in the ring.
                final long number = Math.max(0, largest - random.nextInt(growing.capacity()));
                if (growing.isInFlight(number))
                {
                    growing.state(growing.slot(number), SentPacketRing.ACKED);
                }
            }
        }
        assertTrue(fastAnswers > 1000, "the check said there was room often: " + fastAnswers);
    }

    private static void resolveOldest(final SentPacketRing ring, final byte state)
    {
        final long oldest = ring.oldestInFlightPacketNumber();
        if (oldest <= ring.largestSentPacketNumber())
        {
            ring.state(ring.slot(oldest), state);
        }
    }

    private static boolean walkSaysFree(final SentPacketRing ring, final long number)
    {
        final long largest = ring.largestSentPacketNumber();
        if (number <= largest || number - largest > ring.capacity())
        {
            return false;
        }
        for (long n = largest + 1; n <= number; n++)
        {
            final int slot = ring.slot(n);
            final boolean matters = ring.isAckEliciting(slot) || ring.countsInFlight(slot);
            if (SentPacketRing.IN_FLIGHT == ring.state(slot) && matters)
            {
                return false;
            }
        }
        return true;
    }
}
