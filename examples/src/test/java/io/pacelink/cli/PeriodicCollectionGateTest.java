package io.pacelink.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The periodic collection is off while the endpoint serves and on again when it is quiet, at the compaction's
 * threshold of datagrams a second, both sides of it; and it rests after a periodic collection that followed nothing,
 * until work: a collection of another cause or a busy spell.
 */
class PeriodicCollectionGateTest
{
    private static final long INTERVAL_MS = 15_000;
    private static final int QUIET = IdleCompaction.QUIET_DATAGRAMS_PER_SECOND;

    private final PeriodicCollectionGate gate = new PeriodicCollectionGate(INTERVAL_MS);

    @Test
    void theFirstCheckOnlyTakesItsBearings()
    {
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(5_000, 1_000_000, 0, 0));
        assertTrue(gate.isOn());
    }

    @Test
    void aBusyEndpointTurnsItOffOnceAndAQuietOneBackOnOnce()
    {
        gate.onCheck(0, 0, 0, 0);
        assertEquals(0, gate.onCheck(1_000, 90_000, 0, 0), "a transfer: 90,000 datagrams a second");
        assertFalse(gate.isOn());
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(2_000, 180_000, 0, 0), "still busy: already off");
        assertEquals(INTERVAL_MS, gate.onCheck(3_000, 180_005, 0, 0), "the transfer ended: a few keep-alives");
        assertTrue(gate.isOn());
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(4_000, 180_005, 0, 0));
    }

    @Test
    void theThresholdIsTheCompactionsBothSidesOfIt()
    {
        gate.onCheck(0, 0, 0, 0);
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(2_000, 2 * QUIET, 0, 0), "at the threshold: quiet");
        assertEquals(0, gate.onCheck(4_000, 4 * QUIET + 1, 0, 0), "one more over two seconds: busy");
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(5_000, 5 * QUIET + 2, 0, 0), "one over: busy");
        assertEquals(INTERVAL_MS, gate.onCheck(6_000, 6 * QUIET + 2, 0, 0), "at the threshold again: quiet");
    }

    @Test
    void aNewEndpointsCounterStartingOverIsQuietAndNoTimePassedChangesNothing()
    {
        gate.onCheck(0, 0, 0, 0);
        assertEquals(0, gate.onCheck(1_000, 50_000, 0, 0));
        assertEquals(INTERVAL_MS, gate.onCheck(2_000, 3, 0, 0), "a new endpoint counts from 0");
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(2_000, 1_000_000, 0, 0), "no time passed");
        assertTrue(gate.isOn());
    }

    @Test
    void twoPeriodicCollectionsInARowAfterWorkRestItUntilACollectionOfWork()
    {
        gate.onCheck(0, 0, 0, 0);
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(1_000, 0, 0, 3), "start-up's collections: work");
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(16_000, 5, 0, 3), "quiet, waiting for it");
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(17_000, 6, 1, 3),
            "the first after work: it returned memory; the second may compact");
        assertEquals(0, gate.onCheck(33_000, 9, 2, 3), "the second in a row: it rests");
        assertFalse(gate.isOn());
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(34_000, 9, 2, 3), "still idle: still resting");
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(600_000, 500, 2, 3), "ten idle minutes, pinged");
        assertEquals(INTERVAL_MS, gate.onCheck(601_000, 500, 2, 4), "a young collection: the server allocated");
        assertTrue(gate.isOn());
        assertEquals(0, gate.onCheck(640_000, 520, 4, 4), "two in one check count as two");
    }

    @Test
    void aBusySpellIsWorkThatTheCollectionsAfterItReturnMemoryFor()
    {
        gate.onCheck(0, 0, 0, 0);
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(1_000, 0, 1, 0), "one periodic collection");
        assertEquals(0, gate.onCheck(2_000, 0, 2, 0), "two: rest");
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(3_000, 90_000, 2, 0),
            "a zero-garbage transfer: off anyway");
        assertEquals(INTERVAL_MS, gate.onCheck(4_000, 90_001, 2, 0), "the transfer ended: the collections after it");
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(19_000, 90_010, 3, 0), "one");
        assertEquals(0, gate.onCheck(34_000, 90_020, 4, 0), "two, and nothing since: rest");
    }

    @Test
    void aPeriodicCollectionAndOneOfWorkWithinOneCheckCountAsWork()
    {
        gate.onCheck(0, 0, 0, 0);
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(1_000, 0, 1, 0));
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(16_000, 0, 2, 1), "which came first is unknown");
        assertTrue(gate.isOn());
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(31_000, 0, 3, 1));
        assertEquals(0, gate.onCheck(46_000, 0, 4, 1));
    }

    @Test
    void anIntervalThatIsNotPositiveIsRefused()
    {
        assertEquals("the periodic interval must be positive: 0 ms",
            assertThrows(IllegalArgumentException.class, () -> new PeriodicCollectionGate(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PeriodicCollectionGate(-1));
    }
}
