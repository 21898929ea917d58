package io.pacelink.cli;

/**
 * {@code PACELINK_MAX_DURATION}: an upper bound on how long a command runs by the wall clock, so that the documented
 * commands can be run as written in seconds (the docs test sets it): the demo's time per controller, perf's
 * {@code -t}, netem's {@code --duration}. A command that shortens its run says so on standard error. What runs until
 * Ctrl-C (a server, a relay without {@code --duration}) and simulated time ({@code sim}, {@code report}) are not
 * bounded. Unset, or empty, it changes nothing; not a duration, the commands it bounds fail at once saying so.
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
     * @throws IllegalArgumentException if it is set to something that is not a duration.
     */
    static long boundNs()
    {
        final String value = System.getenv(VARIABLE);
        if (null == value || value.isBlank())
        {
            return 0;
        }
        try
        {
            final long ns = Duration.parse(value.trim()).nanos();
            if (ns <= 0)
            {
                throw new IllegalArgumentException("it must be positive");
            }
            return ns;
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(VARIABLE + "='" + value + "' is not a duration such as 2s or " +
                "500ms: " + ex.getMessage());
        }
    }
}
