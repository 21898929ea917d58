package io.pacelink.transport.port;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A datagram's arrival time from the age its port gave: believed from 1 ns to {@link ReceiveBatch#MAX_ARRIVAL_AGE_NS}
 * before the batch's time, the batch's time otherwise (unknown, zero, negative after a wall-clock step back, or
 * older than any duty cycle).
 */
class ReceiveBatchTest
{
    private static final InetSocketAddress SOURCE = new InetSocketAddress("127.0.0.1", 9);
    private static final long BATCH_NS = 5_000_000_000L;

    private static long arrivalOf(final long ageNs)
    {
        final ReceiveBatch batch = new ReceiveBatch(2, 64);
        batch.add(0, 10, SOURCE, ReceiveBatch.NOT_ECT, ageNs);
        assertEquals(ageNs, batch.arrivalAgeNs(0));
        return batch.arrivalTimeNs(0, BATCH_NS);
    }

    @Test
    void anAgeWithinTheLimitPlacesTheArrivalThatLongBeforeTheBatch()
    {
        assertEquals(BATCH_NS - 1, arrivalOf(1));
        assertEquals(BATCH_NS - 750_000, arrivalOf(750_000));
        assertEquals(BATCH_NS - ReceiveBatch.MAX_ARRIVAL_AGE_NS, arrivalOf(ReceiveBatch.MAX_ARRIVAL_AGE_NS));
    }

    @Test
    void anUnknownZeroNegativeOrTooOldAgeIsTheBatchsTime()
    {
        assertEquals(BATCH_NS, arrivalOf(ReceiveBatch.AGE_UNKNOWN));
        assertEquals(BATCH_NS, arrivalOf(0));
        assertEquals(BATCH_NS, arrivalOf(-5_000_000));
        assertEquals(BATCH_NS, arrivalOf(Long.MIN_VALUE));
        assertEquals(BATCH_NS, arrivalOf(ReceiveBatch.MAX_ARRIVAL_AGE_NS + 1));
        assertEquals(BATCH_NS, arrivalOf(Long.MAX_VALUE));
    }

    @Test
    void aDatagramAddedWithoutAnAgeHasNone()
    {
        final ReceiveBatch batch = new ReceiveBatch(2, 64);
        batch.add(0, 10, SOURCE, ReceiveBatch.NOT_ECT);
        batch.add(10, 10, SOURCE, ReceiveBatch.NOT_ECT, 3_000);
        assertEquals(ReceiveBatch.AGE_UNKNOWN, batch.arrivalAgeNs(0));
        assertEquals(BATCH_NS, batch.arrivalTimeNs(0, BATCH_NS));
        assertEquals(BATCH_NS - 3_000, batch.arrivalTimeNs(1, BATCH_NS));
        batch.clear();
        batch.add(0, 10, SOURCE, ReceiveBatch.NOT_ECT);
        assertEquals(ReceiveBatch.AGE_UNKNOWN, batch.arrivalAgeNs(0), "a cleared slot keeps no age");
    }

    @Test
    void anEntryAddedInPlaceIsReadWhereItLiesBesideEntriesInTheBuffer()
    {
        final ReceiveBatch batch = new ReceiveBatch(3, 64);
        final byte[] lent = new byte[32];
        lent[0] = 42;
        batch.buffer().putByte(5, (byte)7);
        batch.add(5, 10, SOURCE, ReceiveBatch.NOT_ECT);
        batch.addInPlace(lent, 20, SOURCE, 3, 1_000);
        assertSame(batch.buffer(), batch.buffer(0));
        assertEquals(7, batch.buffer(0).getByte(batch.offset(0)));
        assertEquals(42, batch.buffer(1).getByte(batch.offset(1)));
        assertEquals(0, batch.offset(1));
        assertEquals(20, batch.length(1));
        assertEquals(20, batch.buffer(1).capacity(), "the view ends with the datagram");
        assertEquals(3, batch.ecnCodepoint(1));
        assertEquals(BATCH_NS - 1_000, batch.arrivalTimeNs(1, BATCH_NS));
        assertThrows(IllegalStateException.class, () -> batch.addInPlace(lent, 33, SOURCE, 0, 0), "longer than lent");
        batch.addInPlace(lent, 32, SOURCE, 0, 0);
        assertThrows(IllegalStateException.class, () -> batch.addInPlace(lent, 1, SOURCE, 0, 0), "full");
    }

    @Test
    void aBatchLentInPlaceHasNoMemoryOfItsOwnYetCountsItsRoom()
    {
        final int[] clears = new int[1];
        final ReceiveBatch batch = ReceiveBatch.lentInPlace(2, 100, () -> clears[0]++);
        assertEquals(0, batch.buffer().capacity(), "no memory of its own");
        assertEquals(128, batch.capacityBytes(), "the room a buffer would have had, a cache line's multiple");
        assertEquals(128, new ReceiveBatch(2, 100).capacityBytes());
        assertThrows(IllegalStateException.class, () -> batch.add(0, 10, SOURCE, ReceiveBatch.NOT_ECT),
            "nothing can be placed in its buffer");
        final byte[] lent = new byte[16];
        lent[3] = 9;
        batch.addInPlace(lent, 16, SOURCE, ReceiveBatch.NOT_ECT, ReceiveBatch.AGE_UNKNOWN);
        assertEquals(9, batch.buffer(0).getByte(batch.offset(0) + 3));
        batch.clear();
        assertEquals(1, clears[0], "the port takes its memory back at the clear");
        assertEquals(0, batch.size());
    }
}
