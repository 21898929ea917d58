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
     * {@link Connection#close()} was called: data already offered is still delivered, then the connection closes.
     */
    CLOSING,

    /**
     * Closed; {@link Connection#closeReason()} says why. Messages received before the close can still be polled.
     */
    CLOSED
}
