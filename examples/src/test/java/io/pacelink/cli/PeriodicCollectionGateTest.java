package io.pacelink.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The periodic collection is off while the endpoint serves and on again when it is quiet, at the compaction's
 * threshold of datagrams a second, both sides of it.
 */
class PeriodicCollectionGateTest
{
    private static final long INTERVAL_MS = 15_000;
    private static final int QUIET = IdleCompaction.QUIET_DATAGRAMS_PER_SECOND;

    private final PeriodicCollectionGate gate = new PeriodicCollectionGate(INTERVAL_MS);

    @Test
    void theFirstCheckOnlyTakesItsBearings()
    {
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(5_000, 1_000_000));
        assertTrue(gate.isOn());
    }

    @Test
    void aBusyEndpointTurnsItOffOnceAndAQuietOneBackOnOnce()
    {
        gate.onCheck(0, 0);
        assertEquals(0, gate.onCheck(1_000, 90_000), "a transfer: 90,000 datagrams a second");
        assertFalse(gate.isOn());
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(2_000, 180_000), "still busy: already off");
        assertEquals(INTERVAL_MS, gate.onCheck(3_000, 180_005), "the transfer ended: a few keep-alives");
        assertTrue(gate.isOn());
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(4_000, 180_005));
    }

    @Test
    void theThresholdIsTheCompactionsBothSidesOfIt()
    {
        gate.onCheck(0, 0);
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(2_000, 2 * QUIET), "at the threshold: quiet");
        assertEquals(0, gate.onCheck(4_000, 4 * QUIET + 1), "one more over two seconds: busy");
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(5_000, 5 * QUIET + 2), "one over: busy");
        assertEquals(INTERVAL_MS, gate.onCheck(6_000, 6 * QUIET + 2), "at the threshold again: quiet");
    }

    @Test
    void aNewEndpointsCounterStartingOverIsQuietAndNoTimePassedChangesNothing()
    {
        gate.onCheck(0, 0);
        assertEquals(0, gate.onCheck(1_000, 50_000));
        assertEquals(INTERVAL_MS, gate.onCheck(2_000, 3), "a new endpoint counts from 0");
        assertEquals(PeriodicCollectionGate.UNCHANGED, gate.onCheck(2_000, 1_000_000), "no time passed");
        assertTrue(gate.isOn());
    }

    @Test
    void anIntervalThatIsNotPositiveIsRefused()
    {
        assertEquals("the periodic interval must be positive: 0 ms",
            assertThrows(IllegalArgumentException.class, () -> new PeriodicCollectionGate(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PeriodicCollectionGate(-1));
    }
}
