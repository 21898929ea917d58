package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.CloseFrameFlyweight;
import org.agrona.DirectBuffer;

/**
 * A connection's state and how it ends (docs/wire-format.md, "Closing"): the graceful close (FIN, then the peer
 * application's receipt, then CLOSE, within the linger timeout), aborts and refusals with a CLOSE that says why, the
 * peer's CLOSE, the closing and draining period, and the outcome — decided once, by who asked first and whether the
 * peer's application read everything, per its latest receipt ({@link DeliveryReceipts}). Publishes state and outcome
 * through the {@link ConnectionHandle}.
 */
final class ConnectionLifecycle
{
    /**
     * Error code of a graceful close.
     */
    static final int NO_ERROR = 0;

    /**
     * Error code sent when the peer broke the protocol.
     */
    static final int PROTOCOL_VIOLATION_ERROR = 1;

    /**
     * Error code a server sends when it refuses a connection.
     */
    static final int REJECTED_ERROR = 2;

    /**
     * Error code of an abort: the sender's application aborted, its endpoint closed abruptly, or its close timed out.
     * Whatever the receiver has not read is lost.
     */
    static final int ABORTED_ERROR = 3;

    /**
     * Error code a secure server sends when it refuses a hello it cannot authenticate: a pinned key that is not its
     * own, a pre-shared key that differs (docs/security.md, "Secure mode").
     */
    static final int AUTHENTICATION_FAILED_ERROR = 4;

    /**
     * Error code a server sends when it refuses a hello of a mode it does not speak: plaintext to a secure server,
     * secure to a plaintext one, or a Noise profile it has no key for.
     */
    static final int SECURITY_MISMATCH_ERROR = 5;

    /**
     * Error code of a connection ended by its own endpoint's failure (RFC 9000 section 20.1's INTERNAL_ERROR): the
     * peer sees an abort.
     */
    static final int INTERNAL_ERROR = 6;

    /**
     * RFC 9000 section 10.2: a closing or draining connection lingers for three PTOs so late packets are absorbed.
     */
    private static final int CLOSE_LINGER_PTOS = 3;

    private final ConnectionHandle handle;
    private final DeliveryReceipts receipts;
    private final SendLog sendLog;
    private final LossRecovery lossRecovery;
    private final ConnectionPublisher publisher;
    private final long lingerTimeoutNs;
    private ConnectionState state;
    private long closeDeadlineNs = Long.MAX_VALUE;
    private long lingerDeadlineNs = Long.MAX_VALUE;
    private boolean isCloseFramePending;
    private int closeErrorCode = NO_ERROR;
    private DirectBuffer closeReasonText;

    ConnectionLifecycle(
        final ConnectionHandle handle,
        final DeliveryReceipts receipts,
        final LossRecovery lossRecovery,
        final ConnectionPublisher publisher,
        final long lingerTimeoutNs,
        final ConnectionState initialState)
    {
        this.handle = handle;
        this.receipts = receipts;
        this.sendLog = handle.sendLog();
        this.lossRecovery = lossRecovery;
        this.publisher = publisher;
        this.lingerTimeoutNs = lingerTimeoutNs;
        changeState(initialState);
    }

    ConnectionState state()
    {
        return state;
    }

    boolean isClosed()
    {
        return ConnectionState.CLOSED == state;
    }

    boolean isConnecting()
    {
        return ConnectionState.CONNECTING == state;
    }

    /**
     * @return true once the connection is closing or closed, or has a CLOSE to send: nothing the peer sends is acted
     * on any more.
     */
    boolean isClosing()
    {
        return ConnectionState.CLOSED == state || isCloseFramePending || closeDeadlineNs != Long.MAX_VALUE;
    }

    /**
     * @return true while closing or draining (RFC 9000 section 10.2): nothing is acknowledged any more.
     */
    boolean isLingering()
    {
        return closeDeadlineNs != Long.MAX_VALUE;
    }

    /**
     * @return true if the outcome is decided and only the CLOSE and the closing or draining period remain.
     */
    boolean isEnding()
    {
        return closeDeadlineNs != Long.MAX_VALUE || isCloseFramePending;
    }

    /**
     * @return true if a CLOSE is to be sent.
     */
    boolean isCloseFramePending()
    {
        return isCloseFramePending;
    }

    /**
     * @return true once the closing or draining period is over.
     */
    boolean isLingerOver(final long nowNs)
    {
        return nowNs >= closeDeadlineNs;
    }

    /**
     * @return the end of the closing or draining period, {@link Long#MAX_VALUE} if none runs.
     */
    long closeDeadlineNs()
    {
        return closeDeadlineNs;
    }

    /**
     * @return when a graceful close under way fails, {@link Long#MAX_VALUE} if none is.
     */
    long lingerDeadlineNs()
    {
        return lingerDeadlineNs;
    }

    /**
     * The client's handshake completed.
     */
    void connected()
    {
        changeState(ConnectionState.CONNECTED);
    }

    /**
     * @param reason the reason phrase the next CLOSE frame carries.
     */
    void closeReasonText(final DirectBuffer reason)
    {
        closeReasonText = reason;
    }

    /**
     * Close immediately with a CLOSE frame (errors, aborts, refusals, endpoint shutdown); a connection whose outcome
     * is already decided keeps it, and one still connecting has nobody to tell and finishes at once.
     */
    void abortWithClose(final int errorCode, final CloseReason reason)
    {
        if (isClosing())
        {
            return;
        }
        // This side's outcome says what its CLOSE frame tells the peer.
        abortWithClose(errorCode, reason, null == closeReasonText ? "" :
            closeReasonText.getStringWithoutLengthUtf8(0, closeReasonText.capacity()));
    }

    /**
     * This endpoint's own code failed for the connection ({@link ConnectionFailures}): end it with
     * {@link CloseReason#INTERNAL_ERROR} and tell the peer with a CLOSE, as for any abort.
     *
     * @param detail what failed, for this side's outcome; the peer is told only "internal error".
     * @return false if the connection was already closing: its outcome stays, and it should go at once.
     */
    boolean failInternally(final String detail)
    {
        if (isClosing())
        {
            return false;
        }
        closeReasonText = CloseReasonTexts.INTERNAL_ERROR;
        abortWithClose(INTERNAL_ERROR, CloseReason.INTERNAL_ERROR, detail);
        return true;
    }

    private void abortWithClose(final int errorCode, final CloseReason reason, final String detail)
    {
        end(reason, detail);
        closeErrorCode = errorCode;
        isCloseFramePending = ConnectionState.CONNECTING != state;
        if (!isCloseFramePending)
        {
            finish();
        }
    }

    /**
     * The server refused this client's hello (a CLOSE while connecting): an authentication failure and a mode
     * mismatch are told apart from other refusals, so the application sees what to fix.
     *
     * @param errorCode the CLOSE frame's code.
     * @param detail    the server's reason, e.g. "the server has its maximum of connections".
     */
    void onRefused(final int errorCode, final String detail)
    {
        endNow(AUTHENTICATION_FAILED_ERROR == errorCode ? CloseReason.AUTHENTICATION_FAILED :
            SECURITY_MISMATCH_ERROR == errorCode ? CloseReason.SECURITY_MISMATCH : CloseReason.REJECTED, detail);
    }

    /**
     * Decide the outcome and finish at once: nothing is to be sent.
     */
    void endNow(final CloseReason reason, final String detail)
    {
        end(reason, detail);
        finish();
    }

    /**
     * Decide the outcome, once: how the connection ended and whether the peer's application read everything
     * offered, by its latest receipt.
     */
    void end(final CloseReason reason, final String detail)
    {
        handle.ended(reason, detail, receipts.peerConsumedPosition(), receipts.peerConsumedMessages());
    }

    /**
     * The connection is gone. Its outcome was decided when it ended; one that was not (an endpoint closing under
     * it) ended with the endpoint.
     */
    void finish()
    {
        if (ConnectionState.CLOSED == state)
        {
            return;
        }
        publisher.publishApplication();
        end(CloseReason.ENDPOINT_CLOSED, "");
        state = ConnectionState.CLOSED;
        handle.closed(CloseReason.ENDPOINT_CLOSED, "");
    }

    /**
     * The peer's CLOSE: RFC 9000 section 10.2.2, the draining peer sends nothing more; linger to absorb late packets.
     * A receipt in the same packet came before the CLOSE frame, so the outcome judges delivery by the peer's last
     * word.
     */
    void onPeerClose(final CloseFrameFlyweight close, final long nowNs)
    {
        if (ConnectionState.CLOSED == state || closeDeadlineNs != Long.MAX_VALUE)
        {
            return; // already closing or draining: the outcome is decided
        }
        isCloseFramePending = false;
        end(peerCloseReason(close.errorCode()), close.reasonLength() > 0 ? close.reason() : "");
        beginLinger(nowNs);
    }

    /**
     * Who closed is decided by who asked first: a graceful close from the peer while this side's own close was under
     * way ends this side's close too.
     */
    private CloseReason peerCloseReason(final int errorCode)
    {
        switch (errorCode)
        {
            case NO_ERROR:
                return handle.isCloseRequested() ? CloseReason.LOCAL_CLOSE : CloseReason.PEER_CLOSE;

            case PROTOCOL_VIOLATION_ERROR:
                return CloseReason.PROTOCOL_VIOLATION;

            case REJECTED_ERROR:
                return CloseReason.REJECTED;

            default:
                return CloseReason.PEER_ABORTED;
        }
    }

    /**
     * The graceful close: end the stream (FIN), then wait until the peer has acknowledged the FIN and its application
     * has read everything up to it (its receipt), and only then send CLOSE; the close fails after the linger timeout,
     * and the connection is aborted.
     *
     * @return work done.
     */
    int progressGracefulClose(final long nowNs)
    {
        if (!handle.isCloseRequested())
        {
            return 0;
        }
        if (ConnectionState.CONNECTED == state)
        {
            changeState(ConnectionState.CLOSING);
            sendLog.finish();
            final long requestedLingerNs = handle.requestedLingerNs();
            lingerDeadlineNs =
                nowNs + (ConnectionHandle.CONTEXT_LINGER == requestedLingerNs ? lingerTimeoutNs : requestedLingerNs);
            return 1;
        }
        if (sendLog.isFullyAcked() && receipts.isConsumedByPeer(sendLog.finalPosition()))
        {
            end(CloseReason.LOCAL_CLOSE, "");
            closeErrorCode = NO_ERROR;
            isCloseFramePending = true;
            return 1;
        }
        if (nowNs - lingerDeadlineNs >= 0)
        {
            abortWithClose(ABORTED_ERROR, CloseReason.LINGER_TIMEOUT);
            return 1;
        }
        return 0;
    }

    /**
     * @return the error code of the CLOSE to send.
     */
    int closeErrorCode()
    {
        return closeErrorCode;
    }

    /**
     * @return its reason phrase, or null.
     */
    DirectBuffer closeReasonText()
    {
        return closeReasonText;
    }

    /**
     * The CLOSE left: a CLOSE elicits no acknowledgement (RFC 9000 section 10.2), so the closing period begins.
     */
    void onCloseFrameSent(final long nowNs)
    {
        isCloseFramePending = false;
        beginLinger(nowNs);
    }

    private void beginLinger(final long nowNs)
    {
        if (ConnectionState.CLOSED != state && ConnectionState.CLOSING != state)
        {
            changeState(ConnectionState.CLOSING);
        }
        closeDeadlineNs = nowNs + CLOSE_LINGER_PTOS * lossRecovery.ptoPeriodNs();
    }

    private void changeState(final ConnectionState newState)
    {
        state = newState;
        handle.state(newState);
    }
}
