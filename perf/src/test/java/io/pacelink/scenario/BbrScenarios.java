package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.FlowOutcome;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;
import io.pacelink.sim.scenario.ScenarioResult;
import io.pacelink.transport.PacelinkContext;
import org.HdrHistogram.Histogram;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Paths, runners and the figure printer of the BBR acceptance suite (issue 4, items 1 to 9). The reverse (ACK)
 * direction carries the forward direction's delay (and, on the lossy long path, its jitter) and nothing else: no
 * bottleneck, no loss. Every test prints its figures as {@code BBR-FIGURE} lines, which docs/bbr.md tabulates.
 */
final class BbrScenarios
{
    static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    /**
     * One full datagram: what "a packet" is in the issue.
     */
    static final int PACKET_BYTES = PacelinkContext.DEFAULT_MAX_DATAGRAM_SIZE_BYTES;

    static final String LOSSY_LONG_PATH = "rate=100mbit delay=75ms jitter=7.5ms loss=8% queue=1bdp";
    static final String LOSSY_LONG_REVERSE = "delay=75ms jitter=7.5ms";

    static final String LOSSY_FAST_PATH = "rate=500mbit delay=19ms loss=1% queue=1bdp";
    static final String LOSSY_FAST_REVERSE = "delay=19ms";

    static final String DEEP_BUFFER_PATH = "rate=100mbit delay=20ms queue=10bdp";

    /**
     * The 100 Mbit/s, 40 ms path of items 4 to 8 (queue given per item), reverse direction.
     */
    static final String REVERSE_20MS = "delay=20ms";
    static final long BASE_RTT_NS = 40 * MS;
    static final double BDP_100_MBIT_BYTES = 100e6 / 8 * 0.040;

    private BbrScenarios()
    {
    }

    /**
     * One bulk flow on a path.
     *
     * @param controller controller name.
     * @param forward    forward path spec.
     * @param reverse    reverse path spec.
     * @param seed       seed.
     * @param durationNs simulated time.
     * @param telemetry  records the controllers, or null.
     * @return the result.
     */
    static ScenarioResult bulk(
        final String controller,
        final String forward,
        final String reverse,
        final long seed,
        final long durationNs,
        final BbrTelemetry telemetry)
    {
        return bulk(controller, forward, reverse, seed, durationNs, telemetry, (context) -> { });
    }

    /**
     * {@link #bulk(String, String, String, long, long, BbrTelemetry)} with both endpoints' contexts adjusted.
     *
     * @param customizer applied to both endpoints' contexts (e.g. ACK frequency off).
     */
    static ScenarioResult bulk(
        final String controller,
        final String forward,
        final String reverse,
        final long seed,
        final long durationNs,
        final BbrTelemetry telemetry,
        final Consumer<PacelinkContext> customizer)
    {
        final Scenario.Builder builder = Scenario.builder()
            .seed(seed)
            .path(PathSpec.Pair.parse(forward, reverse))
            .durationNs(durationNs)
            .flow(FlowSpec.bulk(controller))
            .contextCustomizer(customizer);
        if (null != telemetry)
        {
            builder.registry(telemetry.registry());
        }
        return builder.build().run();
    }

    /**
     * @param flow a flow outcome.
     * @return packets found to have arrived after they were declared lost, per packet sent.
     */
    static double spuriousRetransmissionRatio(final FlowOutcome flow)
    {
        return flow.spuriousLosses() / (double)Math.max(1, flow.packetsSent());
    }

    /**
     * @param histogram RTT samples in ns.
     * @param percentile 0 to 100.
     * @return the percentile in ms.
     */
    static double percentileMs(final Histogram histogram, final double percentile)
    {
        return histogram.getValueAtPercentile(percentile) / 1e6;
    }

    /**
     * Print one measured figure for the note.
     *
     * @param item       issue item number.
     * @param controller controller name.
     * @param seed       seed.
     * @param name       figure name with its unit.
     * @param value      the figure.
     */
    static void figure(final int item, final String controller, final long seed, final String name, final double value)
    {
        System.out.printf(
            Locale.ROOT, "BBR-FIGURE item=%d cc=%s seed=%d %s=%.4f%n", item, controller, seed, name, value);
    }
}
