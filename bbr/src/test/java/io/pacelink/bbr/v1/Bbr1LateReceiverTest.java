package io.pacelink.bbr.v1;

import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A receiver that reads its socket late, a train at a time — its thread waits for a CPU and then drains what arrived
 * meanwhile — sends its ACKs compressed: five milliseconds of arrivals acknowledged within a fraction of a
 * millisecond. A sender that sends between the frames of one train stamps its packets with a delivered count from the
 * train's start and a delivered time from its end, so later samples measure more data than arrived in their span
 * (draft-cheng-iccrg-delivery-rate-estimation, "ACK compression"), and BBR's max filter keeps them: its bandwidth
 * estimate rises above the link, and it paces into the bottleneck's queue. When the receiver measures each frame's
 * ACK Delay from its largest packet's arrival (RFC 9000 section 13.2.5) and the sender times the delivery at the
 * frame's arrival less that delay, the samples span what the packets did at the receiver, and the estimate is the
 * link's.
 */
class Bbr1LateReceiverTest
{
    /**
     * 500 Mbit/s.
     */
    private static final long RATE_500_MBIT = 62_500_000L;
    private static final long RTT_NS = 38 * MS;
    private static final long READ_PERIOD_NS = 5 * MS;
    private static final long FRAME_SPACING_NS = 2_000L;
    private static final int ACK_EVERY = 10;

    /**
     * The ACK delay a sender asks for with ACK frequency on this path: a quarter of its min RTT.
     */
    private static final long PEER_MAX_ACK_DELAY_NS = RTT_NS / 4;

    @Test
    void anAckDelayFromTheArrivalKeepsTheEstimateAtTheLink()
    {
        final double withArrivalDelay = highestEstimateOverLink(true);
        final double withReadDelay = highestEstimateOverLink(false);

        assertEquals(1.0, withArrivalDelay, 0.02, "max_bw / link, ACK Delay from the arrival");
        assertTrue(withReadDelay > 1.04, "max_bw / link, ACK Delay from the read: " + withReadDelay);
    }

    /**
     * The sender believes a reported delay only up to the peer's max_ack_delay. With one of 2.5 ms — what ACK
     * frequency asks for on a 10 ms path — a receiver that reads every 5 ms reports delays beyond it, the excess
     * stays in the samples' spans, and part of the over-estimate with it.
     */
    @Test
    void delaysBeyondTheMaxAckDelayLeavePartOfTheOverEstimate()
    {
        final double clipped = highestEstimateOverLink(true, 2 * MS + MS / 2);
        assertTrue(clipped > 1.01 && clipped < highestEstimateOverLink(false), "max_bw / link " + clipped);
    }

    private static double highestEstimateOverLink(final boolean isAckDelayFromArrival)
    {
        return highestEstimateOverLink(isAckDelayFromArrival, PEER_MAX_ACK_DELAY_NS);
    }

    private static double highestEstimateOverLink(final boolean isAckDelayFromArrival, final long peerMaxAckDelayNs)
    {
        final Bbr1Run run = new Bbr1Run(RATE_500_MBIT, RTT_NS, 1);
        run.path.lossRecovery().peerMaxAckDelayNs(peerMaxAckDelayNs);
        run.path.ackEvery(ACK_EVERY).receiverReadsLate(READ_PERIOD_NS, FRAME_SPACING_NS, isAckDelayFromArrival);
        run.runUntilSeconds(2.0);
        long highestBytesPerSecond = 0;
        for (int i = 0; i < 40; i++)
        {
            run.runUntilSeconds(2.0 + 0.1 * (i + 1));
            highestBytesPerSecond = Math.max(highestBytesPerSecond, run.controller.maxBandwidthBytesPerSecond());
        }
        assertEquals(Bbr1State.PROBE_BW, run.controller.state());
        return highestBytesPerSecond / (double)RATE_500_MBIT;
    }
}
