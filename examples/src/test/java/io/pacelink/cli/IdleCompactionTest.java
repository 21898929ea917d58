package io.pacelink.cli;

import org.junit.jupiter.api.Test;

import static io.pacelink.cli.IdleCompaction.Kind.EXPLICIT;
import static io.pacelink.cli.IdleCompaction.Kind.PERIODIC;
import static io.pacelink.cli.IdleCompaction.Kind.WORK;
import static io.pacelink.cli.IdleCompaction.MAX_COMPACTED_USED_BYTES;
import static io.pacelink.cli.IdleCompaction.MIN_RETURNED_BYTES;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When a server's heap is compacted after a burst ({@link IdleCompaction}): both sides of each condition.
 */
class IdleCompactionTest
{
    private static final long MIB = 1024L * 1024;
    private static final long USED_BYTES = 12 * MIB;
    private static final long COMMITTED_BYTES = 48 * MIB;
    /**
     * 15 s between collections, as the servers' periodic interval.
     */
    private static final long INTERVAL_MS = 15_000;
    /**
     * The most datagrams a quiet endpoint may receive over {@link #INTERVAL_MS}: 20 a second.
     */
    private static final long QUIET_DATAGRAMS = INTERVAL_MS * IdleCompaction.QUIET_DATAGRAMS_PER_SECOND / 1000;

    /**
     * The servers' {@code MaxHeapFreeRatio}: a full collection sizes the heap to what is used / 0.7.
     */
    private static final int MAX_FREE_PERCENT = ServerHeap.MAX_FREE_PERCENT;

    private final IdleCompaction compaction = new IdleCompaction(MAX_FREE_PERCENT);
    private long nowMs = 1_000;
    private long datagramsReceived = 5_000_000L;

    private boolean collect(final IdleCompaction.Kind kind, final long datagrams, final long committed, final long used)
    {
        nowMs += INTERVAL_MS;
        datagramsReceived += datagrams;
        return compaction.onCollection(kind, nowMs, datagramsReceived, committed, used);
    }

    private boolean collect(final IdleCompaction.Kind kind, final long datagrams)
    {
        return collect(kind, datagrams, COMMITTED_BYTES, USED_BYTES);
    }

    @Test
    void theFirstQuietPeriodicCollectionAfterWorkCompactsOnceAndTheIdleOnesAfterItDoNot()
    {
        assertFalse(collect(WORK, 4 * QUIET_DATAGRAMS));
        assertTrue(collect(PERIODIC, 0));
        assertFalse(collect(PERIODIC, 0));
        assertFalse(collect(PERIODIC, 0));
        assertFalse(collect(WORK, 4 * QUIET_DATAGRAMS), "work is never paused");
        assertTrue(collect(PERIODIC, QUIET_DATAGRAMS), "work again: the next burst's compaction");
    }

    @Test
    void aServerStillServingIsNotPausedTillAPeriodicCollectionFindsItQuiet()
    {
        collect(WORK, 0);
        assertFalse(collect(PERIODIC, QUIET_DATAGRAMS + 1),
            "just over 20 datagrams a second since the last collection");
        assertFalse(collect(PERIODIC, 10 * QUIET_DATAGRAMS));
        assertTrue(collect(PERIODIC, QUIET_DATAGRAMS), "20 a second is quiet");
    }

    /**
     * The JVM's notification thread, late, delivers two collections' notifications back to back: the counter's two
     * reads are a moment apart however long the collections were apart, and show no datagrams though the server is
     * busy. Too short to tell: passed over, and the next periodic collection decides.
     */
    @Test
    void notificationsDeliveredTogetherDoNotMakeABusyServerLookQuiet()
    {
        collect(WORK, 10 * QUIET_DATAGRAMS);
        nowMs += 1;
        assertFalse(compaction.onCollection(PERIODIC, nowMs, datagramsReceived, COMMITTED_BYTES, USED_BYTES),
            "read 1 ms after the last: no datagrams in it says nothing");
        assertFalse(collect(PERIODIC, 10 * QUIET_DATAGRAMS), "busy");
        assertTrue(collect(PERIODIC, QUIET_DATAGRAMS), "quiet over a whole interval");
    }

    @Test
    void readsTheLeastJudgedIntervalApartCanShowTheEndpointQuiet()
    {
        collect(WORK, 0);
        nowMs += IdleCompaction.MIN_JUDGED_INTERVAL_MS - 1;
        assertFalse(compaction.onCollection(PERIODIC, nowMs, datagramsReceived, COMMITTED_BYTES, USED_BYTES),
            "a millisecond too close");
        nowMs += IdleCompaction.MIN_JUDGED_INTERVAL_MS;
        assertTrue(compaction.onCollection(PERIODIC, nowMs, datagramsReceived, COMMITTED_BYTES, USED_BYTES));
    }

    @Test
    void aHeapWithLessThanTheMinimumToReturnIsNotCompacted()
    {
        collect(WORK, 0);
        // 21 MiB used: a full collection leaves 30 MiB (30 % free), so 37.x MiB committed would return under 8 MiB.
        assertFalse(collect(PERIODIC, 0, 38 * MIB - 1, 21 * MIB), "free, but a compaction would return too little");
        assertTrue(collect(PERIODIC, 0, 38 * MIB, 21 * MIB), "still due, and now worth it");
        collect(WORK, 0);
        final long compacted = USED_BYTES * 100 / (100 - MAX_FREE_PERCENT);
        assertFalse(collect(PERIODIC, 0, compacted + MIN_RETURNED_BYTES - 1, USED_BYTES));
        assertTrue(collect(PERIODIC, 0, compacted + MIN_RETURNED_BYTES, USED_BYTES));
    }

    @Test
    void aHeapJustCompactedIsNotCompactedAgainAfterMoreWork()
    {
        // 24 MiB used: right after a compaction the heap is 24 / 0.7 = 34.3 MiB, 10 MiB of it free — not returnable.
        collect(WORK, 0);
        assertTrue(collect(PERIODIC, 0, 96 * MIB, 24 * MIB));
        collect(EXPLICIT, 0, 24 * MIB * 10 / 7, 24 * MIB);
        collect(WORK, 0, 24 * MIB * 10 / 7, 24 * MIB);
        assertFalse(collect(PERIODIC, 0, 24 * MIB * 10 / 7, 24 * MIB));
    }

    @Test
    void aMaximumFreeShareOutsideTheJvmsRangeIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new IdleCompaction(100));
        assertThrows(IllegalArgumentException.class, () -> new IdleCompaction(-1));
        new IdleCompaction(0);
        new IdleCompaction(99);
    }

    @Test
    void aHeapUsingMoreThanTheMaximumIsNotCompacted()
    {
        collect(WORK, 0);
        assertFalse(collect(PERIODIC, 0, 2 * MAX_COMPACTED_USED_BYTES, MAX_COMPACTED_USED_BYTES + 1));
        assertTrue(collect(PERIODIC, 0, 2 * MAX_COMPACTED_USED_BYTES, MAX_COMPACTED_USED_BYTES));
    }

    @Test
    void aFullCollectionAskedForAfterTheWorkCountsAsTheCompaction()
    {
        collect(WORK, 0);
        assertFalse(collect(EXPLICIT, 0));
        assertFalse(collect(PERIODIC, 0));
        collect(WORK, 0);
        assertTrue(collect(PERIODIC, 0));
    }

    @Test
    void withoutWorkOrWithoutAnEarlierCollectionNothingIsCompacted()
    {
        assertFalse(compaction.onCollection(PERIODIC, 100, 0, COMMITTED_BYTES, USED_BYTES),
            "the first collection: nothing to measure the quiet against");
        assertFalse(collect(PERIODIC, 0), "a server that never worked since its start-up's explicit collection");
        final IdleCompaction sameTime = new IdleCompaction(MAX_FREE_PERCENT);
        sameTime.onCollection(WORK, 100, 0, COMMITTED_BYTES, USED_BYTES);
        assertFalse(sameTime.onCollection(PERIODIC, 100, 0, COMMITTED_BYTES, USED_BYTES),
            "no time between the two: not known to be quiet");
    }
}
