package io.pacelink.cli.transfer;

/**
 * The receiver will not take an entry: the message says why, and is sent to the sender in the entry's VERDICT.
 */
public final class RefusedException extends Exception
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message why, for the sender's user.
     */
    public RefusedException(final String message)
    {
        super(message);
    }
}
