package io.pacelink.transport.stream;

/**
 * The negative results of offering a message to a connection; a positive result is the new stream position after
 * the message. These are the only definitions: the public API re-exports them.
 */
public final class OfferResult
{
    /**
     * The send buffer has no room for the message until the peer acknowledges more data: retry later.
     */
    public static final long BACK_PRESSURED = -1;

    /**
     * The connection is not established (yet).
     */
    public static final long NOT_CONNECTED = -2;

    /**
     * The connection or its stream is closed or finished: no more messages are accepted.
     */
    public static final long CLOSED = -3;

    /**
     * The message is longer than the configured maximum message length.
     */
    public static final long MAX_MESSAGE_LENGTH_EXCEEDED = -4;

    private OfferResult()
    {
    }

    /**
     * @param result returned by an offer.
     * @return a constant's name, or "POSITION" for a positive result; for logs and error messages.
     */
    public static String describe(final long result)
    {
        if (result == BACK_PRESSURED)
        {
            return "BACK_PRESSURED";
        }
        if (result == NOT_CONNECTED)
        {
            return "NOT_CONNECTED";
        }
        if (result == CLOSED)
        {
            return "CLOSED";
        }
        if (result == MAX_MESSAGE_LENGTH_EXCEEDED)
        {
            return "MAX_MESSAGE_LENGTH_EXCEEDED";
        }
        return result > 0 ? "POSITION" : "UNKNOWN";
    }
}
