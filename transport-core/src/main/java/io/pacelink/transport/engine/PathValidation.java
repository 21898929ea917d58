package io.pacelink.transport.engine;

import io.pacelink.transport.PacelinkContext;

import java.net.InetSocketAddress;

/**
 * Path validation toward a peer's new address (RFC 9000 sections 8.2 and 9.3): when an authenticated packet of a
 * server connection arrives from an address other than its peer's, this side sends PATH_CHALLENGE frames with 8
 * unpredictable bytes to that address and moves the connection there only when the bytes come back in a
 * PATH_RESPONSE — so an off-path attacker, who cannot receive at the address it forges, can never move it, and a
 * replayed or spoofed packet from a victim's address turns this side into an amplifier of at most 3 times what the
 * victim's address sent (section 8.2.1, the limit of section 8.1). Everything else keeps going to the validated
 * address meanwhile. A validation not answered within three times the larger of the current PTO and the PTO of a new
 * path (section 8.2.4) is abandoned and the connection stays where it was. One job: the candidate address, its
 * challenge, its byte budget and its timers; the connection acts on what it says.
 */
final class PathValidation
{
    /**
     * The amplification factor toward an address nobody has proven (RFC 9000 section 8.1).
     */
    static final int AMPLIFICATION_FACTOR = 3;

    /**
     * The most challenges one validation sends: one a PTO until it is abandoned.
     */
    static final int MAX_CHALLENGES = 4;

    private final SeededRandom random;
    private final long initialPtoNs;
    private InetSocketAddress candidate;
    private long challengeData;
    private long bytesReceivedFromCandidate;
    private long bytesSentToCandidate;
    private int challengesSent;
    private long nextChallengeNs = Long.MAX_VALUE;
    private long abandonNs = Long.MAX_VALUE;

    /**
     * @param random       draws the challenges' bytes (the connection's own stream, from a {@code SecureRandom} seed
     *                     on a real socket).
     * @param initialRttNs the RTT a new path is assumed to have before any sample (RFC 9002 kInitialRtt).
     */
    PathValidation(final SeededRandom random, final long initialRttNs)
    {
        this.random = random;
        // RFC 9002 section 6.2.2: a new path's PTO is 2 x kInitialRtt before the first sample.
        this.initialPtoNs = 2 * initialRttNs;
    }

    /**
     * @return the address being validated, or null.
     */
    InetSocketAddress candidate()
    {
        return candidate;
    }

    /**
     * An authenticated packet came from {@code source}, not the peer's address: count its bytes toward the candidate's
     * budget, starting a validation of it if it is new (a third address replaces the one being validated: the peer
     * moved again, or its NAT rebound once more).
     *
     * @param source      where the packet came from.
     * @param lengthBytes the datagram's size.
     * @param ptoNs       the current path's probe timeout.
     * @param nowNs       the time.
     */
    void onPacketFrom(final InetSocketAddress source, final int lengthBytes, final long ptoNs, final long nowNs)
    {
        if (!source.equals(candidate))
        {
            candidate = source;
            challengeData = nextChallengeData();
            bytesReceivedFromCandidate = 0;
            bytesSentToCandidate = 0;
            challengesSent = 0;
            nextChallengeNs = nowNs;
            abandonNs = nowNs + 3 * Math.max(ptoNs, initialPtoNs);
        }
        bytesReceivedFromCandidate += lengthBytes;
    }

    private long nextChallengeData()
    {
        return random.nextLong(); // the 8 bytes must be unpredictable (RFC 9000 section 8.2.1)
    }

    /**
     * @param nowNs the time.
     * @return the size of the challenge datagram to send to the candidate now (padded toward the minimum datagram size
     * as the budget allows, RFC 9000 section 8.2.1), or 0 if none is due or the budget cannot take even the smallest.
     */
    int challengeSizeDue(final long nowNs, final int smallestBytes)
    {
        if (null == candidate || nowNs < nextChallengeNs || challengesSent >= MAX_CHALLENGES)
        {
            return 0;
        }
        final long budgetBytes = AMPLIFICATION_FACTOR * bytesReceivedFromCandidate - bytesSentToCandidate;
        if (budgetBytes < smallestBytes)
        {
            return 0;
        }
        return (int)Math.min(budgetBytes, PacelinkContext.MIN_DATAGRAM_SIZE_BYTES);
    }

    /**
     * @return the 8 bytes of the current challenge.
     */
    long challengeData()
    {
        return challengeData;
    }

    /**
     * A challenge of {@code sizeBytes} left for the candidate; the next one after a PTO.
     */
    void onChallengeSent(final int sizeBytes, final long ptoNs, final long nowNs)
    {
        bytesSentToCandidate += sizeBytes;
        challengesSent++;
        nextChallengeNs = nowNs + ptoNs;
    }

    /**
     * @param pathData a PATH_RESPONSE's bytes.
     * @return true if they answer the challenge of the address being validated: it is proven, and forgotten here.
     */
    boolean onResponse(final long pathData)
    {
        if (null == candidate || pathData != challengeData)
        {
            return false;
        }
        clear();
        return true;
    }

    /**
     * @return true if a validation is under way and its time is up: it is abandoned (RFC 9000 section 8.2.4).
     */
    boolean isAbandoned(final long nowNs)
    {
        if (null == candidate || nowNs < abandonNs)
        {
            return false;
        }
        clear();
        return true;
    }

    /**
     * @return when this validation next needs the agent: its next challenge, or its end; {@link Long#MAX_VALUE} if
     * none is under way.
     */
    long nextDeadlineNs()
    {
        if (null == candidate)
        {
            return Long.MAX_VALUE;
        }
        return challengesSent < MAX_CHALLENGES ? Math.min(nextChallengeNs, abandonNs) : abandonNs;
    }

    /**
     * @return bytes sent to the candidate, for tests of the amplification limit.
     */
    long bytesSentToCandidate()
    {
        return bytesSentToCandidate;
    }

    private void clear()
    {
        candidate = null;
        nextChallengeNs = Long.MAX_VALUE;
        abandonNs = Long.MAX_VALUE;
    }
}
