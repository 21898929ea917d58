package io.pacelink.transport.agent;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real-clock agent's wake plan, at given times and port counts (no clock, no sleep): pacing releases served in
 * quanta, timers on time, arrivals held only after cycles that mostly received.
 */
class WakeCoalescingTest
{
    private static final long NONE = Long.MAX_VALUE;
    private static final long QUANTUM_NS = WakeCoalescing.DEFAULT_PACING_QUANTUM_NS;
    private static final long MAX_HOLD_NS = WakeCoalescing.DEFAULT_MAX_HOLD_NS;

    /**
     * The pacer's quantum at 50 Mbit/s: ten 1472-byte datagrams.
     */
    private static final long RATE_QUANTUM_50_MBIT_NS = 2_355_200L;

    @Test
    void aReleaseCloserThanAQuantumIsServedAQuantumFromNowAndOneFurtherAwayOnTime()
    {
        final WakeCoalescing plan = new WakeCoalescing(() -> QUANTUM_NS);
        final long nowNs = -5_000_000L; // a nano clock's origin is arbitrary: negative times work too
        assertEquals(nowNs + QUANTUM_NS, plan.plan(nowNs, NONE, nowNs + 240_000, 0, 0),
            "50 Mbit/s: the next packet 240 µs away waits for the quantum, and leaves with those due by then");
        assertEquals(nowNs + QUANTUM_NS, plan.plan(nowNs, NONE, nowNs - 10_000, 0, 0), "an overdue release too");
        assertEquals(nowNs + 5_000_000, plan.plan(nowNs, NONE, nowNs + 5_000_000, 0, 0),
            "a slow flow's release further away than a quantum is served on time");
        assertEquals(NONE, plan.plan(nowNs, NONE, NONE, 0, 0), "nothing due: no deadline");
        assertFalse(plan.isHoldingArrivals());
    }

    @Test
    void unlessSetEachReleaseIsServedWithThePacersQuantumForIt()
    {
        final long[] pacerQuantumNs = { RATE_QUANTUM_50_MBIT_NS };
        final WakeCoalescing plan = new WakeCoalescing(WakeCoalescing.RATE_QUANTUM, () -> pacerQuantumNs[0], 0);
        final long nowNs = 7_000_000L;
        assertEquals(nowNs + RATE_QUANTUM_50_MBIT_NS, plan.plan(nowNs, NONE, nowNs + 240_000, 0, 0),
            "50 Mbit/s: the next packet 240 µs away waits for ten datagrams' time");
        assertEquals(nowNs + RATE_QUANTUM_50_MBIT_NS, plan.plan(nowNs, NONE, nowNs + RATE_QUANTUM_50_MBIT_NS - 1, 0, 0),
            "a release just inside the quantum is served at its end");
        assertEquals(nowNs + RATE_QUANTUM_50_MBIT_NS + 1,
            plan.plan(nowNs, NONE, nowNs + RATE_QUANTUM_50_MBIT_NS + 1, 0, 0), "just outside: on time");
        assertEquals(nowNs + 100_000, plan.plan(nowNs, nowNs + 100_000, nowNs + 240_000, 0, 0),
            "an earlier timer still ends the sleep");

        pacerQuantumNs[0] = QUANTUM_NS;
        assertEquals(nowNs + QUANTUM_NS, plan.plan(nowNs, NONE, nowNs + 240_000, 0, 0),
            "a fast flow's, or several flows': the shortest");
        assertThrows(NullPointerException.class, () -> new WakeCoalescing(WakeCoalescing.RATE_QUANTUM, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new WakeCoalescing(-2, () -> QUANTUM_NS, 0));
    }

    @Test
    void aPacerThatReleasesAQuantumAheadHasEachReleaseServedOnTime()
    {
        // Its releases come a quantum apart by themselves; a wake in between (an ACK's arrival) must not push the
        // next one a quantum further.
        final WakeCoalescing plan = new WakeCoalescing(() -> QUANTUM_NS, null, true);
        assertEquals(1_100_000L, plan.plan(1_000_000L, NONE, 1_100_000L, 0, 0), "100 µs away: on time");
        assertEquals(1_100_000L, plan.plan(1_050_000L, NONE, 1_100_000L, 1, 0), "after an ACK's wake, still");
        assertEquals(1_000_000L + 5 * QUANTUM_NS, plan.plan(1_000_000L, NONE, 1_000_000L + 5 * QUANTUM_NS, 1, 0));

        final WakeCoalescing deferring = new WakeCoalescing(() -> QUANTUM_NS, null, false);
        assertEquals(1_000_000L + QUANTUM_NS, deferring.plan(1_000_000L, NONE, 1_100_000L, 0, 0), "a quantum from now");
    }

    @Test
    void timersAreNeverMoved()
    {
        final WakeCoalescing plan = new WakeCoalescing(() -> QUANTUM_NS);
        final long nowNs = 1_000_000_000L;
        assertEquals(nowNs + 100_000, plan.plan(nowNs, nowNs + 100_000, nowNs + 50_000, 0, 0),
            "an ACK deadline before the quantum's end is kept");
        assertEquals(nowNs, plan.plan(nowNs, nowNs, NONE, 0, 0), "a due timer stays due");
    }

    @Test
    void arrivalsAreHeldAfterCyclesThatMostlyReceivedForAboutEightGapsAtMostOneHold()
    {
        final WakeCoalescing plan = new WakeCoalescing(() -> QUANTUM_NS);
        long nowNs = 0;
        plan.plan(nowNs, NONE, NONE, 0, 0);
        assertFalse(plan.isHoldingArrivals(), "nothing seen yet");

        // A bulk receiver at 1 Gbit/s: 40 datagrams in 480 µs, one ACK sent: hold about 8 gaps of 12 µs.
        nowNs += 480_000;
        final long wakeNs = plan.plan(nowNs, NONE, NONE, 40, 1);
        assertTrue(plan.isHoldingArrivals());
        assertEquals(12_000, plan.meanArrivalGapNs());
        assertEquals(nowNs + WakeCoalescing.HOLD_DATAGRAMS * 12_000, wakeNs);

        // At 50 Mbit/s (one datagram per 240 µs) the hold is capped at one max hold.
        final WakeCoalescing slow = new WakeCoalescing(() -> QUANTUM_NS);
        slow.plan(0, NONE, NONE, 0, 0);
        assertEquals(2_000_000 + MAX_HOLD_NS, slow.plan(2_000_000, NONE, NONE, 8, 0));
        assertTrue(slow.isHoldingArrivals());

        // A timer earlier than the hold's end ends the held sleep.
        assertEquals(3_000_100, slow.plan(3_000_000, 3_000_100, NONE, 12, 1));
        assertTrue(slow.isHoldingArrivals());
    }

    @Test
    void arrivalsThatTheCallerKnowsAreNoStreamAreNotHeldAndTheStreamsAreAgainAfter()
    {
        final WakeCoalescing plan = new WakeCoalescing(() -> QUANTUM_NS);
        plan.plan(0, NONE, NONE, 0, 0, false);
        assertEquals(NONE, plan.plan(480_000, NONE, NONE, 40, 1, false), "counts of a stream, but told not to hold");
        assertFalse(plan.isHoldingArrivals());
        assertEquals(960_000 + WakeCoalescing.HOLD_DATAGRAMS * 12_000, plan.plan(960_000, NONE, NONE, 80, 2, true));
        assertTrue(plan.isHoldingArrivals());
    }

    @Test
    void aConnectionAskedForALongerAckDelayMayHaveItsArrivalsHeldAsLongWithinTwentyFiveMilliseconds()
    {
        // At 4 Mbit/s (one datagram per 3 ms) eight gaps are 24 ms; the cap is the ACK delay in force among the
        // connections that just received: 10 ms, 1 ms (one on the default delay), none (the default max hold).
        final long[] ackDelayNs = {Long.MAX_VALUE};
        final WakeCoalescing plan = new WakeCoalescing(WakeCoalescing.DEFAULT_PACING_QUANTUM_NS, MAX_HOLD_NS,
            () -> ackDelayNs[0]);
        plan.plan(0, NONE, NONE, 0, 0);
        ackDelayNs[0] = 10_000_000;
        assertEquals(24_000_000 + 10_000_000, plan.plan(24_000_000, NONE, NONE, 8, 0));
        assertTrue(plan.isHoldingArrivals());
        ackDelayNs[0] = 1_000_000;
        assertEquals(48_000_000 + MAX_HOLD_NS, plan.plan(48_000_000, NONE, NONE, 16, 0));
        ackDelayNs[0] = Long.MAX_VALUE;
        assertEquals(72_000_000 + MAX_HOLD_NS, plan.plan(72_000_000, NONE, NONE, 24, 0), "no arrival's delay known");
        ackDelayNs[0] = 500_000;
        assertEquals(96_000_000 + MAX_HOLD_NS, plan.plan(96_000_000, NONE, NONE, 32, 0), "never below the max hold");
        ackDelayNs[0] = 25_000_000;
        assertEquals(120_000_000 + 24_000_000, plan.plan(120_000_000, NONE, NONE, 40, 0), "eight gaps within 25 ms");
        ackDelayNs[0] = 60_000_000;
        final WakeCoalescing slower = new WakeCoalescing(WakeCoalescing.DEFAULT_PACING_QUANTUM_NS, MAX_HOLD_NS,
            () -> ackDelayNs[0]);
        slower.plan(0, NONE, NONE, 0, 0);
        assertEquals(40_000_000 + WakeCoalescing.MAX_HOLD_WITH_ACK_FREQUENCY_NS,
            slower.plan(40_000_000, NONE, NONE, 8, 0), "one datagram per 5 ms: capped at 25 ms");

        // Holding stays off when the operator switched it off, whatever the connections may wait.
        final WakeCoalescing off = new WakeCoalescing(WakeCoalescing.OFF, WakeCoalescing.OFF, () -> 10_000_000L);
        off.plan(0, NONE, NONE, 0, 0);
        assertEquals(NONE, off.plan(24_000_000, NONE, NONE, 8, 0));
        assertFalse(off.isHoldingArrivals());
    }

    @Test
    void anExchangeThatAnswersWhatItReceivesIsNeverHeldSoItStillWakesOnArrival()
    {
        final WakeCoalescing plan = new WakeCoalescing(() -> QUANTUM_NS);
        plan.plan(0, NONE, NONE, 0, 0);
        plan.plan(10_000_000, NONE, NONE, 1, 0);
        assertFalse(plan.isHoldingArrivals(), "a lone message (a request its application will answer) is not held");
        long received = 1;
        long sent = 0;
        for (int i = 0; i < 100; i++)
        {
            received++;
            sent++;
            assertEquals(NONE, plan.plan(20_000_000 + i * 40_000L, NONE, NONE, received, sent), "ping " + i);
            assertFalse(plan.isHoldingArrivals(), "ping " + i);
        }
        sent += 10;
        received += 4;
        plan.plan(30_000_000, NONE, NONE, received, sent);
        assertFalse(plan.isHoldingArrivals(), "a sender that sent more than it received is not held");
        plan.plan(31_000_000, NONE, NONE, received, sent);
        assertFalse(plan.isHoldingArrivals(), "nothing arrived: listen again");
    }

    @Test
    void offServesEveryDeadlineAsItIsAndNeverHolds()
    {
        final WakeCoalescing plan = new WakeCoalescing(WakeCoalescing.OFF, WakeCoalescing.OFF);
        plan.plan(0, NONE, NONE, 0, 0);
        assertEquals(1_240_000, plan.plan(1_000_000, NONE, 1_240_000, 50, 0));
        assertFalse(plan.isHoldingArrivals());
        assertThrows(IllegalArgumentException.class, () -> new WakeCoalescing(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> new WakeCoalescing(0, -1));
    }

    @Test
    void theOperatorsSwitchesTakeWholeMicrosecondsFromZeroToOneMillisecondAndRefuseAnythingElseSayingWhy()
    {
        final String[] properties = { WakeCoalescing.PACING_QUANTUM_PROPERTY, WakeCoalescing.MAX_HOLD_PROPERTY };
        try
        {
            System.setProperty(WakeCoalescing.PACING_QUANTUM_PROPERTY, "0");
            System.setProperty(WakeCoalescing.MAX_HOLD_PROPERTY, " 1000 ");
            final WakeCoalescing plan = new WakeCoalescing(() -> QUANTUM_NS);
            assertEquals(240_000, plan.plan(0, NONE, 240_000, 0, 0), "quantum 0: every release on time");
            plan.plan(1_000_000, NONE, NONE, 4, 0);
            assertTrue(plan.isHoldingArrivals(), "holds still on");

            System.setProperty(WakeCoalescing.PACING_QUANTUM_PROPERTY, "500");
            System.setProperty(WakeCoalescing.MAX_HOLD_PROPERTY, "0");
            final WakeCoalescing noHold = new WakeCoalescing(() -> RATE_QUANTUM_50_MBIT_NS);
            assertEquals(500_000, noHold.plan(0, NONE, 240_000, 0, 0), "a set quantum overrides the pacer's");
            noHold.plan(1_000_000, NONE, NONE, 4, 0);
            assertFalse(noHold.isHoldingArrivals(), "hold 0: never held");

            for (final String property : properties)
            {
                for (final String bad : new String[] { "-1", "1001", "abc", "1.5", "" })
                {
                    System.setProperty(property, bad);
                    final IllegalArgumentException thrown =
                        assertThrows(IllegalArgumentException.class,
                        () -> new WakeCoalescing(() -> QUANTUM_NS), property + "=" + bad);
                    assertTrue(thrown.getMessage().contains(property) &&
                        thrown.getMessage().contains("from 0 to 1000"), thrown.getMessage());
                }
                System.clearProperty(property);
            }
        }
        finally
        {
            for (final String property : properties)
            {
                System.clearProperty(property);
            }
        }
    }
}
