package io.pacelink.cli.ping;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * One way of sending a request and waiting for its echo: over a Pacelink connection, or over a bare UDP socket (the
 * baseline a transport's round trip is compared with).
 */
interface RoundTrip extends AutoCloseable
{
    /**
     * Send a request and wait for its echo.
     *
     * @param request   the request; its first 8 bytes are the sequence number the echo must carry.
     * @param length    its length.
     * @param timeoutNs longest wait for the echo.
     * @return the round-trip time in nanoseconds, from just before the request was handed over to just after the echo
     * was received.
     * @throws io.pacelink.cli.net.TransportFailure if no echo came, or the connection failed.
     */
    long exchange(UnsafeBuffer request, int length, long timeoutNs);

    /**
     * Keep the connection serviced (acknowledgements, timers) until a time, e.g. the next request's.
     *
     * @param deadlineNs on {@link System#nanoTime()}.
     */
    void idleUntil(long deadlineNs);

    /**
     * @return what the requests travel over, e.g. {@code pacelink (cc cubic)} or {@code udp}.
     */
    String transport();

    /**
     * Close gracefully.
     */
    void close();
}
