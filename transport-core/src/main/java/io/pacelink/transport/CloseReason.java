package io.pacelink.transport;

/**
 * Why a connection closed.
 */
public enum CloseReason
{
    /**
     * Still open.
     */
    NONE,

    /**
     * The application closed it and everything it offered was acknowledged by the peer.
     */
    LOCAL_CLOSE,

    /**
     * The peer closed it.
     */
    PEER_CLOSE,

    /**
     * Nothing was received for the idle timeout.
     */
    IDLE_TIMEOUT,

    /**
     * The server did not answer the handshake within the handshake timeout.
     */
    HANDSHAKE_TIMEOUT,

    /**
     * The peer broke the protocol (data beyond flow-control credit, an ACK for a packet never sent, a message
     * longer than the maximum, ...).
     */
    PROTOCOL_VIOLATION,

    /**
     * The server refused the connection (connection limit reached or not accepting).
     */
    REJECTED,

    /**
     * The endpoint was closed with the connection still open.
     */
    ENDPOINT_CLOSED,

    /**
     * The peer acknowledged nothing through {@link EndpointLimits#maxUnacknowledgedPtos()} consecutive probe timeouts:
     * it is gone or only pretends to be there (docs/security.md).
     */
    PEER_UNRESPONSIVE
}
