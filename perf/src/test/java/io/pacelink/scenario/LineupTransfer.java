package io.pacelink.scenario;

import io.pacelink.link.PathSpec;
import io.pacelink.sim.scenario.FlowSpec;
import io.pacelink.sim.scenario.Scenario;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * One download of a fixed size in the simulator, the way the seed measurement made one: a bulk flow on the lossy long
 * path until its receiving application has {@code sizeBytes}, with the delivered bytes sampled every
 * {@link #SAMPLE_INTERVAL_NS}. The flow is bulk throughout, so up to the moment it completes it is exactly what a
 * transfer of that size does (its tail aside); the run stops once it completes or after {@code maxDurationNs}.
 */
final class LineupTransfer
{
    /**
     * How often the delivered bytes are sampled.
     */
    static final long SAMPLE_INTERVAL_NS = 100_000_000L;

    private final String controller;
    private final long seed;
    private final long sizeBytes;
    private long[] deliveredBytes = new long[1024];
    private int samples;
    private long completionNs = -1;
    private Map<String, Long> controllerCounters = Map.of();

    private LineupTransfer(final String controller, final long seed, final long sizeBytes)
    {
        this.controller = controller;
        this.seed = seed;
        this.sizeBytes = sizeBytes;
    }

    /**
     * @param controller    the controller.
     * @param seed          the seed.
     * @param path          forward and reverse path.
     * @param sizeBytes     the download's size.
     * @param maxDurationNs give up after this much simulated time.
     * @return the transfer, complete or not.
     */
    static LineupTransfer run(
        final String controller, final long seed, final PathSpec.Pair path, final long sizeBytes,
        final long maxDurationNs)
    {
        final LineupTransfer transfer = new LineupTransfer(controller, seed, sizeBytes);
        transfer.controllerCounters = Scenario.builder()
            .seed(seed)
            .path(path)
            .durationNs(maxDurationNs)
            .flow(FlowSpec.bulk(controller))
            .progress(SAMPLE_INTERVAL_NS, (flowIndex, nowNs, delivered, stats) -> transfer.onSample(nowNs, delivered))
            .build()
            .run((nowNs, eventsFired) -> transfer.completionNs < 0)
            .flow(0)
            .controllerCounters();
        return transfer;
    }

    private void onSample(final long nowNs, final long delivered)
    {
        if (samples == deliveredBytes.length)
        {
            deliveredBytes = Arrays.copyOf(deliveredBytes, 2 * samples);
        }
        final long previous = samples > 0 ? deliveredBytes[samples - 1] : 0;
        deliveredBytes[samples++] = delivered;
        if (completionNs < 0 && delivered >= sizeBytes)
        {
            // Interpolate within the sample interval: delivery is nearly even at this time scale.
            final double fraction = (sizeBytes - previous) / (double)Math.max(1, delivered - previous);
            completionNs = nowNs - SAMPLE_INTERVAL_NS + (long)(fraction * SAMPLE_INTERVAL_NS);
        }
    }

    /**
     * @param name a counter of the sender's controller, without the controller's prefix
     *             (e.g. {@code lt-bw-engagements}).
     * @return its value when the run stopped, shortly after the download completed; 0 if the controller has none.
     */
    long controllerCounter(final String name)
    {
        return controllerCounters.getOrDefault(controller + "-" + name, 0L);
    }

    boolean isComplete()
    {
        return completionNs >= 0;
    }

    /**
     * @return seconds to deliver the whole size, or NaN if it did not complete.
     */
    double completionSeconds()
    {
        return isComplete() ? completionNs / 1e9 : Double.NaN;
    }

    /**
     * @return the download's mean goodput in bit/s (size over completion time), or over the run if incomplete.
     */
    double meanGoodputBitsPerSecond()
    {
        if (isComplete())
        {
            return 8.0 * sizeBytes / (completionNs / 1e9);
        }
        return 8.0 * deliveredAt(samples - 1) / (samples * SAMPLE_INTERVAL_NS / 1e9);
    }

    /**
     * @param fraction a share of the size, 0 to 1.
     * @return when the receiver had that share, in seconds, interpolated within the sample interval; NaN if it never
     * did.
     */
    double secondsToReach(final double fraction)
    {
        final long target = (long)(fraction * sizeBytes);
        if (target <= 0)
        {
            return 0;
        }
        for (int i = 0; i < samples; i++)
        {
            if (deliveredBytes[i] >= target)
            {
                final long before = deliveredAt(i - 1);
                final double within = (target - before) / (double)Math.max(1, deliveredBytes[i] - before);
                return (i + within) * SAMPLE_INTERVAL_NS / 1e9;
            }
        }
        return Double.NaN;
    }

    /**
     * @param fromFraction start of a slice of the download, 0 to 1.
     * @param toFraction   its end.
     * @return the goodput over that slice in bit/s, NaN if the download never got through it.
     */
    double sliceGoodputBitsPerSecond(final double fromFraction, final double toFraction)
    {
        final double seconds = secondsToReach(toFraction) - secondsToReach(fromFraction);
        return 8.0 * (toFraction - fromFraction) * sizeBytes / seconds;
    }

    private long deliveredAt(final int sample)
    {
        return sample < 0 ? 0 : Math.min(deliveredBytes[sample], sizeBytes);
    }

    public String toString()
    {
        return String.format(Locale.ROOT, "%s seed %d: %s, %.3f Mbit/s", controller, seed,
            isComplete() ? String.format(Locale.ROOT, "%.1f s", completionSeconds()) : "incomplete",
            meanGoodputBitsPerSecond() / 1e6);
    }
}
