package io.pacelink.transport;

/**
 * How a connection ended: who closed it, or what ended it. Whether everything this side offered reached the peer's
 * application is a separate question, answered by {@link ConnectionOutcome#isDelivered()}: a graceful close can end
 * with data undelivered (the peer closed first), and a timeout can end a connection whose data all arrived.
 */
public enum CloseReason
{
    /**
     * Still open.
     */
    NONE("open"),

    /**
     * This side's application closed it ({@link Connection#close()}, or {@link Endpoint#close()}) and the close ran
     * to its end: the peer's application read everything up to this side's end of stream.
     */
    LOCAL_CLOSE("closed by this side"),

    /**
     * The peer's application closed it gracefully before this side's application did.
     */
    PEER_CLOSE("closed by the peer"),

    /**
     * This side's application closed it, but the peer's application had not read everything within the linger
     * timeout ({@link PacelinkContext#lingerTimeoutNs(long)}, {@link Connection#close(long)}): the close failed and
     * the connection was aborted.
     */
    LINGER_TIMEOUT("the close timed out: the peer's application did not read everything within the linger timeout"),

    /**
     * This side's application aborted it ({@link Connection#closeNow()}).
     */
    ABORTED("aborted by this side"),

    /**
     * The peer aborted it: its application called {@code closeNow()}, its endpoint was closed abruptly, or its own
     * close timed out.
     */
    PEER_ABORTED("aborted by the peer"),

    /**
     * Nothing was received for the idle timeout: the peer stopped, or the path is down.
     */
    IDLE_TIMEOUT("nothing heard from the peer for the idle timeout: it stopped, or the network is down"),

    /**
     * The peer acknowledged nothing through {@link EndpointLimits#maxUnacknowledgedPtos()} consecutive probe timeouts:
     * it is gone or only pretends to be there (docs/security.md).
     */
    PEER_UNRESPONSIVE("the peer acknowledged nothing through repeated probe timeouts: it stopped reading, or only " +
        "pretends to be there"),

    /**
     * For a whole idle timeout the peer sent nothing but packets that make no progress — PINGs, ACKs that
     * acknowledge nothing new — and more of them than a keep-alive needs
     * ({@link EndpointLimits#maxPacketsWithoutProgress(int)}), while this side was not holding it back by flow
     * control: it only keeps the connection open (docs/security.md).
     */
    NO_PROGRESS("the peer sent only PINGs and ACKs for the idle timeout, beyond what a keep-alive needs"),

    /**
     * The server did not answer the handshake within the handshake timeout. (A server's own half-open connection,
     * whose client never confirmed the handshake, ends so too, before its application ever sees it.)
     */
    HANDSHAKE_TIMEOUT("the server did not answer within the handshake timeout: nothing listens there, or UDP is " +
        "blocked on the way"),

    /**
     * The operating system reported the peer's port unreachable (ICMP port unreachable): nothing listens there any
     * more. Ends a handshake at once; an established connection only once no packet from the peer arrived for a
     * short confirmation window, because an ICMP message is easy to forge.
     */
    PEER_UNREACHABLE("the peer is unreachable: nothing listens on its port (ICMP port unreachable)"),

    /**
     * The peer sent a stateless reset (RFC 9000 section 10.3): it no longer knows the connection — its process
     * restarted, or lost the connection's state — and said so with the token only it could compute.
     */
    PEER_RESET("the peer reset the connection: it no longer knows it (its process restarted, or lost its state)"),

    /**
     * A side broke the protocol (data beyond flow-control credit, an ACK for a packet never sent, a message longer
     * than the maximum, ...).
     */
    PROTOCOL_VIOLATION("a protocol violation"),

    /**
     * The server refused the connection: it is not accepting connections, has its maximum of connections, its
     * application's accept queue is full, it is closing, or it speaks another wire-format version.
     * {@link ConnectionOutcome#detail()} says which.
     */
    REJECTED("the server refused the connection"),

    /**
     * The secure handshake failed to authenticate: the server's key is not the one this client pinned (or the
     * {@link ServerKeyVerifier} refused the key it presented, e.g. because a known-hosts file holds another), the two
     * ends' pre-shared keys differ, or the server's answers did not prove it holds its key.
     * {@link ConnectionOutcome#detail()} says which, with the keys' fingerprints where there are keys to show.
     */
    AUTHENTICATION_FAILED("authentication failed"),

    /**
     * The two ends' modes do not meet: one speaks the secure mode and the other plaintext, or the client's Noise
     * profile is one the server has no key for. {@link ConnectionOutcome#detail()} (the server's reason) says which.
     */
    SECURITY_MISMATCH("the two ends' security settings do not match"),

    /**
     * The endpoint was closed abruptly ({@link Endpoint#closeNow()}) with the connection open.
     */
    ENDPOINT_CLOSED("the endpoint was closed"),

    /**
     * This endpoint's own code failed while acting for the connection (an exception from the transport or its
     * congestion controller: a bug, never the peer's input, which is checked before it is acted on). The connection's
     * state can no longer be trusted, so it was ended and the peer told (its outcome is {@link #PEER_ABORTED} with the
     * detail "internal error"); the endpoint and its other connections go on. {@link ConnectionOutcome#detail()} names
     * the exception, which also went to the context's error handler.
     */
    INTERNAL_ERROR("an internal error in this endpoint");

    private final String description;

    CloseReason(final String description)
    {
        this.description = description;
    }

    /**
     * @return what happened, in a user's words, e.g. "the server refused the connection".
     */
    public String description()
    {
        return description;
    }
}
