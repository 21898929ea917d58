package io.pacelink.scenario;

import io.pacelink.sim.scenario.ScenarioResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Disabled;
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

    @Disabled("Not met by BBRv3 as draft-ietf-ccwg-bbr and Linux v3 specify it: measured p95 RTT 58.9 ms (seed 1) " +
        "and 60.5 ms (seed 2) against 50 ms. Every 2-3 s ProbeBW_UP paces at 1.25x until the delivery rate has not " +
        "grown for 3 rounds (draft 5.3.1.2, A.5), queueing about 0.9 BDP, and ProbeBW_DOWN at 0.9x needs about 9 " +
        "rounds to drain it: 15-20 % of the ACKs see more than a quarter BDP of queue. Ending UP after one round of " +
        "probe feedback (2 rounds) gives 46-50 ms, after 1 round 40 ms; both deviate from the draft: docs/bbr.md.")
    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void bbr3KeepsP95RttWithinAQuarterBdpOfQueue(final long seed)
    {
        final Measured measured = run("bbr3", seed);
        assertTrue(measured.p95RttMs() <= 1.25 * BASE_RTT_MS, "p95 RTT " + measured.p95RttMs() + " ms");
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
