package io.pacelink.scenario;

import io.pacelink.sim.scenario.ScenarioResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.pacelink.scenario.BbrScenarios.BASE_RTT_NS;
import static io.pacelink.scenario.BbrScenarios.DEEP_BUFFER_PATH;
import static io.pacelink.scenario.BbrScenarios.REVERSE_20MS;
import static io.pacelink.scenario.BbrScenarios.SECOND;
import static io.pacelink.scenario.BbrScenarios.bulk;
import static io.pacelink.scenario.BbrScenarios.figure;
import static io.pacelink.scenario.BbrScenarios.percentileMs;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 4 item 3: a clean 100 Mbit/s, 40 ms path with a ten-BDP buffer, 60 s. BBR fills the link without filling the
 * buffer; NewReno fills the buffer. The RTT is the sender's sample of every ACK (of its newest newly acknowledged
 * packet).
 */
@Timeout(180)
class BbrDeepBufferTest
{
    private static final long DURATION_NS = 60 * SECOND;
    private static final double BASE_RTT_MS = BASE_RTT_NS / 1e6;

    /**
     * The settled p95 RTT bound for BBRv3 on this path (the draft's figure is 61.9 to 62.5 ms).
     */
    private static final double BBR3_P95_RTT_BOUND_MS = 65.0;

    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void bbrFillsTheLinkWithAtMostHalfABdpOfQueueAtP95(final long seed)
    {
        final Measured measured = run("bbr", seed);
        assertTrue(measured.utilisation() >= 0.95, "utilisation " + measured.utilisation());
        assertTrue(measured.p95RttMs() <= 1.5 * BASE_RTT_MS, "p95 RTT " + measured.p95RttMs() + " ms");
    }

    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void bbr3FillsTheLink(final long seed)
    {
        final Measured measured = run("bbr3", seed);
        assertTrue(measured.utilisation() >= 0.95, "utilisation " + measured.utilisation());
    }

    /**
     * The settled bound: BBRv3 as draft-ietf-ccwg-bbr specifies it keeps the p95 RTT at or below 65 ms (1.625 x the
     * 40 ms base RTT) on this path; the faithful figure is 61.9 and 62.5 ms on seeds 1 and 2 (58.9 to 62.8 ms over
     * seeds 1 to 8), utilisation 96.5 %. Issue 9 had held it to BBRv1's 1.5 x, which the draft cannot meet here: every
     * 2 to 3 s ProbeBW_UP paces at 1.25 x for the three round starts its bandwidth plateau needs, queueing about one
     * BDP, and ProbeBW_DOWN at 0.9 x takes 330 ms to drain it (docs/bbr.md, "Item 3"). The gate catches a regression
     * of the model or the probing cycle.
     */
    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void bbr3KeepsP95RttWithinTheSettledBound(final long seed)
    {
        final Measured measured = run("bbr3", seed);
        assertTrue(measured.p95RttMs() <= BBR3_P95_RTT_BOUND_MS, "p95 RTT " + measured.p95RttMs() + " ms");
    }

    @Test
    void newRenoFillsTheBuffer()
    {
        final Measured measured = run("reno", 1);
        assertTrue(measured.p95RttMs() >= 5 * BASE_RTT_MS, "p95 RTT " + measured.p95RttMs() + " ms");
    }

    private static Measured run(final String controller, final long seed)
    {
        final BbrTelemetry telemetry = new BbrTelemetry(SECOND);
        final ScenarioResult result = bulk(controller, DEEP_BUFFER_PATH, REVERSE_20MS, seed, DURATION_NS, telemetry);
        final Histogram rtt = telemetry.sender().rttNs();
        final Measured measured = new Measured(result.forward().utilisation(), percentileMs(rtt, 95));
        figure(3, controller, seed, "utilisation_percent", 100 * measured.utilisation());
        figure(3, controller, seed, "rtt_p50_ms", percentileMs(rtt, 50));
        figure(3, controller, seed, "rtt_p95_ms", measured.p95RttMs());
        figure(3, controller, seed, "goodput_mbit", result.flow(0).goodputBitsPerSecond() / 1e6);
        return measured;
    }

    private record Measured(double utilisation, double p95RttMs)
    {
    }
}
