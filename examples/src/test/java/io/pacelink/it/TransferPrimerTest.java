package io.pacelink.it;

import io.pacelink.sim.scenario.TransferPrimer;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.SecurityConfig;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
        final TransferPrimer.Result result = TransferPrimer.prime("bbr", "fq", null, 1, STOPPED);
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
        final TransferPrimer.Result first = TransferPrimer.prime("cubic", "fifo", null, 1, STOPPED);
        final TransferPrimer.Result second = TransferPrimer.prime("cubic", "fifo", null, 1, STOPPED);
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
            TransferPrimer.prime("reno", null, null, TimeUnit.MILLISECONDS.toNanos(1), clock);
        assertFalse(result.complete());
        assertTrue(result.simulatedNs() < TransferPrimer.VIRTUAL_DURATION_NS, "ran " + result.simulatedNs());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(2), result.elapsedNs(), "the start, one look and the end");
    }

    @Test
    void aSecureEndpointsTransferIsProtectedWithItsAead()
    {
        final TransferPrimer.Result plaintext = TransferPrimer.prime("cubic", "fq", null, 1, STOPPED);
        final TransferPrimer.Result secure = TransferPrimer.prime("cubic", "fq", "ChaChaPoly", 1, STOPPED);
        assertTrue(secure.complete());
        assertTrue(secure.lostPackets() > 50, "lost " + secure.lostPackets());
        // The AEAD's tag takes room in every packet: the same bytes need more packets.
        assertTrue(secure.packetsSent() != plaintext.packetsSent(), secure + " " + plaintext);
    }

    @Test
    void eachControllerSchedulerAndAeadIsPrimedOnceAndABudgetOfZeroPrimesNothing()
    {
        // No other test calls primeOnce with these: what was primed is recorded for the JVM's life.
        final PacelinkContext context = new PacelinkContext().congestionControl("bbr2").packetScheduler("rr");
        assertNull(TransferPrimer.primeOnce(context, 0, STOPPED));
        assertTrue(TransferPrimer.primed().stream()
            .noneMatch((primed) -> "bbr2".equals(primed.congestionControl())));
        final TransferPrimer.Result result = TransferPrimer.primeOnce(context, 1, STOPPED);
        assertTrue(result.complete());
        assertTrue(TransferPrimer.primed().contains(result));
        assertNull(TransferPrimer.primeOnce(context, 1, STOPPED), "primed already");

        final byte[] key = new byte[SecurityConfig.KEY_LENGTH];
        Arrays.fill(key, (byte)7);
        context.security().preSharedKey(key).aead("AESGCM");
        final TransferPrimer.Result secure = TransferPrimer.primeOnce(context, 1, STOPPED);
        assertTrue(secure.complete(), "another security mode: primed again");
        assertNull(TransferPrimer.primeOnce(context, 1, STOPPED));
        assertNull(TransferPrimer.primeOnce(context.packetScheduler("fifo"), 0, STOPPED));
    }

    @Test
    void anUnknownControllerOrSchedulerIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> TransferPrimer.prime("vegas", null, null, 1, STOPPED));
        assertThrows(IllegalArgumentException.class, () -> TransferPrimer.prime("reno", "sfq", null, 1, STOPPED));
        assertThrows(NullPointerException.class, () -> TransferPrimer.prime(null, null, null, 1, STOPPED));
    }
}
