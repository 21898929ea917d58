package io.pacelink.bbr.v3;

import io.pacelink.transport.testing.ScriptedPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BBRv3's use of ECN as Linux {@code tcp_bbr.c} has it ({@code ecn_alpha}, {@code ecn_thresh}, {@code ecn_factor},
 * {@code full_ecn_cnt}, {@code ecn_max_rtt_us}), on the test kit's path with a step-marking bottleneck: CE on every
 * packet that finds the queue at or above a threshold, and a buffer that never drops. Both variants run the same
 * rules (BBRv2 alpha's {@code tcp_bbr2.c} has them too, shipped switched off).
 */
class Bbr3EcnTest
{
    private static final long MS = 1_000_000L;
    private static final long RATE_BYTES_PER_SECOND = 12_500_000L;
    private static final long LAN_RTT_NS = 2 * MS;

    @ParameterizedTest
    @EnumSource(Bbr3Variant.class)
    void onAShallowMarkingQueueTheQueueStaysNearTheThresholdWithoutLoss(final Bbr3Variant variant)
    {
        final Bbr3Run marked = new Bbr3Run(variant, 1, "");
        final ScriptedPath path =
            marked.path(RATE_BYTES_PER_SECOND, LAN_RTT_NS, 0, 1).ceThresholdBytes(3L * Bbr3Run.SMSS);
        final long[] smallestShortterm = {Long.MAX_VALUE};
        path.listener((p) ->
        {
            final long shortterm = marked.counter(Bbr3Counters.INFLIGHT_SHORTTERM);
            if (shortterm > 0)
            {
                smallestShortterm[0] = Math.min(smallestShortterm[0], shortterm);
            }
        });
        path.runUntil(2_000 * MS);
        path.resetMaxQueue();
        final long marksBefore = path.ceMarkedPackets();
        path.runUntil(10_000 * MS);

        final Bbr3Run unmarked = new Bbr3Run(variant, 1, "");
        final ScriptedPath plain = unmarked.path(RATE_BYTES_PER_SECOND, LAN_RTT_NS, 0, 1);
        plain.runUntil(2_000 * MS);
        plain.resetMaxQueue();
        plain.runUntil(10_000 * MS);

        final long alpha = marked.counter(Bbr3Counters.ECN_ALPHA);
        assertTrue(alpha >= 0 && alpha < 1_000, variant + ": eligible, alpha " + alpha + " / 1000 below its start");
        assertEquals(0, path.droppedBytes());
        assertTrue(path.ceMarkedPackets() > marksBefore, variant + ": the queue marked in steady state");
        if (Bbr3Variant.V3 == variant)
        {
            // v2 alpha's probes end at 1.25 BDP (Bbr2Test): here its marks fall inside its probes, where the lower
            // bounds are not adapted and its peak queue is the probe's; only v3 shows the cut and the lower peak.
            assertTrue(smallestShortterm[0] < Long.MAX_VALUE, "rounds with marks bound inflight_shortterm");
            assertTrue(path.maxQueueBytes() < plain.maxQueueBytes(), "peak queue " + path.maxQueueBytes() +
                " with marks against " + plain.maxQueueBytes() + " without");
        }
        assertTrue(path.deliveredBytes() > 0.85 * plain.deliveredBytes(), variant + ": " + path.deliveredBytes() +
            " delivered against " + plain.deliveredBytes());
        assertEquals(0, unmarked.counter(Bbr3Counters.ECN_ALPHA), variant + ": eligible on a clean LAN path, alpha 0");
    }

    @Test
    void twoStartupRoundsMarkedAboveTheThresholdEndStartupWithoutALoss()
    {
        final Bbr3Run bbr = new Bbr3Run(1, "");
        // Every packet that finds another queued is marked: most of each Startup round, whose pacing gain of 2.77
        // keeps a queue (a path that marks every packet is one that mangles ECT into CE, which fails validation).
        final ScriptedPath path = bbr.path(RATE_BYTES_PER_SECOND, 4 * MS, 0, 1).ceThresholdBytes(Bbr3Run.SMSS);
        path.runUntil(Long.MAX_VALUE, () -> !"STARTUP".equals(bbr.stateName()));

        final Bbr3Run plainBbr = new Bbr3Run(1, "");
        final ScriptedPath plain = plainBbr.path(RATE_BYTES_PER_SECOND, 4 * MS, 0, 1);
        plain.runUntil(Long.MAX_VALUE, () -> !"STARTUP".equals(plainBbr.stateName()));

        final Bbr3Run.Transition exit = bbr.transitions.get(0);
        assertEquals("STARTUP", exit.from());
        assertEquals("DRAIN", exit.to());
        assertTrue(exit.roundCount() < plainBbr.transitions.get(0).roundCount(), "left Startup in round " +
            exit.roundCount() + ", before the bandwidth plateau of round " + plainBbr.transitions.get(0).roundCount());
        assertEquals(0, path.droppedBytes());
        assertTrue(bbr.counter(Bbr3Counters.INFLIGHT_LONGTERM) > 0, "inflight_longterm bounded at the exit");
    }

    @Test
    void aPathLongerThanTheEcnRttLimitIsNotEcnEligible()
    {
        // Linux bbr_ecn_max_rtt_us = 5000: marks from a 20 ms path are not taken as a shallow-threshold signal.
        final Bbr3Run marked = new Bbr3Run(1, "");
        final ScriptedPath path =
            marked.path(RATE_BYTES_PER_SECOND, 20 * MS, 0, 1).ceThresholdBytes(8L * Bbr3Run.SMSS);
        final Bbr3Run unmarked = new Bbr3Run(1, "");
        final ScriptedPath plain = unmarked.path(RATE_BYTES_PER_SECOND, 20 * MS, 0, 1);
        path.runUntil(5_000 * MS);
        plain.runUntil(5_000 * MS);

        assertTrue(path.ceMarkedPackets() > 0);
        assertEquals(-1, marked.counter(Bbr3Counters.ECN_ALPHA));
        assertEquals(plain.deliveredBytes(), path.deliveredBytes(), "the marks changed nothing");
        assertEquals(unmarked.congestionWindowBytes(), marked.congestionWindowBytes());
    }

    @Test
    void ecnCanBeSwitchedOffAsBbr2AlphaShipped()
    {
        final Bbr3Run off = new Bbr3Run(Bbr3Variant.V2_ALPHA, 1, "bbr2.ecn=false");
        final ScriptedPath path = off.path(RATE_BYTES_PER_SECOND, LAN_RTT_NS, 0, 1).ceThresholdBytes(Bbr3Run.SMSS);
        path.runUntil(2_000 * MS);
        assertEquals(-1, off.counter(Bbr3Counters.ECN_ALPHA));
        assertTrue(path.ceMarkedPackets() > 0);
    }
}
