package io.pacelink.link;

/**
 * A token-bucket policer in front of a link direction's queue, written as tc writes one
 * ({@code tc filter ... action police rate 10mbit burst 100kb drop}): {@code police=10mbit burst=100kb}. The bucket
 * holds {@code burst} bytes and fills at {@code police} bits per second; a packet that finds fewer tokens than its
 * length is dropped at once, never queued. The link's line rate stays its {@code rate=}.
 *
 * @param rateBitsPerSecond the rate tokens accumulate at; 0 for no policer.
 * @param burstBytes        the bucket's size.
 */
public record PolicerSpec(long rateBitsPerSecond, long burstBytes)
{
    /**
     * No policer.
     */
    public static final PolicerSpec NONE = new PolicerSpec(0, 0);

    /**
     * Largest bucket: a token count in bit-nanoseconds per second still fits a {@code long}.
     */
    public static final long MAX_BURST_BYTES = 1L << 30;

    /**
     * Smallest bucket: one full-size packet of a path with a 1500-byte MTU. A packet longer than the bucket never
     * finds enough tokens and is always dropped (as with tc, which needs a burst of at least the MTU), so a smaller
     * bucket passes nothing of a bulk transfer: Pacelink's datagrams are up to 1472 bytes.
     */
    public static final long MIN_BURST_BYTES = 1500;

    /**
     * @param rateBitsPerSecond positive, or 0 with a burst of 0 for no policer.
     * @param burstBytes        positive, at most {@link #MAX_BURST_BYTES}, or 0 for no policer.
     */
    public PolicerSpec
    {
        final boolean isNone = rateBitsPerSecond == 0 && burstBytes == 0;
        if (!isNone && rateBitsPerSecond <= 0)
        {
            throw new IllegalArgumentException("a policer needs a positive rate, e.g. police=10mbit");
        }
        if (!isNone && (burstBytes <= 0 || burstBytes > MAX_BURST_BYTES))
        {
            throw new IllegalArgumentException("a policer needs a burst from 1500b to 1024mb, e.g. burst=100kb");
        }
        if (!isNone && burstBytes < MIN_BURST_BYTES)
        {
            throw new IllegalArgumentException("burst=" + SpecUnits.formatBytes(burstBytes) + " is below one " +
                "datagram: a packet longer than the bucket is always dropped, so nothing of a transfer passes; give " +
                "at least 1500b (one packet of a 1500-byte MTU, as tc needs at least the MTU), e.g. burst=100kb");
        }
    }

    /**
     * @return true if this is a policer at all.
     */
    public boolean isPresent()
    {
        return rateBitsPerSecond > 0;
    }

    /**
     * @return a new bucket, full at time zero (as tc's is when the filter is added).
     */
    public TokenBucketPolicer newPolicer()
    {
        return new TokenBucketPolicer(rateBitsPerSecond, burstBytes);
    }

    /**
     * @return {@code police=10mbit burst=100kb}, or empty for no policer.
     */
    public String toSpec()
    {
        return isPresent() ? "police=" + SpecUnits.formatRate(rateBitsPerSecond) + " burst=" +
            SpecUnits.formatBytes(burstBytes) : "";
    }
}
