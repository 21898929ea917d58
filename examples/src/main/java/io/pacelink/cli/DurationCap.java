package io.pacelink.cli;

/**
 * {@code PACELINK_MAX_DURATION}: an upper bound on how long a command runs by the wall clock, so that the documented
 * commands can be run as written in seconds (the docs test sets it): the demo's time per controller, perf's
 * {@code -t}, netem's {@code --duration}. A command that shortens its run says so on standard error. What runs until
 * Ctrl-C (a server, a relay without {@code --duration}) and simulated time ({@code sim}, {@code report}) are not
 * bounded. Unset, or empty, it changes nothing; a value without a unit, or not a duration, makes the commands it
 * bounds fail at once (exit status 2) saying what is accepted.
 */
final class DurationCap
{
    /**
     * The environment variable.
     */
    static final String VARIABLE = "PACELINK_MAX_DURATION";

    private DurationCap()
    {
    }

    /**
     * @param option    the option whose value it is, for the note, e.g. {@code -t}.
     * @param durationNs a duration a command was given.
     * @return it, or the bound if that is shorter (saying so on standard error).
     */
    static long capNs(final String option, final long durationNs)
    {
        final long boundNs = boundNs();
        if (boundNs > 0 && durationNs > boundNs)
        {
            System.err.println("pacelink: " + option + " " + Units.seconds(durationNs) + " shortened to " +
                Units.seconds(boundNs) + " by " + VARIABLE);
            return boundNs;
        }
        return durationNs;
    }

    /**
     * @return the bound in nanoseconds, or 0 when none is set.
     * @throws IllegalArgumentException if it is set to something that is not a duration with a unit.
     */
    static long boundNs()
    {
        return boundNs(System.getenv(VARIABLE));
    }

    /**
     * The value must carry its unit: a bare number could be seconds (as perf's {@code -t} takes it) or milliseconds,
     * and a bound that silently means a thousand times what was meant shortens nothing, or everything.
     *
     * @param value the variable's value, or null when it is not set.
     * @return the bound in nanoseconds, or 0 when it is unset or empty.
     * @throws IllegalArgumentException saying what the value is and what is accepted.
     */
    static long boundNs(final String value)
    {
        if (null == value || value.isBlank())
        {
            return 0;
        }
        final String trimmed = value.trim();
        if (trimmed.matches("[0-9.]+"))
        {
            throw rejected(value, "a number needs its unit");
        }
        final long ns;
        try
        {
            ns = Duration.parse(trimmed).nanos();
        }
        catch (final IllegalArgumentException ex)
        {
            throw rejected(value, "not a duration");
        }
        if (ns <= 0)
        {
            throw rejected(value, "it must be positive");
        }
        return ns;
    }

    private static IllegalArgumentException rejected(final String value, final String why)
    {
        return new IllegalArgumentException(VARIABLE + "='" + value + "': " + why + "; accepted: a positive number " +
            "with a unit (ns, us, ms, s, m, h), e.g. 20s or 500ms; unset or empty for no bound");
    }
}
