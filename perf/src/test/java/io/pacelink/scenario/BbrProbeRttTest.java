package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.transport.cc.ControllerParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.pacelink.scenario.BbrScenarios.BASE_RTT_NS;
import static io.pacelink.scenario.BbrScenarios.MS;
import static io.pacelink.scenario.BbrScenarios.PACKET_BYTES;
import static io.pacelink.scenario.BbrScenarios.SECOND;
import static io.pacelink.scenario.BbrScenarios.figure;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 4 item 5: PROBE_RTT on a stable 20 Mbit/s, 40 ms path with one BDP of buffer (the rate only scales the
 * simulation's cost; PROBE_RTT is timed in seconds and rounds). The flow enters PROBE_RTT one interval (10 s for v1,
 * 5 s for v3) after the previous one ended, which is when Linux and the draft restart the min_rtt clock; holds bytes in
 * flight at 4 packets (v1) or half the BDP (v3) for at least 200 ms and one round; and its min RTT follows the path
 * when both one-way delays step from 20 ms to 40 ms.
 */
@Timeout(120)
class BbrProbeRttTest
{
    private static final String PATH = "rate=20mbit delay=20ms queue=1bdp";
    private static final String REVERSE = "delay=20ms";
    private static final double BDP_BYTES = 20e6 / 8 * 0.040;
    private static final long NEW_ONE_WAY_DELAY_NS = 40 * MS;

    /**
     * The min RTT after the delay step: 80 ms of propagation (plus serialization, not counted here).
     */
    private static final long NEW_BASE_RTT_NS = 2 * NEW_ONE_WAY_DELAY_NS;

    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void bbrProbesRttEveryTenSecondsAtFourPacketsAndFollowsADelayStep(final long seed)
    {
        final long changeNs = 22 * SECOND;
        final BbrTelemetry.Recorder bbr = run("bbr", seed, changeNs, 33 * SECOND);
        checkProbeRtts("bbr", seed, bbr, changeNs, 10 * SECOND, 4.0 * PACKET_BYTES);
        final double trackedSeconds = minRttTrackingSeconds("bbr", seed, bbr, changeNs);
        assertTrue(trackedSeconds <= (10 * SECOND + BASE_RTT_NS) / 1e9, "min RTT followed after " + trackedSeconds);
    }

    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void bbr3ProbesRttEveryFiveSecondsAtHalfTheBdpAndFollowsADelayStepWithinTwoIntervals(final long seed)
    {
        final long changeNs = 16 * SECOND;
        final BbrTelemetry.Recorder bbr = run("bbr3", seed, changeNs, 27 * SECOND);
        // Half the BDP, rounded up to whole packets the way a window is used (one more may leave while below cwnd).
        checkProbeRtts("bbr3", seed, bbr, changeNs, 5 * SECOND, 0.5 * BDP_BYTES + 2 * PACKET_BYTES);
        // Issue 9 item 1: BBRv3 follows the draft, so its min RTT must follow the step within two probe intervals,
        // 11 s, not one (measured: 9.91 s on seed 1, 9.89 s on seed 2). The ProbeRTT after the step measures 80 ms
        // within 5 s, but min_rtt takes it only when its own 10 s stamp expires, so the lag is 5 to 10 s with the
        // step's phase. bbr3.minRttFilterLengthMs trades this (the next test).
        final double trackedSeconds = minRttTrackingSeconds("bbr3", seed, bbr, changeNs);
        assertTrue(trackedSeconds <= 11.0, "min RTT followed after " + trackedSeconds);
        // The draft keeps min_rtt for MinRTTFilterLen = 10 s and refreshes it from the 5 s ProbeRTT filter only when
        // it expires (draft 5.5.7, Linux bbr_update_min_rtt): what it guarantees is one filter length, plus the
        // ProbeRTT that measures the new delay if the filter expires while it runs.
        assertTrue(trackedSeconds <= (10 * SECOND + 200 * MS + BASE_RTT_NS) / 1e9,
            "min RTT followed after " + trackedSeconds);
    }

    /**
     * A min_rtt filter as long as the ProbeRTT interval ({@code bbr3.minRttFilterLengthMs=5000}, Linux's and the
     * draft's way to trade a faster reaction to a longer path against more frequent refreshes) follows the step
     * within one probe interval.
     */
    @Test
    void bbr3WithAFiveSecondMinRttFilterFollowsADelayStepWithinOneProbeRttInterval()
    {
        final long changeNs = 16 * SECOND;
        final BbrTelemetry.Recorder bbr = run("bbr3", ControllerParameters.parse("bbr3.minRttFilterLengthMs=5000"), 1,
            changeNs, 27 * SECOND);
        final double trackedSeconds = minRttTrackingSeconds("bbr3-filter-5s", 1, bbr, changeNs);
        assertTrue(trackedSeconds <= (5 * SECOND + 200 * MS + BASE_RTT_NS) / 1e9,
            "min RTT followed after " + trackedSeconds);
    }

    private static BbrTelemetry.Recorder run(
        final String controller, final long seed, final long changeNs, final long durationNs)
    {
        return run(controller, ControllerParameters.EMPTY, seed, changeNs, durationNs);
    }

    private static BbrTelemetry.Recorder run(
        final String controller,
        final ControllerParameters parameters,
        final long seed,
        final long changeNs,
        final long durationNs)
    {
        final BbrTelemetry telemetry = new BbrTelemetry(10 * MS);
        Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse(PATH, REVERSE))
            .durationNs(durationNs)
            .flow(FlowSpec.bulk(controller).with(parameters))
            .registry(telemetry.registry())
            .pathChange(changeNs, (dumbbell) ->
            {
                dumbbell.forward().propagationDelayNs(NEW_ONE_WAY_DELAY_NS);
                dumbbell.reverse().propagationDelayNs(NEW_ONE_WAY_DELAY_NS);
            })
            .build()
            .run();
        return telemetry.sender();
    }

    /**
     * Check every PROBE_RTT that ended before the delay step.
     */
    private static void checkProbeRtts(
        final String controller,
        final long seed,
        final BbrTelemetry.Recorder bbr,
        final long changeNs,
        final long intervalNs,
        final double maxInflightBytes)
    {
        int checked = 0;
        for (int i = 0; i < bbr.probeRtts() && bbr.probeRttExitNs(i) < changeNs; i++)
        {
            final double atFloorMs = (bbr.probeRttExitNs(i) - bbr.probeRttFloorNs(i)) / 1e6;
            figure(5, controller, seed, "probe_rtt_at_" + i + "_entry_s", bbr.probeRttEntryNs(i) / 1e9);
            figure(5, controller, seed, "probe_rtt_at_" + i + "_floor_ms", atFloorMs);
            figure(5, controller, seed, "probe_rtt_at_" + i + "_floor_rounds", bbr.probeRttRoundsAtFloor(i));
            figure(5, controller, seed, "probe_rtt_at_" + i + "_max_inflight_packets",
                bbr.probeRttMaxInflight(i) / (double)PACKET_BYTES);
            assertTrue(bbr.probeRttMaxInflight(i) <= maxInflightBytes,
                "PROBE_RTT " + i + " held " + bbr.probeRttMaxInflight(i) + " bytes in flight");
            assertTrue(atFloorMs >= 200, "PROBE_RTT " + i + " at its floor for " + atFloorMs + " ms");
            assertTrue(bbr.probeRttRoundsAtFloor(i) >= 1, "PROBE_RTT " + i + " lasted less than a round");
            if (i > 0)
            {
                final long sincePreviousNs = bbr.probeRttEntryNs(i) - bbr.probeRttExitNs(i - 1);
                figure(5, controller, seed, "probe_rtt_interval_s", sincePreviousNs / 1e9);
                assertTrue(Math.abs(sincePreviousNs - intervalNs) <= BASE_RTT_NS,
                    "PROBE_RTT " + i + " began " + sincePreviousNs + " ns after the previous one ended");
            }
            checked++;
        }
        assertTrue(checked >= 2, "only " + checked + " PROBE_RTT before the delay step");
    }

    private static double minRttTrackingSeconds(
        final String controller, final long seed, final BbrTelemetry.Recorder bbr, final long changeNs)
    {
        final int tracked = bbr.firstSampleWithMinRttAtLeast(changeNs, NEW_BASE_RTT_NS);
        assertTrue(tracked >= 0, "min RTT never followed the delay step");
        final double seconds = (bbr.sampleNs(tracked) - changeNs) / 1e9;
        figure(5, controller, seed, "min_rtt_tracking_s", seconds);
        return seconds;
    }
}
