package io.pacelink.cubic;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;

import static io.pacelink.cubic.CubicRig.MILLIS_NS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Linux's HyStart ({@code cubic.hystart=linux}), fed ACK by ACK, and inside CUBIC on a fluid path.
 */
class LinuxHyStartTest
{
    private static final long MIN_RTT_NS = 40 * MILLIS_NS;
    private static final long CWND_PACKETS = 100;

    /**
     * At 100 MB/s the cushion would be 4 x 64 KiB / rate = 2.6 ms: capped at 1 ms.
     */
    private static final long FAST_PACING_BYTES_PER_SECOND = 100_000_000L;

    private final TestControllerContext context = new TestControllerContext(ControllerParameters.EMPTY);
    private final LinuxHyStart hyStart = new LinuxHyStart(context);
    private long nextPacketNumber;

    @Test
    void ackTrainLongerThanTheMinimumRttPlusOneMillisecondEndsSlowStart()
    {
        // Round one sets delay_min = 40 ms. Round two's ACKs come 0.5 ms apart from its start at 100 ms: the train
        // passes 40 + 1 ms after 83 ACKs (41.5 ms), not at 41 ms exactly.
        final long roundTwoFirst = round(0, 10, 0, MIN_RTT_NS, 500_000L);
        sendUpTo(roundTwoFirst + 200);
        final long roundStartNs = 100 * MILLIS_NS;
        for (int i = 0; i <= 82; i++)
        {
            assertFalse(ack(roundStartNs + i * 500_000L, roundTwoFirst + i, MIN_RTT_NS), "ACK " + i);
        }
        assertTrue(ack(roundStartNs + 83 * 500_000L, roundTwoFirst + 83, MIN_RTT_NS));
        assertEquals(1, context.counter(LinuxHyStart.TRAIN_DETECT_COUNTER));
        assertEquals(CWND_PACKETS, context.counter(LinuxHyStart.TRAIN_CWND_COUNTER));
        assertEquals(0, context.counter(LinuxHyStart.DELAY_DETECT_COUNTER));

        assertFalse(ack(roundStartNs + 84 * 500_000L, roundTwoFirst + 84, MIN_RTT_NS), "found: HyStart is done");
        assertEquals(1, context.counter(LinuxHyStart.TRAIN_DETECT_COUNTER));
    }

    @Test
    void aGapOfMoreThanTwoMillisecondsStopsTheTrain()
    {
        final long roundTwoFirst = round(0, 10, 0, MIN_RTT_NS, 500_000L);
        sendUpTo(roundTwoFirst + 200);
        final long roundStartNs = 100 * MILLIS_NS;
        for (int i = 0; i < 40; i++)
        {
            assertFalse(ack(roundStartNs + i * 500_000L, roundTwoFirst + i, MIN_RTT_NS));
        }
        // 2.001 ms after the last ACK of the train: no longer part of it, so the rest of the round never counts.
        final long afterGapNs = roundStartNs + 39 * 500_000L + 2_001_000L;
        for (int i = 0; i < 100; i++)
        {
            assertFalse(ack(afterGapNs + i * 500_000L, roundTwoFirst + 40 + i, MIN_RTT_NS));
        }
        assertEquals(0, context.counter(LinuxHyStart.TRAIN_DETECT_COUNTER));
    }

    @Test
    void slowPacingShrinksTheCushion()
    {
        // 4 x 64 KiB at 1 GB/s is 262 us.
        assertEquals(262_144L, LinuxHyStart.ackTrainCushionNs(1_000_000_000L));
        assertEquals(LinuxHyStart.MAX_ACK_TRAIN_CUSHION_NS, LinuxHyStart.ackTrainCushionNs(1_000_000L));
        assertEquals(0, LinuxHyStart.ackTrainCushionNs(0));
    }

    @Test
    void roundMinimumAboveTheConnectionMinimumByTheClampedEighthEndsSlowStartFromTheNinthSample()
    {
        // delay_min 40 ms: threshold max(4, 40 / 8) = 5 ms, strictly exceeded; judged from the ninth sample on.
        assertEquals(5 * MILLIS_NS, LinuxHyStart.delayThresholdNs(MIN_RTT_NS));
        assertEquals(4 * MILLIS_NS, LinuxHyStart.delayThresholdNs(20 * MILLIS_NS));
        assertEquals(16 * MILLIS_NS, LinuxHyStart.delayThresholdNs(200 * MILLIS_NS));

        long first = round(0, 10, 0, MIN_RTT_NS, 5 * MILLIS_NS);
        // Round two, ACKs 3 ms apart (no train): 45 ms is not above 40 + 5.
        first = round(first, 20, 100 * MILLIS_NS, 45 * MILLIS_NS, 3 * MILLIS_NS);
        assertEquals(0, context.counter(LinuxHyStart.DELAY_DETECT_COUNTER));

        // Round three at 45.001 ms: eight samples are counted, the ninth is judged.
        sendUpTo(first + 20);
        final long roundStartNs = 200 * MILLIS_NS;
        for (int i = 0; i < 8; i++)
        {
            assertFalse(ack(roundStartNs + i * 3 * MILLIS_NS, first + i, 45_001_000L), "sample " + (i + 1));
        }
        assertTrue(ack(roundStartNs + 8 * 3 * MILLIS_NS, first + 8, 45_001_000L));
        assertEquals(1, context.counter(LinuxHyStart.DELAY_DETECT_COUNTER));
        assertEquals(CWND_PACKETS, context.counter(LinuxHyStart.DELAY_CWND_COUNTER));
    }

    @Test
    void watchesOnlyFromSixteenPacketsInSlowStart()
    {
        final long first = round(0, 10, 0, MIN_RTT_NS, 5 * MILLIS_NS);
        sendUpTo(first + 40);
        for (int i = 0; i < 20; i++)
        {
            assertFalse(hyStart.onAck(100 * MILLIS_NS + i * 3 * MILLIS_NS, first + i, 60 * MILLIS_NS, true, 15,
                FAST_PACING_BYTES_PER_SECOND), "15 packets");
            assertFalse(hyStart.onAck(200 * MILLIS_NS + i * 3 * MILLIS_NS, first + 20 + i, 60 * MILLIS_NS, false,
                CWND_PACKETS, FAST_PACING_BYTES_PER_SECOND), "not in slow start");
        }
        assertEquals(0, context.counter(LinuxHyStart.DELAY_DETECT_COUNTER));
    }

    @Test
    void persistentCongestionRestartsDetectionWithANewMinimum()
    {
        long first = round(0, 10, 0, MIN_RTT_NS, 5 * MILLIS_NS);
        first = round(first, 20, 100 * MILLIS_NS, 60 * MILLIS_NS, 3 * MILLIS_NS);
        assertEquals(1, context.counter(LinuxHyStart.DELAY_DETECT_COUNTER));
        hyStart.onCongestionEvent();
        first = round(first, 20, 300 * MILLIS_NS, 100 * MILLIS_NS, 3 * MILLIS_NS);
        assertEquals(1, context.counter(LinuxHyStart.DELAY_DETECT_COUNTER), "found stays until a timeout");

        // After it, delay_min starts again: 100 ms is the new minimum, and 100 ms rounds do not exit.
        hyStart.onPersistentCongestion();
        first = round(first, 20, 1000 * MILLIS_NS, 100 * MILLIS_NS, 3 * MILLIS_NS);
        first = round(first, 20, 1200 * MILLIS_NS, 100 * MILLIS_NS, 3 * MILLIS_NS);
        assertEquals(1, context.counter(LinuxHyStart.DELAY_DETECT_COUNTER));

        // ... but a round above it by more than 12.5 ms does, again.
        round(first, 20, 1400 * MILLIS_NS, 113 * MILLIS_NS, 3 * MILLIS_NS);
        assertEquals(2, context.counter(LinuxHyStart.DELAY_DETECT_COUNTER));
    }

    @Test
    void insideCubicTheExitGoesStraightToCongestionAvoidanceWithSsthreshAtCwnd()
    {
        final long baseRttNs = 50 * MILLIS_NS;
        final CubicRig rig = new CubicRig("cubic.hystart=linux", baseRttNs);
        rig.path.runFor(4 * baseRttNs);
        assertEquals(CubicController.STATE_SLOW_START, rig.cubic.stateName());
        rig.path.propagationRttNs(baseRttNs + 7 * MILLIS_NS);

        final boolean left = rig.path.runUntil(rig.path.nowNs() + 4 * baseRttNs, () -> !rig.cubic.isInSlowStart());

        assertTrue(left, "a rise of 7 ms over a 50 ms minimum (threshold 6.25 ms) ends slow start");
        assertEquals(CubicController.STATE_CONGESTION_AVOIDANCE, rig.cubic.stateName(), "no CSS");
        assertNotEquals(Long.MAX_VALUE, rig.cubic.slowStartThresholdBytes());
        assertTrue(rig.cubic.congestionWindowBytes() - rig.cubic.slowStartThresholdBytes() < CubicRig.MSS);
        assertEquals(1, rig.context.counter(LinuxHyStart.DELAY_DETECT_COUNTER));
        assertEquals(0, rig.context.counter(CubicController.IN_CSS_COUNTER));
    }

    private void sendUpTo(final long packetsSent)
    {
        while (nextPacketNumber < packetsSent)
        {
            hyStart.onPacketSent(nextPacketNumber++);
        }
    }

    /**
     * One round: {@code samples} ACKs {@code gapNs} apart from {@code startNs}, of the packets from {@code first} on,
     * which were sent in the round before (so the ACK of {@code first} begins it).
     *
     * @return the first packet sent in this round: its ACK will begin the next.
     */
    private long round(final long first, final int samples, final long startNs, final long rttNs, final long gapNs)
    {
        sendUpTo(first + samples);
        final long nextRoundFirst = nextPacketNumber;
        for (int i = 0; i < samples; i++)
        {
            ack(startNs + i * gapNs, first + i, rttNs);
        }
        return nextRoundFirst;
    }

    private boolean ack(final long nowNs, final long packetNumber, final long rttNs)
    {
        return hyStart.onAck(nowNs, packetNumber, rttNs, true, CWND_PACKETS, FAST_PACING_BYTES_PER_SECOND);
    }
}
