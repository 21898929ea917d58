package io.pacelink.cli;

import io.pacelink.sim.scenario.FlowSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns {@code --cc}, {@code --flows}, {@code --start} and {@code --stop} into the flows of a simulated scenario.
 * <ul>
 *     <li>{@code --cc} lists controllers (repeatable or comma separated): one flow each, in order.</li>
 *     <li>{@code --flows N} makes N flows, taking the {@code --cc} controllers in turn ({@code --cc reno,cubic
 *     --flows 4} is reno, cubic, reno, cubic); {@code --flows reno,reno,bbr} lists the flows' controllers instead.</li>
 *     <li>{@code --start} and {@code --stop} give each flow its window, in flow order; flows without a value start at
 *     0 s and run to the end.</li>
 * </ul>
 */
final class FlowArguments
{
    private FlowArguments()
    {
    }

    /**
     * @param controllers the {@code --cc} values (never empty).
     * @param flows       the {@code --flows} value (a count or a controller list), or null.
     * @param starts      the {@code --start} values, or null.
     * @param stops       the {@code --stop} values, or null.
     * @param durationNs  the scenario's length.
     * @return the flows.
     * @throws IllegalArgumentException saying which argument is wrong and why.
     */
    static List<FlowSpec> flows(
        final List<String> controllers,
        final String flows,
        final List<Duration> starts,
        final List<Duration> stops,
        final long durationNs)
    {
        final List<String> flowControllers = flowControllers(controllers, flows);
        final int count = flowControllers.size();
        checkAligned("--start", starts, count);
        checkAligned("--stop", stops, count);

        final List<FlowSpec> specs = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final long startNs = null != starts && i < starts.size() ? starts.get(i).nanos() : 0;
            final long stopNs = null != stops && i < stops.size() ? stops.get(i).nanos() : Long.MAX_VALUE;
            if (startNs >= durationNs)
            {
                throw new IllegalArgumentException("flow " + i + " starts at " + Units.seconds(startNs) +
                    ", not before the end of the run (--duration " + Units.seconds(durationNs) + ")");
            }
            if (stopNs <= startNs)
            {
                throw new IllegalArgumentException("flow " + i + " stops at " + Units.seconds(stopNs) +
                    ", not after its start at " + Units.seconds(startNs));
            }
            specs.add(FlowSpec.bulk(flowControllers.get(i)).during(startNs, stopNs));
        }
        return specs;
    }

    private static List<String> flowControllers(final List<String> controllers, final String flows)
    {
        if (null == flows)
        {
            return controllers;
        }
        final String trimmed = flows.trim();
        if (!trimmed.isEmpty() && trimmed.chars().allMatch(Character::isDigit))
        {
            final int count = parseCount(trimmed);
            final List<String> result = new ArrayList<>(count);
            for (int i = 0; i < count; i++)
            {
                result.add(controllers.get(i % controllers.size()));
            }
            return result;
        }
        final List<String> result = new ArrayList<>();
        for (final String name : trimmed.split(","))
        {
            if (name.isBlank())
            {
                throw new IllegalArgumentException("--flows '" + flows + "' has an empty entry; give a count " +
                    "(--flows 4) or controllers (--flows reno,cubic)");
            }
            result.add(name.trim());
        }
        return result;
    }

    private static int parseCount(final String text)
    {
        try
        {
            final int count = Integer.parseInt(text);
            if (count >= 1 && count <= 1000)
            {
                return count;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // Too many digits for an int: reported below like any other out-of-range count.
        }
        throw new IllegalArgumentException("--flows " + text + " is out of range; give 1 to 1000 flows");
    }

    private static void checkAligned(final String option, final List<Duration> values, final int flowCount)
    {
        if (null != values && values.size() > flowCount)
        {
            throw new IllegalArgumentException(option + " has " + values.size() + " values but there are only " +
                flowCount + " flows; give one value per flow, in flow order");
        }
    }
}
