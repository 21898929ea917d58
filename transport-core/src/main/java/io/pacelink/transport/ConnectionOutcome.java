package io.pacelink.transport;

/**
 * The final outcome of a connection: how it ended ({@link #reason()}) and, separately, whether everything this
 * side's application offered was read by the peer's application ({@link #isDelivered()}). Delivery is judged from the
 * peer's own receipts of what its application consumed, never from packet acknowledgements alone, so an outcome never
 * reports success for data the peer's application did not get. Immutable.
 */
public final class ConnectionOutcome
{
    /**
     * The outcome of a connection that is still open: nothing is concluded yet, so nothing counts as delivered.
     */
    public static final ConnectionOutcome OPEN = new ConnectionOutcome(CloseReason.NONE, "", false, 0, 0, 0, 0);

    private final CloseReason reason;
    private final String detail;
    private final boolean delivered;
    private final long messagesOffered;
    private final long bytesOffered;
    private final long messagesDelivered;
    private final long bytesDelivered;

    /**
     * @param reason            how the connection ended.
     * @param detail            more about it (the peer's reason for a refusal or an abort), or empty.
     * @param delivered         whether the peer's application read everything offered.
     * @param messagesOffered   messages this side's application offered.
     * @param bytesOffered      their bytes (the application's, without framing).
     * @param messagesDelivered messages the peer's application read, per its last receipt.
     * @param bytesDelivered    their bytes.
     */
    public ConnectionOutcome(
        final CloseReason reason,
        final String detail,
        final boolean delivered,
        final long messagesOffered,
        final long bytesOffered,
        final long messagesDelivered,
        final long bytesDelivered)
    {
        this.reason = reason;
        this.detail = null == detail ? "" : detail;
        this.delivered = delivered;
        this.messagesOffered = messagesOffered;
        this.bytesOffered = bytesOffered;
        this.messagesDelivered = messagesDelivered;
        this.bytesDelivered = bytesDelivered;
    }

    /**
     * @return how the connection ended; {@link CloseReason#NONE} while it is open.
     */
    public CloseReason reason()
    {
        return reason;
    }

    /**
     * @return more about the reason, e.g. the server's "connection limit reached" for a refusal; empty if nothing.
     */
    public String detail()
    {
        return detail;
    }

    /**
     * @return false while open.
     */
    public boolean isClosed()
    {
        return CloseReason.NONE != reason;
    }

    /**
     * @return true if the connection is closed and the peer's application read every message this side offered
     * (true also when nothing was offered); false while open.
     */
    public boolean isDelivered()
    {
        return delivered;
    }

    /**
     * @return messages this side's application offered.
     */
    public long messagesOffered()
    {
        return messagesOffered;
    }

    /**
     * @return bytes of the messages this side's application offered (without the transport's framing).
     */
    public long bytesOffered()
    {
        return bytesOffered;
    }

    /**
     * @return messages the peer's application read, as its last receipt said.
     */
    public long messagesDelivered()
    {
        return messagesDelivered;
    }

    /**
     * @return bytes of the messages the peer's application read, as its last receipt said.
     */
    public long bytesDelivered()
    {
        return bytesDelivered;
    }

    /**
     * @return e.g. "closed by this side; all 1000 messages (1048576 bytes) delivered", or "aborted by the peer:
     * server shutting down; 72 of 104 messages (75497472 of 109051904 bytes) delivered".
     */
    public String toString()
    {
        if (!isClosed())
        {
            return reason.description();
        }
        final String how = detail.isEmpty() ? reason.description() : reason.description() + ": " + detail;
        if (delivered)
        {
            return how + "; all " + messagesOffered + " messages (" + bytesOffered + " bytes) delivered";
        }
        return how + "; " + messagesDelivered + " of " + messagesOffered + " messages (" + bytesDelivered + " of " +
            bytesOffered + " bytes) delivered";
    }
}
