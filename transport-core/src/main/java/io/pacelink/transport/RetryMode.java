package io.pacelink.transport;

/**
 * When a server proves a client's address with a RETRY before it keeps any state for the client (RFC 9000 section
 * 8.1.2; docs/security.md, "Admission"). A RETRY costs every connection one round trip; without it, a flood of hellos
 * from spoofed addresses makes the server hold handshakes and answer addresses that never asked.
 */
public enum RetryMode
{
    /**
     * Every hello without a valid token gets a RETRY: a connection always costs one extra round trip.
     */
    ALWAYS,

    /**
     * A RETRY only under handshake pressure — when the unconfirmed handshakes fill half their budget, or hellos
     * without a token arrive faster than {@link EndpointLimits#retryThresholdHandshakesPerSecond}: a normal connect
     * takes one round trip, a flood turns address validation on. The default, as QUIC servers do.
     */
    AUTO,

    /**
     * Never a RETRY; the handshake budget and the rate limits still hold. For tests and closed networks.
     */
    NEVER
}
