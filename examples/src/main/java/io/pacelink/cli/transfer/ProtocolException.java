package io.pacelink.cli.transfer;

/**
 * A peer broke the file-transfer protocol: a malformed or unexpected message. The session ends with the message
 * as its reason.
 */
public final class ProtocolException extends Exception
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was wrong.
     */
    public ProtocolException(final String message)
    {
        super(message);
    }
}
