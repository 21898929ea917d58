package io.pacelink.cli.net;

/**
 * A transfer that could not be done, with the reason in words a user can act on: no answer from the peer, the peer
 * refused or closed early, a wait that timed out, fewer bytes arriving than were sent. The commands print the
 * message and exit with status 1.
 */
public final class TransportFailure extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed and why.
     */
    public TransportFailure(final String message)
    {
        super(message);
    }
}
