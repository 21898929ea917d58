package io.pacelink.transport.admission;

import io.pacelink.transport.EndpointLimits;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.RetryMode;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.net.InetSocketAddress;

/**
 * The server's gate for a hello that names no connection yet (docs/security.md, "Admission"): the checks that cost
 * nothing come first, so a flood of hellos is answered without keeping a byte of state per sender.
 * <ol>
 *     <li>A datagram shorter than {@link PacelinkContext#MIN_DATAGRAM_SIZE_BYTES} is dropped unanswered: the client
 *     pads its hello so that any answer, even a refusal, is smaller than what it sent (RFC 9000 sections 8.1 and
 *     14.1).</li>
 *     <li>A hello of another wire-format version, or one announcing a maximum datagram size below that floor, is
 *     refused.</li>
 *     <li>A hello without a valid address-validation token gets a RETRY with a fresh token ({@link AddressValidator})
 *     as its {@link RetryMode} says: always, never, or under pressure; the RETRY is a fraction of the hello's size, so
 *     no amplification. A token buys one hello ({@link UsedTokens}). A token this server gave in a NEW_TOKEN frame to
 *     a client it had confirmed ({@link #mintNewToken}) validates the address as a RETRY token does, for one hello
 *     of a later connection (RFC 9000 section 8.1.3): a returning client skips the RETRY even under pressure.</li>
 *     <li>A validated source that opens connections faster than its rate ({@link SourceRateLimiter}) is dropped; its
 *     client retransmits the hello later.</li>
 * </ol>
 * Each outcome is counted in {@link SecurityCounters}. Agent thread only; allocation free for IPv4 sources.
 */
public final class HelloAdmission
{
    /**
     * {@link #admit}: create the connection.
     */
    public static final int ACCEPT = 0;

    /**
     * {@link #admit}: drop the hello without an answer.
     */
    public static final int DROP = 1;

    /**
     * {@link #admit}: answer with the RETRY whose token {@link #admit} wrote.
     */
    public static final int RETRY = 2;

    /**
     * {@link #admit}: create the connection for an address not validated ({@link RetryMode#AUTO} without pressure,
     * or {@link RetryMode#NEVER}).
     */
    public static final int ACCEPT_UNVALIDATED = 3;

    /**
     * Hash buckets of the per-source rate limiter: 32 KiB, many more than the sources a server sees at once.
     */
    private static final int RATE_LIMITER_BUCKETS = 4096;

    /**
     * Spent tokens remembered: 256 KiB, a lifetime's worth at 1,600 RETRYs per second with the default lifetime.
     */
    private static final int USED_TOKENS = 16_384;

    /**
     * Spent NEW_TOKEN tokens remembered: 64 KiB. They are issued only to confirmed connections, whose rate the
     * key-exchange and per-source budgets bound, so a smaller table holds them; one forgotten early can be spent once
     * more, from the address it is bound to only.
     */
    private static final int USED_NEW_TOKENS = 4_096;

    private static final int NOT_VALIDATED = 0;
    private static final int VALIDATED_BY_RETRY_TOKEN = 1;
    private static final int VALIDATED_BY_NEW_TOKEN = 2;

    private final AddressValidator validator;
    private final SourceRateLimiter rateLimiter;
    private final SourceRateLimiter unvalidatedRate;
    private final SourceRateLimiter unvalidatedRatePerSource;
    private final UsedTokens usedTokens;
    private final AddressValidator newTokens;
    private final UsedTokens usedNewTokens;
    private final RetryMode retryMode;
    private final SecurityCounters counters;

    /**
     * @param limits    the endpoint's limits (token lifetime, per-source rate).
     * @param key       {@link AddressValidator#KEY_LENGTH} secret random bytes for the tokens.
     * @param hashSeed  secret seed of the rate limiter's hash.
     * @param counters  where outcomes are counted.
     */
    public HelloAdmission(
        final EndpointLimits limits, final byte[] key, final long hashSeed, final SecurityCounters counters)
    {
        this.validator = new AddressValidator(key, limits.retryTokenLifetimeNs());
        this.rateLimiter = new SourceRateLimiter(
            RATE_LIMITER_BUCKETS, hashSeed, limits.handshakesPerSecondPerSource(), limits.handshakeBurstPerSource());
        this.unvalidatedRate = SourceRateLimiter.global(
            limits.retryThresholdHandshakesPerSecond(), limits.retryThresholdHandshakesPerSecond() / 4);
        final int perSourceThreshold = limits.retryThresholdHandshakesPerSecondPerSource();
        this.unvalidatedRatePerSource = new SourceRateLimiter(
            RATE_LIMITER_BUCKETS, Long.rotateLeft(hashSeed, 32), perSourceThreshold, perSourceThreshold / 4);
        this.usedTokens = new UsedTokens(USED_TOKENS, limits.retryTokenLifetimeNs());
        final long newTokenLifetimeNs = limits.newTokenLifetimeNs();
        this.newTokens = 0 == newTokenLifetimeNs ? null : AddressValidator.forNewTokens(key, newTokenLifetimeNs);
        this.usedNewTokens = 0 == newTokenLifetimeNs ? null : new UsedTokens(USED_NEW_TOKENS, newTokenLifetimeNs);
        this.retryMode = limits.retryMode();
        this.counters = counters;
    }

    /**
     * Decide what becomes of a hello that names no existing connection. A valid token is spent: a second hello with it
     * is treated as one without.
     *
     * @param hello           the hello's HANDSHAKE frame.
     * @param datagramLength  length of the datagram that carried it.
     * @param source          where it came from.
     * @param nowNs           the current time.
     * @param retryToken      receives the token of a RETRY answer.
     * @param retryOffset     where the token goes.
     * @param isUnderPressure true if the server's unconfirmed handshakes held within their sources' shares fill
     *                        half their budget ({@link HandshakeBudget#isUnderPressure}): {@link RetryMode#AUTO}
     *                        validates every address then.
     * @param isSourceOverShare true if this hello's source holds its share of that budget
     *                        ({@link HandshakeBudget#isSourceOverShare}): {@link RetryMode#AUTO} validates its address.
     * @param isRetryRequired true if a hello without a valid token gets a RETRY whatever the mode (a secure key
     *                        request, which learns the server's key from it, or a hello whose MAC failed).
     * @return {@link #ACCEPT}, {@link #ACCEPT_UNVALIDATED}, {@link #DROP} or {@link #RETRY} (the token is
     * {@link AddressValidator#TOKEN_LENGTH} bytes).
     */
    public int admit(
        final HandshakeFrameFlyweight hello,
        final int datagramLength,
        final InetSocketAddress source,
        final long nowNs,
        final MutableDirectBuffer retryToken,
        final int retryOffset,
        final boolean isUnderPressure,
        final boolean isSourceOverShare,
        final boolean isRetryRequired)
    {
        if (datagramLength < PacelinkContext.MIN_DATAGRAM_SIZE_BYTES)
        {
            counters.handshakesTooSmall().incrementRelease();
            return DROP;
        }
        if (PacketHeaderFlyweight.CURRENT_VERSION != hello.version())
        {
            counters.handshakesRefusedVersion().incrementRelease();
            return DROP;
        }
        if (hello.maxDatagramSize() < PacelinkContext.MIN_DATAGRAM_SIZE_BYTES)
        {
            counters.handshakesRefusedParameters().incrementRelease();
            return DROP;
        }

        final long clientId = hello.sourceConnectionId();
        final int validatedBy = validatedBy(hello, source, clientId, nowNs);
        final boolean isValidated = NOT_VALIDATED != validatedBy;
        // A key request, or a hello whose MAC failed, gets the RETRY that carries this server's key unless a RETRY
        // token shows its client already had that answer: a NEW_TOKEN proves the address, not the key (a client that
        // pins no key sends its key request with the token it kept from its last connection).
        if ((isRetryRequired && VALIDATED_BY_RETRY_TOKEN != validatedBy) ||
            (!isValidated && isRetryDue(source, nowNs, isUnderPressure, isSourceOverShare)))
        {
            validator.mint(source, clientId, nowNs, retryToken, retryOffset);
            return RETRY;
        }
        if (!rateLimiter.tryAcquire(source.getAddress(), nowNs))
        {
            counters.handshakesRateLimited().incrementRelease();
            return DROP;
        }
        if (!isValidated)
        {
            counters.handshakesUnvalidated().incrementRelease();
            return ACCEPT_UNVALIDATED;
        }
        return ACCEPT;
    }

    /**
     * @return true if this server gives its confirmed clients tokens for their later connections.
     */
    public boolean issuesNewTokens()
    {
        return null != newTokens;
    }

    /**
     * Mint a token for a client that confirmed its connection, for a NEW_TOKEN frame (RFC 9000 section 19.7): its
     * next hello from this address is then address-validated, once.
     *
     * @param client      the confirmed client's address.
     * @param nowNs       the current time.
     * @param token       receives {@link AddressValidator#TOKEN_LENGTH} bytes.
     * @param tokenOffset where the first token byte goes.
     * @return {@link AddressValidator#TOKEN_LENGTH}.
     * @throws IllegalStateException if this server gives none ({@link #issuesNewTokens}).
     */
    public int mintNewToken(
        final InetSocketAddress client, final long nowNs, final MutableDirectBuffer token, final int tokenOffset)
    {
        if (null == newTokens)
        {
            throw new IllegalStateException("newTokenLifetimeNs is 0: this server gives no NEW_TOKEN tokens");
        }
        counters.newTokensSent().incrementRelease();
        return newTokens.mint(client, 0, nowNs, token, tokenOffset);
    }

    /**
     * @return which kind of valid token not spent before the hello echoes (and spends it), or
     * {@link #NOT_VALIDATED}; a bad, expired or spent one is counted.
     */
    private int validatedBy(
        final HandshakeFrameFlyweight hello, final InetSocketAddress source, final long clientId, final long nowNs)
    {
        final int tokenLength = hello.tokenLength();
        if (0 == tokenLength)
        {
            return NOT_VALIDATED;
        }
        final DirectBuffer buffer = hello.buffer();
        final int tokenOffset = hello.tokenOffset();
        if (AddressValidator.NEW_TOKEN_FORMAT == buffer.getByte(tokenOffset))
        {
            return isNewTokenValid(buffer, tokenOffset, tokenLength, source, nowNs) ?
                VALIDATED_BY_NEW_TOKEN : NOT_VALIDATED;
        }
        return isSpendable(validator.verify(buffer, tokenOffset, tokenLength, source, clientId, nowNs), usedTokens,
            buffer, tokenOffset, nowNs, counters.retryTokensExpired(), counters.retryTokensInvalid(),
            counters.retryTokensReused()) ? VALIDATED_BY_RETRY_TOKEN : NOT_VALIDATED;
    }

    /**
     * A token's verdict, and its spending: true if it is valid and was not spent before (and now is); otherwise the
     * counter of its kind of failure (RETRY and NEW_TOKEN tokens are counted apart) is incremented.
     */
    private static boolean isSpendable(
        final int verdict,
        final UsedTokens used,
        final DirectBuffer buffer,
        final int tokenOffset,
        final long nowNs,
        final AtomicCounter expired,
        final AtomicCounter invalid,
        final AtomicCounter reused)
    {
        if (AddressValidator.EXPIRED == verdict)
        {
            expired.incrementRelease();
            return false;
        }
        if (AddressValidator.VALID != verdict)
        {
            invalid.incrementRelease();
            return false;
        }
        if (!used.spend(
            AddressValidator.fingerprint(buffer, tokenOffset), AddressValidator.issuedNs(buffer, tokenOffset), nowNs))
        {
            reused.incrementRelease();
            return false;
        }
        return true;
    }

    /**
     * A token of the NEW_TOKEN format: genuine, for this address, within its lifetime and unspent; counted apart from
     * RETRY tokens. A server that gives none takes none.
     */
    private boolean isNewTokenValid(
        final DirectBuffer buffer,
        final int tokenOffset,
        final int tokenLength,
        final InetSocketAddress source,
        final long nowNs)
    {
        final int verdict = null == newTokens ? AddressValidator.INVALID :
            newTokens.verify(buffer, tokenOffset, tokenLength, source, 0, nowNs);
        if (!isSpendable(verdict, usedNewTokens, buffer, tokenOffset, nowNs, counters.newTokensExpired(),
            counters.newTokensInvalid(), counters.newTokensReused()))
        {
            return false;
        }
        counters.newTokensAccepted().incrementRelease();
        return true;
    }

    /**
     * Whether a hello without a valid token gets a RETRY: always, never, or ({@link RetryMode#AUTO}) under pressure —
     * its source's own first: the source holds its share of the unconfirmed handshakes, or sends such hellos faster
     * than its threshold; then everyone's: the handshakes held within shares fill half the budget, or the hellos of
     * the sources within their thresholds together come faster than the global one. So a flood from one host (the
     * half-open flood of docs/security.md, "Floods, measured") validates that host's addresses and leaves a new
     * client elsewhere at one round trip, while a flood from many addresses — spoofed ones, each sending a few — still
     * turns address validation on for all. RFC 9000 section 8.1 leaves when to validate to the server. A hello over
     * its source's threshold is not counted towards the global one.
     */
    private boolean isRetryDue(
        final InetSocketAddress source,
        final long nowNs,
        final boolean isUnderPressure,
        final boolean isSourceOverShare)
    {
        switch (retryMode)
        {
            case ALWAYS:
                return true;
            case NEVER:
                return false;
            default:
                return isSourceOverShare || !unvalidatedRatePerSource.tryAcquire(source.getAddress(), nowNs) ||
                    isUnderPressure || !unvalidatedRate.tryAcquire(null, nowNs);
        }
    }
}
