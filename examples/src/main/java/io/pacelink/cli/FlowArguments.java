package io.pacelink.cli;

import io.pacelink.sim.scenario.FlowSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns {@code --cc}, {@code --flows}, {@code --start}, {@code --stop} and {@code --access-delay} into the flows of a
 * simulated scenario.
 * <ul>
 *     <li>{@code --cc} lists controllers (repeatable or comma separated): one flow each, in order; {@code reno} if not
 *     given.</li>
 *     <li>{@code --flows N} makes N flows: all with the one {@code --cc} controller, or with the N controllers
 *     {@code --cc} lists; {@code --flows reno,reno,bbr} lists the flows' controllers instead of {@code --cc}.</li>
 *     <li>{@code --start}, {@code --stop} and {@code --access-delay} give each flow its window and its hosts' access
 *     delay, one value per flow in flow order; without them flows start at 0 s, run to the end and have no access
 *     delay.</li>
 * </ul>
 * A list with another number of values than there are flows is an error, never silently cut or padded.
 */
final class FlowArguments
{
    /**
     * The controller of every flow when neither {@code --cc} nor a {@code --flows} list names one.
     */
    static final String DEFAULT_CONTROLLER = "reno";

    /**
     * The most flows a run takes.
     */
    static final int MAX_FLOWS = 1000;

    private FlowArguments()
    {
    }

    /**
     * @param controllers  the {@code --cc} values, or null if not given.
     * @param flows        the {@code --flows} value (a count or a controller list), or null.
     * @param starts       the {@code --start} values, or null.
     * @param stops        the {@code --stop} values, or null.
     * @param accessDelays the {@code --access-delay} values, or null.
     * @param durationNs   the scenario's length.
     * @return the flows.
     * @throws IllegalArgumentException saying which argument is wrong and why.
     */
    static List<FlowSpec> flows(
        final List<String> controllers,
        final String flows,
        final List<Duration> starts,
        final List<Duration> stops,
        final List<Duration> accessDelays,
        final long durationNs)
    {
        final List<String> flowControllers = flowControllers(controllers, flows);
        final int count = flowControllers.size();
        checkAligned("--start", starts, count);
        checkAligned("--stop", stops, count);
        checkAligned("--access-delay", accessDelays, count);

        final List<FlowSpec> specs = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final long startNs = null != starts ? starts.get(i).nanos() : 0;
            final long stopNs = null != stops ? stops.get(i).nanos() : Long.MAX_VALUE;
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
            final long accessDelayNs = null != accessDelays ? accessDelays.get(i).nanos() : 0;
            specs.add(FlowSpec.bulk(flowControllers.get(i)).during(startNs, stopNs).withAccessDelay(accessDelayNs));
        }
        return specs;
    }

    private static List<String> flowControllers(final List<String> controllers, final String flows)
    {
        if (null == flows)
        {
            return null == controllers ? List.of(DEFAULT_CONTROLLER) : controllers;
        }
        final String trimmed = flows.trim();
        if (trimmed.matches("[+-]?[0-9]+"))
        {
            final int count = parseCount(trimmed);
            final List<String> given = null == controllers ? List.of(DEFAULT_CONTROLLER) : controllers;
            if (given.size() != 1 && given.size() != count)
            {
                throw new IllegalArgumentException("--cc has " + given.size() + " controllers for --flows " + count +
                    "; give one controller for every flow, or one per flow in flow order");
            }
            final List<String> result = new ArrayList<>(count);
            for (int i = 0; i < count; i++)
            {
                result.add(given.get(given.size() == 1 ? 0 : i));
            }
            return result;
        }
        if (null != controllers)
        {
            throw new IllegalArgumentException("--flows " + flows + " lists the flows' controllers, and so does " +
                "--cc; give them one way only");
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
            if (count >= 1 && count <= MAX_FLOWS)
            {
                return count;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // Too many digits for an int: reported below like any other out-of-range count.
        }
        throw new IllegalArgumentException("--flows " + text + " is out of range: give a count of flows from 1 to " +
            MAX_FLOWS + " (--flows 4), or the flows' controllers (--flows reno,cubic)");
    }

    private static void checkAligned(final String option, final List<Duration> values, final int flowCount)
    {
        if (null != values && values.size() != flowCount)
        {
            throw new IllegalArgumentException(option + " has " + values.size() + " value" +
                (values.size() == 1 ? "" : "s") + " for " + flowCount + " flow" + (flowCount == 1 ? "" : "s") +
                "; give one value per flow, in flow order");
        }
    }
}
