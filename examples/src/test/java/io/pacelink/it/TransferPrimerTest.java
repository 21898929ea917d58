package io.pacelink.it;

import io.pacelink.sim.scenario.TransferPrimer;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TransferPrimer} with the controller and scheduler modules on the class path, as the command line has them.
 */
class TransferPrimerTest
{
    /**
     * A wall clock that stands still: no budget runs out.
     */
    private static final NanoClock STOPPED = () -> 0;

    @Test
    void theTransferRunsThroughLossRecoveryToItsEnd()
    {
        final TransferPrimer.Result result = TransferPrimer.prime("bbr", "fq", 1, STOPPED);
        assertTrue(result.complete());
        assertEquals(TransferPrimer.VIRTUAL_DURATION_NS, result.simulatedNs());
        // 20 Mbit/s for 10.6 s is about 18,000 full-size packets; 1 % random loss and the queue lose some of them.
        assertTrue(result.packetsSent() > 10_000, "sent " + result.packetsSent());
        assertTrue(result.lostPackets() > 50, "lost " + result.lostPackets());
        assertTrue(result.lostPackets() < result.packetsSent() / 10, "lost " + result.lostPackets());
        assertEquals(0, result.elapsedNs());
    }

    @Test
    void theSameControllerGivesTheSameTransfer()
    {
        final TransferPrimer.Result first = TransferPrimer.prime("cubic", "fifo", 1, STOPPED);
        final TransferPrimer.Result second = TransferPrimer.prime("cubic", "fifo", 1, STOPPED);
        assertEquals(first, second);
    }

    @Test
    void theWallClockBudgetStopsTheTransferEarly()
    {
        // Each look at the clock finds a millisecond more: a 1 ms budget is spent at the run's first look, after
        // Simulator.WATCH_INTERVAL_EVENTS events.
        final long[] nowNs = {0};
        final NanoClock clock = () -> nowNs[0] += TimeUnit.MILLISECONDS.toNanos(1);
        final TransferPrimer.Result result =
            TransferPrimer.prime("reno", null, TimeUnit.MILLISECONDS.toNanos(1), clock);
        assertFalse(result.complete());
        assertTrue(result.simulatedNs() < TransferPrimer.VIRTUAL_DURATION_NS, "ran " + result.simulatedNs());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(2), result.elapsedNs(), "the start, one look and the end");
    }

    @Test
    void eachControllerIsPrimedOnceAndABudgetOfZeroPrimesNothing()
    {
        // No other test calls primeOnce with it: what was primed is recorded for the JVM's life.
        final String controller = "bbr2";
        assertNull(TransferPrimer.primeOnce(controller, null, 0, STOPPED));
        assertNull(TransferPrimer.primed(controller));
        final TransferPrimer.Result result = TransferPrimer.primeOnce(controller, null, 1, STOPPED);
        assertTrue(result.complete());
        assertSame(result, TransferPrimer.primed(controller));
        assertNull(TransferPrimer.primeOnce(controller, null, 1, STOPPED), "primed already");
    }

    @Test
    void anUnknownControllerOrSchedulerIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> TransferPrimer.prime("vegas", null, 1, STOPPED));
        assertThrows(IllegalArgumentException.class, () -> TransferPrimer.prime("reno", "sfq", 1, STOPPED));
        assertThrows(NullPointerException.class, () -> TransferPrimer.primeOnce(null, null, 1, STOPPED));
    }
}
