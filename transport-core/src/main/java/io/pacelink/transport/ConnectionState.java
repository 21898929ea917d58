package io.pacelink.transport;

/**
 * Life cycle of a connection as the application sees it.
 */
public enum ConnectionState
{
    /**
     * The client sent its handshake and waits for the server's answer.
     */
    CONNECTING,

    /**
     * Messages flow both ways.
     */
    CONNECTED,

    /**
     * Closing: this side's application closed it and what it offered is still being delivered, or the connection has
     * ended ({@link Connection#outcome()} is decided) and lingers briefly to absorb the peer's late packets
     * (RFC 9000 section 10.2). Nothing more can be offered.
     */
    CLOSING,

    /**
     * Closed; {@link Connection#outcome()} says how it ended and whether everything arrived. Messages received before
     * the close can still be polled.
     */
    CLOSED
}
