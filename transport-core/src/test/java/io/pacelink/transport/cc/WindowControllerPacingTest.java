package io.pacelink.transport.cc;

import io.pacelink.transport.recovery.RecoveryConfig;
import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The pacing gain of the loss-based controllers, as Linux's {@code tcp_update_pacing_rate} (net/ipv4/tcp_input.c)
 * chooses it: 2.0 only while cwnd is below half of ssthresh, 1.2 from there on, also below ssthresh.
 */
class WindowControllerPacingTest
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long SRTT_NS = RecoveryConfig.DEFAULT_INITIAL_RTT_NS;
    private static final long SSTHRESH_BYTES = 2_000_000L;

    private final TestControllerContext context = new TestControllerContext(ControllerParameters.EMPTY);
    private final Window window = new Window(context);

    @Test
    void slowStartBeforeAnyReductionPacesAtTwiceTheWindowsRate()
    {
        window.set(100_000L, Long.MAX_VALUE);

        assertEquals(rate(WindowController.SLOW_START_PACING_GAIN, 100_000L), window.pacingRateBytesPerSecond());
    }

    @Test
    void belowHalfOfSsthreshPacesAtTwiceTheWindowsRate()
    {
        window.set(SSTHRESH_BYTES / 2 - 1, SSTHRESH_BYTES);

        assertEquals(rate(WindowController.SLOW_START_PACING_GAIN, SSTHRESH_BYTES / 2 - 1),
            window.pacingRateBytesPerSecond());
    }

    @Test
    void fromHalfOfSsthreshOnSlowStartPacesAtTheCongestionAvoidanceGain()
    {
        // A window PRR lowered below ssthresh after a burst of losses: still slow start by cwnd < ssthresh, but near
        // its end, so no bursts at twice the rate into the queue that just overflowed.
        window.set(SSTHRESH_BYTES / 2, SSTHRESH_BYTES);
        assertEquals(rate(WindowController.CONGESTION_AVOIDANCE_PACING_GAIN, SSTHRESH_BYTES / 2),
            window.pacingRateBytesPerSecond());

        window.set(SSTHRESH_BYTES - 1, SSTHRESH_BYTES);
        assertEquals(WindowController.STATE_SLOW_START, window.stateName());
        assertEquals(rate(WindowController.CONGESTION_AVOIDANCE_PACING_GAIN, SSTHRESH_BYTES - 1),
            window.pacingRateBytesPerSecond());
    }

    @Test
    void congestionAvoidancePacesAtOnePointTwoTimesTheWindowsRate()
    {
        window.set(3_000_000L, SSTHRESH_BYTES);

        assertEquals(rate(WindowController.CONGESTION_AVOIDANCE_PACING_GAIN, 3_000_000L),
            window.pacingRateBytesPerSecond());
    }

    private static long rate(final double gain, final long cwndBytes)
    {
        return (long)(gain * cwndBytes * NANOS_PER_SECOND / SRTT_NS);
    }

    /**
     * The base class alone, its window and threshold set by the test.
     */
    private static final class Window extends WindowController
    {
        Window(final ControllerContext context)
        {
            super(context);
        }

        void set(final long cwndBytes, final long ssthreshBytes)
        {
            congestionWindowBytes = cwndBytes;
            slowStartThresholdBytes = ssthreshBytes;
        }

        public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
        {
        }

        public void onAck(final AckEvent ack)
        {
        }

        public void onCongestionEvent(final CongestionEvent event)
        {
        }

        public void onSpuriousLoss(final long nowNs)
        {
        }

        public String stateName()
        {
            return isInSlowStart() ? STATE_SLOW_START : STATE_CONGESTION_AVOIDANCE;
        }

        public List<String> stateNames()
        {
            return WINDOW_STATE_NAMES;
        }
    }
}
