package io.pacelink.cli.transfer;

/**
 * A transfer or a session cannot go on: the connection failed, the peer broke the protocol, or the session was told
 * to stop. The message says why, for the person at the terminal.
 */
public final class TransferException extends Exception
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message why, in words a user understands.
     */
    public TransferException(final String message)
    {
        super(message);
    }
}
