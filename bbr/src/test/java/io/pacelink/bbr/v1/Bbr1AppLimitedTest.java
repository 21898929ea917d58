package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.RecordingController;
import io.pacelink.transport.testing.TestControllerContext;
import org.junit.jupiter.api.Test;

import static io.pacelink.bbr.v1.Bbr1Run.MS;
import static io.pacelink.bbr.v1.Bbr1Run.MSS;
import static io.pacelink.bbr.v1.Bbr1Run.RATE_100_MBIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Application-limited samples (Linux {@code bbr_update_bw}) and restart from idle (Linux {@code bbr_cwnd_event},
 * {@code CA_EVENT_TX_START}).
 */
class Bbr1AppLimitedTest
{
    private long lowestAppLimitedSample = Long.MAX_VALUE;
    private long lowestMaxBw = Long.MAX_VALUE;
    private long appLimitedSamples;

    @Test
    void appLimitedSamplesBelowMaxBwDoNotLowerTheEstimate()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 100 * MS, 5);
        final Bbr1Controller bbr = run.controller;
        run.runUntilSeconds(3.0);
        assertEquals(Bbr1State.PROBE_BW, bbr.state());
        final long roundsBefore = bbr.roundCount();

        // 120 KB every 100 ms: about 10 % of the link for 5 s, i.e. ~50 rounds, five bandwidth-filter windows.
        run.path.appChunks(120_000, 100 * MS);
        run.path.listener((path) ->
        {
            if (path.lastAck().isSampleAppLimited() && path.lastAck().hasRateSample())
            {
                appLimitedSamples++;
                lowestAppLimitedSample = Math.min(lowestAppLimitedSample, path.lastAck().deliveryRateBytesPerSecond());
            }
            lowestMaxBw = Math.min(lowestMaxBw, bbr.maxBandwidthBytesPerSecond());
        });
        run.runUntilSeconds(8.0);

        assertTrue(bbr.roundCount() - roundsBefore >= 40, "rounds " + (bbr.roundCount() - roundsBefore));
        assertTrue(appLimitedSamples > 1000);
        assertTrue(lowestAppLimitedSample < 0.2 * RATE_100_MBIT, "lowest sample " + lowestAppLimitedSample);
        assertTrue(lowestMaxBw >= 0.98 * RATE_100_MBIT, "max_bw fell to " + lowestMaxBw);
        assertEquals(Bbr1State.PROBE_BW, bbr.state());
    }

    @Test
    void appLimitedSampleAboveMaxBwIsTakenAndBelowIsIgnored()
    {
        // bbr_update_bw's rule on its own, fed samples directly: an application-limited sample is taken only if it
        // is at least max_bw.
        final TestControllerContext context = new TestControllerContext(MSS, 1, ControllerParameters.EMPTY);
        final Bbr1Controller bbr = new Bbr1Controller(context, Bbr1Parameters.from(ControllerParameters.EMPTY));

        bbr.onAck(sample(100 * MS, 1, 1_000_000, false));
        assertEquals(1_000_000, bbr.maxBandwidthBytesPerSecond());
        bbr.onAck(sample(101 * MS, 2, 3_000_000, true));
        assertEquals(3_000_000, bbr.maxBandwidthBytesPerSecond());
        bbr.onAck(sample(102 * MS, 3, 500_000, true));
        assertEquals(3_000_000, bbr.maxBandwidthBytesPerSecond());
    }

    @Test
    void restartFromIdleInProbeBwPacesAtTheEstimate()
    {
        final Bbr1Run run = new Bbr1Run(RATE_100_MBIT, 100 * MS, 6);
        final Bbr1Controller bbr = run.controller;
        run.runUntilSeconds(3.0);
        run.path.appChunks(120_000, 300 * MS);
        // An app-limited flow never reaches 5/4 BDP inflight, so it sits in the 5/4 phase.
        while (!(0 == run.path.bytesInFlight() && 0 == bbr.cycleIndex() && run.elapsedSeconds() > 4.0))
        {
            run.path.runFor(MS);
        }
        final long bw = bbr.maxBandwidthBytesPerSecond();
        assertEquals(Bbr1Run.expectedPacingRate(bw, 1.25), bbr.pacingRateBytesPerSecond());

        // The application's next write finds nothing in flight: the transport restarts the controller from idle.
        final long[] pacingAfterRestart = { -1 };
        run.path.recorder().observer((callback, nowNs, bytesInFlight) ->
        {
            if ("idle".equals(callback) && pacingAfterRestart[0] < 0)
            {
                pacingAfterRestart[0] = bbr.pacingRateBytesPerSecond();
            }
        });
        run.path.runFor(300 * MS);
        assertEquals(Bbr1Run.expectedPacingRate(bw, 1.0), pacingAfterRestart[0]);
    }

    /**
     * One ACK of one packet with a 50 ms rate sample.
     */
    private static RecordingController.Ack sample(
        final long nowNs, final long packetNumber, final long rateBytesPerSecond, final boolean isAppLimited)
    {
        final long deliveredBytes = packetNumber * MSS;
        return new RecordingController.Ack(
            nowNs, MSS, 0, MSS, 0, packetNumber, 50 * MS, false, false, true, deliveredBytes, 0,
            true, rateBytesPerSecond, MSS, 50 * MS, deliveredBytes - MSS, MSS, 0, isAppLimited, null);
    }
}
