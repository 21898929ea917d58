package io.pacelink.transport;

/**
 * A wait on a connection ended without what was waited for: a connect that was refused, timed out or found nothing
 * listening. The message says why in a user's words; {@link #outcome()} has the details.
 */
public final class ConnectionFailedException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient ConnectionOutcome outcome;

    /**
     * @param message what failed and why.
     * @param outcome the connection's outcome.
     */
    public ConnectionFailedException(final String message, final ConnectionOutcome outcome)
    {
        super(message);
        this.outcome = outcome;
    }

    /**
     * @return the connection's outcome: {@link ConnectionOutcome#reason()} says how it ended.
     */
    public ConnectionOutcome outcome()
    {
        return outcome;
    }

    /**
     * @return shorthand for {@code outcome().reason()}.
     */
    public CloseReason reason()
    {
        return outcome.reason();
    }
}
