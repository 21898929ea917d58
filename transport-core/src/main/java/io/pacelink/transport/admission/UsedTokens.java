package io.pacelink.transport.admission;

import org.agrona.collections.Hashing;

/**
 * The address-validation tokens already spent on a hello that went on to public-key work or a connection, so that
 * each token buys one hello (RFC 9000 section 8.1.4 lets a server refuse a token used before): a token is otherwise
 * valid for its whole lifetime, and a flood re-sending one hello with valid MAC and token would cost a Diffie-Hellman
 * each time. A fixed open-addressed table of 64-bit token fingerprints with their expiry; a full neighbourhood gives up
 * the entry that expires first, so the table never grows — a token forgotten that way can be used once more, and
 * still passes the endpoint's key-exchange budget. The table is made at the first spend, so an endpoint that never
 * verifies a token (every client, a server that never gave one) does not hold it: 100 endpoints of a simulation
 * zeroed ~32 MB of tables for nothing as the run started. Agent thread only; allocation free after the first spend.
 */
public final class UsedTokens
{
    private static final int PROBES = 8;
    private static final int NONE = -1;
    private static final long EMPTY = 0;

    private long[] fingerprints;
    private long[] expiriesNs;
    private final int mask;
    private final long lifetimeNs;

    /**
     * @param capacity   entries, a power of two.
     * @param lifetimeNs how long a token is valid after its issue.
     */
    public UsedTokens(final int capacity, final long lifetimeNs)
    {
        if (capacity < PROBES || Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("capacity=" + capacity + " (a power of two, at least " + PROBES + ")");
        }
        mask = capacity - 1;
        this.lifetimeNs = lifetimeNs;
    }

    /**
     * Spend a token.
     *
     * @param fingerprint the token's {@link AddressValidator#fingerprint}.
     * @param issuedNs    when it was issued.
     * @param nowNs       the current time.
     * @return true if it was unspent (and is spent now); false if it was spent before.
     */
    public boolean spend(final long fingerprint, final long issuedNs, final long nowNs)
    {
        if (null == expiriesNs)
        {
            fingerprints = new long[mask + 1];
            expiriesNs = new long[mask + 1];
        }
        final int home = Hashing.hash(fingerprint, mask);
        int replace = NONE;
        for (int i = 0; i < PROBES; i++)
        {
            final int slot = (home + i) & mask;
            final long expiryNs = expiriesNs[slot];
            final boolean isLive = EMPTY != expiryNs && expiryNs - nowNs > 0;
            if (isLive && fingerprints[slot] == fingerprint)
            {
                return false;
            }
            if (NONE == replace || (!isLive && isLiveAt(replace, nowNs)) ||
                (isLive == isLiveAt(replace, nowNs) && expiryNs - expiriesNs[replace] < 0))
            {
                replace = slot;
            }
        }
        fingerprints[replace] = fingerprint;
        final long expiryNs = issuedNs + lifetimeNs + 1;
        expiriesNs[replace] = EMPTY == expiryNs ? 1 : expiryNs;
        return true;
    }

    /**
     * @return true once the table is made (at the first {@link #spend}).
     */
    boolean hasTable()
    {
        return null != expiriesNs;
    }

    private boolean isLiveAt(final int slot, final long nowNs)
    {
        final long expiryNs = expiriesNs[slot];
        return EMPTY != expiryNs && expiryNs - nowNs > 0;
    }
}
