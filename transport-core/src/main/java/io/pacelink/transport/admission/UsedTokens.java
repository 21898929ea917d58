package io.pacelink.transport.admission;

import org.agrona.collections.Hashing;

/**
 * The address-validation tokens already spent on a hello that went on to public-key work or a connection, so that
 * each token buys one hello (RFC 9000 section 8.1.4 lets a server refuse a token used before): a token is otherwise
 * valid for its whole lifetime, and a flood re-sending one hello with valid MAC and token would cost a Diffie-Hellman
 * each time. A fixed open-addressed table of 64-bit token fingerprints with their expiry; a full neighbourhood gives up
 * the entry that expires first, so the table never grows — a token forgotten that way can be used once more, and
 * still passes the endpoint's key-exchange budget. Agent thread only; allocation free.
 */
public final class UsedTokens
{
    private static final int PROBES = 8;
    private static final int NONE = -1;
    private static final long EMPTY = 0;

    private final long[] fingerprints;
    private final long[] expiriesNs;
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
        fingerprints = new long[capacity];
        expiriesNs = new long[capacity];
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

    private boolean isLiveAt(final int slot, final long nowNs)
    {
        final long expiryNs = expiriesNs[slot];
        return EMPTY != expiryNs && expiryNs - nowNs > 0;
    }
}
