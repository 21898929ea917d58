package io.pacelink.bbr.v1;

import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.MSS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Loss recovery (Linux {@code bbr_set_cwnd_to_recover_or_restore}): packet conservation for the first round, restore on
 * exit, persistent congestion as RTO, undo, ECN ignored.
 */
class Bbr1RecoveryTest
{
    private static final long RTT_NS = 100 * MS;

    private long cwndBeforeLoss = -1;
    private long lastCwnd;
    private int conservationAcks;
    private int conservationViolations;
    private long firstConservationCwnd = -1;
    private long firstConservationExpected = -1;
    private long recoveryStartNs = -1;
    private long recoveryEndNs = -1;
    private long cwndAtRecoveryEnd = -1;
    private boolean wasInRecovery;
    private long conservationEndRound = -1;
    private long conservationStartRound = -1;

    @Test
    void packetConservationOnEnteringRecoveryAndRestoreOnExit()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, RTT_NS, 10);
        final Bbr1Controller bbr = run.controller;
        run.runUntilSeconds(3.0);
        assertEquals(Bbr1State.PROBE_BW, bbr.state());

        run.path.listener((path) ->
        {
            final long acked = path.lastAck().newlyAckedBytes();
            final long lost = path.lastAck().newlyLostBytes();
            final long cwnd = bbr.congestionWindowBytes();
            if (bbr.isInRecovery() && !wasInRecovery)
            {
                recoveryStartNs = path.nowNs();
                cwndBeforeLoss = lastCwnd;
            }
            if (bbr.isPacketConservation())
            {
                if (firstConservationCwnd < 0)
                {
                    firstConservationCwnd = cwnd;
                    firstConservationExpected = path.bytesInFlight() + acked;
                    conservationStartRound = bbr.roundCount();
                }
                else if (cwnd != Math.max(Math.max(lastCwnd - lost, MSS), path.bytesInFlight() + acked))
                {
                    conservationViolations++;
                }
                conservationAcks++;
            }
            else if (firstConservationCwnd >= 0 && conservationEndRound < 0)
            {
                conservationEndRound = bbr.roundCount();
            }
            if (!bbr.isInRecovery() && wasInRecovery)
            {
                recoveryEndNs = path.nowNs();
                cwndAtRecoveryEnd = cwnd;
            }
            wasInRecovery = bbr.isInRecovery();
            lastCwnd = cwnd;
        });
        run.path.dropNext(3);
        run.runUntilSeconds(3.5);

        assertTrue(recoveryStartNs > 0);
        assertEquals(cwndBeforeLoss, bbr.priorCwndBytes());
        // First ACK of recovery: cwnd = inflight + acked, cutting what the sender left unused.
        assertEquals(firstConservationExpected, firstConservationCwnd);
        assertTrue(firstConservationCwnd < cwndBeforeLoss);
        // Conservation for one round: each ACK releases only what it acked (minus what was lost).
        assertEquals(0, conservationViolations);
        assertTrue(conservationAcks > 100, "conservation ACKs " + conservationAcks);
        assertEquals(conservationStartRound + 1, conservationEndRound);
        // Recovery ends one RTT later when a packet sent after it began is acked; the saved cwnd returns.
        final long recoveryNs = recoveryEndNs - recoveryStartNs;
        assertTrue(recoveryNs >= RTT_NS && recoveryNs < RTT_NS + 20 * MS, "recovery lasted " + recoveryNs);
        assertTrue(cwndAtRecoveryEnd >= cwndBeforeLoss, "cwnd " + cwndAtRecoveryEnd + " < " + cwndBeforeLoss);
        assertFalse(bbr.isInRecovery());
        // The model itself did not react to the loss.
        assertTrue(bbr.maxBandwidthBytesPerSecond() >= 0.98 * RATE_100_MBIT);
        assertEquals(Bbr1State.PROBE_BW, bbr.state());
    }

    @Test
    void persistentCongestionIsHandledLikeAnRto()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, RTT_NS, 11);
        final Bbr1Controller bbr = run.controller;
        run.runUntilSeconds(3.0);
        final long cwndBefore = bbr.congestionWindowBytes();
        final long roundsBefore = bbr.roundCount();

        run.path.congestionEvent(run.path.nowNs() - RTT_NS, true);
        assertEquals(2L * MSS, bbr.congestionWindowBytes());
        assertEquals(cwndBefore, bbr.priorCwndBytes());
        assertTrue(bbr.isInRecovery());
        assertEquals(roundsBefore, bbr.roundCount());

        // The next ACK lifts cwnd to the 4-packet floor; it then regrows by what is acked, without a conservation
        // round (the previous state is "Loss"), until a packet sent after the event is acked.
        run.path.listener((path) ->
        {
            if (firstConservationCwnd < 0)
            {
                firstConservationCwnd = bbr.congestionWindowBytes();
            }
            if (bbr.isPacketConservation())
            {
                conservationAcks++;
            }
            if (!bbr.isInRecovery() && recoveryEndNs < 0)
            {
                recoveryEndNs = path.nowNs();
                cwndAtRecoveryEnd = bbr.congestionWindowBytes();
            }
        });
        run.runUntilSeconds(3.5);
        assertEquals(4L * MSS, firstConservationCwnd);
        assertEquals(0, conservationAcks);
        assertTrue(recoveryEndNs > 0);
        assertTrue(cwndAtRecoveryEnd >= cwndBefore, "restored cwnd " + cwndAtRecoveryEnd);
        assertTrue(bbr.isFullBandwidthReached());
    }

    @Test
    void spuriousLossUndoRestoresCwndOnNextAck()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, RTT_NS, 12);
        final Bbr1Controller bbr = run.controller;
        run.runUntilSeconds(3.0);
        final long cwndBefore = bbr.congestionWindowBytes();
        // Declared lost, but delivered: its acknowledgement a round trip later proves the recovery spurious.
        run.path.declareNewestPacketLostNow();
        assertTrue(bbr.isInRecovery());
        run.path.runUntil(Long.MAX_VALUE, bbr::isPacketConservation);
        assertTrue(bbr.congestionWindowBytes() < cwndBefore);

        run.path.runUntil(Long.MAX_VALUE, () -> run.path.lossRecovery().spuriousLosses() > 0);
        assertFalse(bbr.isInRecovery());
        run.path.runFor(MS);
        assertTrue(bbr.congestionWindowBytes() >= cwndBefore);
        assertFalse(bbr.isPacketConservation());
    }

    @Test
    void ecnCongestionExperiencedDoesNotEnterRecovery()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, RTT_NS, 13);
        final Bbr1Controller bbr = run.controller;
        run.runUntilSeconds(3.0);
        final long cwndBefore = bbr.congestionWindowBytes();
        run.path.ecnCongestionEvent(run.path.nowNs() - RTT_NS);
        assertFalse(bbr.isInRecovery());
        assertEquals(cwndBefore, bbr.congestionWindowBytes());
    }

    @Test
    void marksFromTheBottleneckChangeNothing()
    {
        // Linux BBRv1 reads no ECN: a marking queue and a plain one give the same run, packet for packet.
        final Bbr1Run marked = new Bbr1Run(RATE_100_MBIT, 20 * MS, 13);
        marked.path.ceThresholdBytes(10L * MSS);
        final Bbr1Run plain = new Bbr1Run(RATE_100_MBIT, 20 * MS, 13);
        marked.runUntilSeconds(5.0);
        plain.runUntilSeconds(5.0);

        assertTrue(marked.path.ceMarkedPackets() > 0);
        assertEquals(0, marked.path.lossRecovery().ecnCeReactions());
        assertEquals(plain.path.deliveredBytes(), marked.path.deliveredBytes());
        assertEquals(plain.controller.congestionWindowBytes(), marked.controller.congestionWindowBytes());
        assertEquals(plain.path.maxQueueBytes(), marked.path.maxQueueBytes());
    }
}
