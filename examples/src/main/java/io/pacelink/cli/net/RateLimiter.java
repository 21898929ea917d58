package io.pacelink.cli.net;

/**
 * A token bucket that keeps a sender application-limited at a set rate ({@code pacelink perf -b},
 * {@code pacelink send --rate}): messages are handed to the transport only while tokens last, so the congestion
 * controller sees an application that offers less than the path carries, as with {@code iperf3 -b} or a rate-capped
 * {@code scp -l}. The bucket holds one message or 10 ms at the rate, whichever is larger, so a short stall is not
 * made up in a burst.
 */
public final class RateLimiter
{
    private static final long BURST_NS = 10_000_000L;

    private final double bytesPerNs;
    private final double burstBytes;
    private double tokens;
    private long lastNs;

    /**
     * @param bitsPerSecond  the rate, positive.
     * @param largestMessage the longest message that must pass (the bucket's smallest size).
     * @param nowNs          the time now.
     */
    public RateLimiter(final long bitsPerSecond, final int largestMessage, final long nowNs)
    {
        bytesPerNs = bitsPerSecond / 8e9;
        burstBytes = Math.max(largestMessage, bytesPerNs * BURST_NS);
        tokens = largestMessage;
        lastNs = nowNs;
    }

    /**
     * @param bytes a message's length.
     * @param nowNs the time now.
     * @return whether the message may be sent now (its tokens are then taken).
     */
    public boolean tryAcquire(final int bytes, final long nowNs)
    {
        refill(nowNs);
        if (tokens < bytes)
        {
            return false;
        }
        tokens -= bytes;
        return true;
    }

    /**
     * @param bytes a message's length.
     * @param nowNs the time now.
     * @return when {@link #tryAcquire} will let the message pass: now if it would now, else the first nanosecond at
     * which the bucket holds its tokens (the caller may sleep until then).
     */
    public long releaseNs(final int bytes, final long nowNs)
    {
        refill(nowNs);
        final double missingBytes = bytes - tokens;
        return missingBytes <= 0 ? nowNs : nowNs + (long)Math.ceil(missingBytes / bytesPerNs);
    }

    private void refill(final long nowNs)
    {
        tokens = Math.min(burstBytes, tokens + (nowNs - lastNs) * bytesPerNs);
        lastNs = nowNs;
    }
}
