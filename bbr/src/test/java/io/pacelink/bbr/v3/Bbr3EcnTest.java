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
        // The marker compares the bytes waiting in the link's queue, not counting the packet being serialized, when a
        // packet arrives: what sch_red's enqueue compares (its backlog is what the qdisc holds; the packet on the wire
        // has left it), set as a DCTCP-style step at 3 packets.
        final long thresholdBytes = 3L * Bbr3Run.SMSS;
        final Bbr3Run marked = new Bbr3Run(variant, 1, "");
        final ScriptedPath path =
            marked.path(RATE_BYTES_PER_SECOND, LAN_RTT_NS, 0, 1).ceThresholdBytes(thresholdBytes);
        final long[] smallestShortterm = {Long.MAX_VALUE};
        final long[] steadyAcks = new long[2]; // {ACKs, ACKs finding at most threshold + 3 packets waiting}
        path.listener((p) ->
        {
            final long shortterm = marked.counter(Bbr3Counters.INFLIGHT_SHORTTERM);
            if (shortterm > 0)
            {
                smallestShortterm[0] = Math.min(smallestShortterm[0], shortterm);
            }
            if (p.nowNs() >= 2_000 * MS)
            {
                steadyAcks[0]++;
                steadyAcks[1] += p.queueBytes() <= thresholdBytes + 3L * Bbr3Run.SMSS ? 1 : 0;
            }
        });
        path.runUntil(2_000 * MS);
        path.resetMaxQueue();
        final long marksBefore = path.ceMarkedPackets();
        final long offeredBefore = path.linkCounters().offeredPackets();
        final int transitionsBefore = marked.transitions.size();
        path.runUntil(10_000 * MS);
        final double markedShare = (double)(path.ceMarkedPackets() - marksBefore) /
            (path.linkCounters().offeredPackets() - offeredBefore);

        final Bbr3Run unmarked = new Bbr3Run(variant, 1, "");
        final ScriptedPath plain = unmarked.path(RATE_BYTES_PER_SECOND, LAN_RTT_NS, 0, 1);
        plain.runUntil(2_000 * MS);
        plain.resetMaxQueue();
        plain.runUntil(10_000 * MS);

        assertEquals(0, path.droppedBytes());
        assertTrue(path.ceMarkedPackets() > marksBefore, variant + ": the queue marked in steady state");
        assertTrue(steadyAcks[1] >= 0.95 * steadyAcks[0], variant + ": " + steadyAcks[1] + " of " + steadyAcks[0] +
            " ACKs found at most 3 packets above the threshold waiting");
        final long alpha = marked.counter(Bbr3Counters.ECN_ALPHA);
        if (Bbr3Variant.V3 == variant)
        {
            // Linux BBRv3 (tcp_bbr.c) never cruises on this path; traced from 2 s to 10 s (2,607 cycles, the same
            // count on the test kit's earlier fluid bottleneck): once REFILL's round ends, UP's first ACK carries a
            // rate sample over ecn_thresh (98 % CE), bbr_adapt_upper_bounds -> bbr_handle_inflight_too_high sets
            // inflight_hi to its tx_in_flight (33 to 34.5 kB, 1.25 to 1.3 BDP) and starts DOWN, which resets
            // ecn_in_cycle; the end of that same bbr_main sets ecn_in_cycle again from the sample's delivered_ce, so
            // DOWN's next ACK meets bbr_check_time_to_probe_bw's quick re-probe (ecn_in_cycle && !loss_in_cycle, no
            // check that the marks ceased) and starts REFILL. Inflight sits at inflight_hi: 3 to 5 packets waiting,
            // 97.7 % of the packets marked, and alpha, the EWMA of the marked share, stays near 1 (1.000 at 10 s
            // here, 0.985 on the fluid bottleneck, which passed the old "alpha below its start" by that margin); it
            // dips only in ProbeRTT's unmarked rounds. The lower bounds adapt only outside REFILL and UP
            // (bbr_adapt_lower_bounds): ProbeRTT's first rounds cut inflight_lo, and each REFILL resets it
            // (bbr_reset_lower_bounds), so no ProbeBW round keeps a short-term bound.
            assertTrue(alpha >= 0 && Math.abs(alpha - 1000 * markedShare) <= 50, "eligible, alpha " + alpha +
                " / 1000 follows the marked share " + markedShare);
            assertTrue(smallestShortterm[0] < Long.MAX_VALUE, "rounds with marks bound inflight_shortterm");
            int downToCruise = 0;
            int downToRefill = 0;
            for (final Bbr3Run.Transition t : marked.transitions.subList(transitionsBefore, marked.transitions.size()))
            {
                downToCruise += "PROBE_BW_DOWN".equals(t.from()) && "PROBE_BW_CRUISE".equals(t.to()) ? 1 : 0;
                downToRefill += "PROBE_BW_DOWN".equals(t.from()) && "PROBE_BW_REFILL".equals(t.to()) ? 1 : 0;
            }
            assertTrue(0 == downToCruise && downToRefill > 0, "every DOWN re-probes at once: " + downToRefill +
                " to REFILL, " + downToCruise + " to CRUISE");
            assertTrue(path.maxQueueBytes() < plain.maxQueueBytes(), "peak queue " + path.maxQueueBytes() +
                " with marks against " + plain.maxQueueBytes() + " without");
        }
        else
        {
            // v2 alpha's probes end at 1.25 BDP (Bbr2Test) and some of its cycles cruise below the threshold, so its
            // marked share is a fraction and alpha falls below its start.
            assertTrue(alpha >= 0 && alpha < 1_000, variant + ": eligible, alpha " + alpha + " / 1000 below its start");
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
