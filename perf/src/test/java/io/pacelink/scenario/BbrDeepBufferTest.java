package io.pacelink.scenario;

import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.PacelinkContext;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.function.Consumer;

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
        // The bound is on the sender's RTT samples with the receiver acknowledging within its 1 ms max ACK delay.
        // With ACK frequency negotiated (the default) a sample also holds the receiver's deliberate wait of up to a
        // quarter RTT (10 ms here) for more packets to acknowledge at once: p95 61.9 -> 68.6 ms on seed 1
        // while the bottleneck's p95 queueing delay moved 21.8 -> 23.2 ms (perf/FINDINGS.md, branch cpu10). So this
        // gate measures the queue through RTT samples with the extension off, and the next one measures the queue
        // itself with it on.
        final Measured measured = run("bbr3", seed, (context) -> context.ackFrequency(false));
        assertTrue(measured.p95RttMs() <= BBR3_P95_RTT_BOUND_MS, "p95 RTT " + measured.p95RttMs() + " ms");
    }

    /**
     * {@link #bbr3KeepsP95RttWithinTheSettledBound}'s bound with ACK frequency negotiated, on what it stands for: the
     * bottleneck's p95 queueing delay within the bound less the 40 ms base RTT (25 ms; with the extension off the
     * queue's p95 is 21.8 and 22.4 ms on seeds 1 and 2, with it on 23.2 and 23.0 ms).
     */
    @ParameterizedTest
    @ValueSource(longs = { 1, 2 })
    void bbr3WithAckFrequencyKeepsP95QueueingDelayWithinTheSettledBound(final long seed)
    {
        final ScenarioResult result = bulk("bbr3", DEEP_BUFFER_PATH, REVERSE_20MS, seed, DURATION_NS, null,
            (context) -> context.ackFrequency(true));
        final double queueP95Ms = result.forward().queueDelay().p95Ns() / 1e6;
        assertTrue(queueP95Ms <= BBR3_P95_RTT_BOUND_MS - BASE_RTT_MS, "p95 queueing delay " + queueP95Ms + " ms");
        assertTrue(result.forward().utilisation() >= 0.95, "utilisation " + result.forward().utilisation());
    }

    @Test
    void newRenoFillsTheBuffer()
    {
        final Measured measured = run("reno", 1);
        assertTrue(measured.p95RttMs() >= 5 * BASE_RTT_MS, "p95 RTT " + measured.p95RttMs() + " ms");
    }

    private static Measured run(final String controller, final long seed)
    {
        return run(controller, seed, (context) -> { });
    }

    private static Measured run(
        final String controller, final long seed, final Consumer<PacelinkContext> customizer)
    {
        final BbrTelemetry telemetry = new BbrTelemetry(SECOND);
        final ScenarioResult result =
            bulk(controller, DEEP_BUFFER_PATH, REVERSE_20MS, seed, DURATION_NS, telemetry, customizer);
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
