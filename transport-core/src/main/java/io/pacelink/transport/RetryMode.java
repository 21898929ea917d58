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
     * A RETRY only under handshake pressure, decided per source first: a source that holds half its share of the
     * unconfirmed handshakes ({@link EndpointLimits#maxUnconfirmedHandshakesPerSource}) or sends hellos without a
     * token faster than {@link EndpointLimits#retryThresholdHandshakesPerSecondPerSource} gets RETRYs, alone; every
     * source gets them when the handshakes held within those shares fill half the budget, or the hellos without a
     * token of the sources within their thresholds arrive faster than
     * {@link EndpointLimits#retryThresholdHandshakesPerSecond}. A normal connect takes one round trip, also beside a
     * flood from one host; a flood from many addresses turns address validation on for all. The default, as QUIC
     * servers do.
     */
    AUTO,

    /**
     * Never a RETRY; the handshake budget and the rate limits still hold. For tests and closed networks.
     */
    NEVER
}
