package io.pacelink.link;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What in a valid path spec leaves flows with (almost) nothing: a rate at which one packet takes seconds, every
 * packet lost, round trips longer than a connection's handshake may take. netem and tc accept such settings, so a
 * spec with them stays valid; the tools print these warnings (on stderr, and in {@code pacelink sim --json}) so a run
 * that delivers nothing is not mistaken for a result.
 */
public final class PathWarnings
{
    /**
     * One full-size packet of a path with a 1500-byte MTU: what a rate is judged by.
     */
    public static final int FULL_PACKET_BYTES = 1500;

    /**
     * A rate at which one full-size packet takes longer than this is too slow for any transfer to make progress.
     */
    public static final long SLOWEST_PACKET_NS = 1_000_000_000L;

    private PathWarnings()
    {
    }

    /**
     * @param path both directions.
     * @return the warnings about either direction, each naming it ("forward: loss=100% ..."); empty if none.
     */
    public static List<String> of(final PathSpec.Pair path)
    {
        final List<String> warnings = new ArrayList<>();
        add(warnings, "forward", path.forward());
        if (!path.reverse().equals(path.forward()))
        {
            add(warnings, "reverse", path.reverse());
        }
        return warnings;
    }

    /**
     * @param spec one direction.
     * @return the warnings about it; empty if none.
     */
    public static List<String> of(final PathSpec spec)
    {
        final List<String> warnings = new ArrayList<>();
        add(warnings, null, spec);
        return warnings;
    }

    /**
     * The longest a packet can take through a direction, not counting its queue: the delay plus the most the jitter
     * adds (the half-width of uniform jitter, {@link JitterDistribution#NORMAL_CUTOFF_SIGMAS} standard deviations of
     * normal jitter).
     *
     * @param spec one direction.
     * @return the worst one-way delay in ns.
     */
    public static long worstOneWayDelayNs(final PathSpec spec)
    {
        final double jitterReach = JitterDistribution.NORMAL == spec.jitterDistribution() ?
            JitterDistribution.NORMAL_CUTOFF_SIGMAS * spec.jitterNs() : spec.jitterNs();
        return spec.delayNs() + (long)Math.min(Long.MAX_VALUE / 4, jitterReach);
    }

    private static void add(final List<String> warnings, final String direction, final PathSpec spec)
    {
        final String prefix = null == direction ? "" : direction + ": ";
        final long rateBitsPerSecond = spec.rate().nominalBitsPerSecond();
        if (rateBitsPerSecond != RateSchedule.UNLIMITED_BITS_PER_SECOND && rateBitsPerSecond > 0 &&
            isTooSlow(rateBitsPerSecond))
        {
            warnings.add(prefix + spec.rate().toSpec() + ": one " + FULL_PACKET_BYTES + "-byte packet takes " +
                duration(packetNs(rateBitsPerSecond)) + " to send, so a transfer delivers almost nothing");
        }
        if (spec.policer().isPresent() && isTooSlow(spec.policer().rateBitsPerSecond()))
        {
            warnings.add(prefix + "police=" + SpecUnits.formatRate(spec.policer().rateBitsPerSecond()) +
                ": the bucket refills one " + FULL_PACKET_BYTES + "-byte packet every " +
                duration(packetNs(spec.policer().rateBitsPerSecond())) + ", so a transfer delivers almost nothing");
        }
        if (spec.loss().meanLossRate() >= 1.0)
        {
            warnings.add(prefix + spec.loss().toSpec() + ": every packet is lost, so nothing gets through");
        }
    }

    private static boolean isTooSlow(final long bitsPerSecond)
    {
        return packetNs(bitsPerSecond) > SLOWEST_PACKET_NS;
    }

    private static double packetNs(final long bitsPerSecond)
    {
        return 8.0 * FULL_PACKET_BYTES * 1e9 / bitsPerSecond;
    }

    /**
     * @param ns a span.
     * @return it in the largest unit that keeps it above 1, e.g. "3.3 h" or "1.2 s".
     */
    public static String duration(final double ns)
    {
        final double seconds = ns / 1e9;
        if (seconds >= 86_400)
        {
            return String.format(Locale.ROOT, "%.3g days", seconds / 86_400);
        }
        if (seconds >= 3_600)
        {
            return String.format(Locale.ROOT, "%.3g h", seconds / 3_600);
        }
        if (seconds >= 60)
        {
            return String.format(Locale.ROOT, "%.3g min", seconds / 60);
        }
        return String.format(Locale.ROOT, "%.3g s", seconds);
    }
}
