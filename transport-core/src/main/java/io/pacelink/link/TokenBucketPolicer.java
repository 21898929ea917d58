package io.pacelink.link;

/**
 * The token bucket of a {@link PolicerSpec}, as Linux's {@code act_police} ({@code tcf_police_act}) runs it: tokens
 * accumulate at the policing rate up to the burst, a packet conforms if the bucket holds at least its length and then
 * takes that many tokens, and a packet that does not conform takes none. Tokens are counted exactly, in bits times
 * 10⁹ (what a rate in bit/s adds per nanosecond), so a policer's decisions depend only on the times it is handed.
 */
public final class TokenBucketPolicer
{
    private static final long UNITS_PER_BIT = 1_000_000_000L;

    private final long rateBitsPerSecond;
    private final long capacityUnits;
    private final long fillTimeNs;
    private long tokenUnits;
    private long lastUpdateNs;

    /**
     * @param rateBitsPerSecond token rate, positive.
     * @param burstBytes        bucket size, positive, at most {@link PolicerSpec#MAX_BURST_BYTES}.
     */
    TokenBucketPolicer(final long rateBitsPerSecond, final long burstBytes)
    {
        this.rateBitsPerSecond = rateBitsPerSecond;
        this.capacityUnits = burstBytes * 8 * UNITS_PER_BIT;
        this.fillTimeNs = (capacityUnits + rateBitsPerSecond - 1) / rateBitsPerSecond;
        this.tokenUnits = capacityUnits;
    }

    /**
     * @param nowNs       arrival time, not earlier than any time handed in before.
     * @param lengthBytes the packet's length.
     * @return true if the packet conforms (it passes and takes its tokens); false if it exceeds (drop it).
     */
    public boolean conforms(final long nowNs, final int lengthBytes)
    {
        final long elapsedNs = nowNs - lastUpdateNs;
        lastUpdateNs = nowNs;
        if (elapsedNs >= fillTimeNs)
        {
            tokenUnits = capacityUnits;
        }
        else
        {
            // Below the fill time the product stays below capacity + rate, which fits; the sum might not.
            final long addedUnits = elapsedNs * rateBitsPerSecond;
            tokenUnits = addedUnits >= capacityUnits - tokenUnits ? capacityUnits : tokenUnits + addedUnits;
        }

        final long costUnits = lengthBytes * 8L * UNITS_PER_BIT;
        if (costUnits > tokenUnits)
        {
            return false;
        }
        tokenUnits -= costUnits;
        return true;
    }
}
