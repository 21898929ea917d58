package io.pacelink.transport;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static io.pacelink.transport.PacelinkContext.requireRange;

/**
 * The limits an endpoint holds a hostile or broken peer to (docs/security.md): how fast one source may open
 * connections, how long an address-validation token lives, how much memory the endpoint's connections may commit,
 * how long a peer may leave data unacknowledged, and the smallest
 * RTT sample believed. Part of a {@link PacelinkContext} ({@link PacelinkContext#limits()}); fluent setters validated
 * like the context's, so a bad value fails at the setter saying what is accepted.
 */
public final class EndpointLimits
{
    /**
     * New connections one source address may open per second once its burst is spent.
     */
    public static final int DEFAULT_HANDSHAKES_PER_SECOND_PER_SOURCE = 100;

    /**
     * New connections one source address may open back to back.
     */
    public static final int DEFAULT_HANDSHAKE_BURST_PER_SOURCE = 200;

    /**
     * How long a Retry token stays valid: the client echoes it within one round trip, and keeps echoing it in the
     * hellos it retransmits until its handshake timeout (10 s by default).
     */
    public static final long DEFAULT_RETRY_TOKEN_LIFETIME_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * How long a token from a NEW_TOKEN frame stays valid (RFC 9000 section 8.1.3: longer than a RETRY token's, for a
     * client's later connections). It also dies with the endpoint, whose token key lives in memory only.
     */
    public static final long DEFAULT_NEW_TOKEN_LIFETIME_NS = TimeUnit.HOURS.toNanos(1);

    /**
     * Bytes of stream buffers and sent-packet records all connections of an endpoint may commit together.
     */
    public static final long DEFAULT_MEMORY_BUDGET_BYTES = 1L << 30;

    /**
     * No count of out-of-order ranges beyond what memory allows: a connection's reassembly bookkeeping is limited to
     * an eighth of its receive buffer (docs/security.md, "Reassembly and data"), which scales with the window a
     * legitimate transfer needs. The count limit it replaces (4096 ranges) closed legitimate long fat flows.
     *
     * @deprecated the limit is memory now, set through {@link PacelinkContext#receiveBufferBytes(int)}; the count
     * limit goes in the next minor version.
     */
    @Deprecated
    public static final int DEFAULT_MAX_RECEIVE_RANGES = 1 << 24;

    /**
     * Consecutive probe timeouts without any acknowledgement after which the peer is declared dead (Linux's
     * {@code tcp_retries2} plays this part for TCP). With the PTO doubling each time, 10 PTOs are about 1023 PTO
     * periods: some 5 s on a LAN and over 15 minutes with the initial 1 s PTO.
     */
    public static final int DEFAULT_MAX_UNACKNOWLEDGED_PTOS = 10;

    /**
     * Packets a peer may send in an idle timeout that make no progress — PINGs, ACKs that acknowledge nothing new —
     * before its connection closes as {@link CloseReason#NO_PROGRESS}. Both ends' keep-alives on an idle connection
     * send a PING every half idle timeout and draw an ACK for it: some 4 in an idle timeout, far below this.
     */
    public static final int DEFAULT_MAX_PACKETS_WITHOUT_PROGRESS = 64;

    /**
     * RTT samples below this are impossible on any path (a loopback round trip between two processes costs more
     * than a microsecond of system calls) and are rejected rather than allowed to drag min_rtt down.
     */
    public static final long DEFAULT_MIN_RTT_SAMPLE_NS = TimeUnit.MICROSECONDS.toNanos(1);

    /**
     * Server handshakes not yet confirmed by their client that an endpoint holds at once, apart from
     * {@link PacelinkContext#maxConnections}: when full, the oldest is dropped for a new one.
     */
    public static final int DEFAULT_MAX_UNCONFIRMED_HANDSHAKES = 256;

    /**
     * Unconfirmed server handshakes one source address holds at once: its oldest is dropped for its new one. Large
     * enough for a host that opens a hundred connections at once (they are all unconfirmed for a round trip), half
     * the whole budget so that one host cannot take all of it.
     */
    public static final int DEFAULT_MAX_UNCONFIRMED_HANDSHAKES_PER_SOURCE = 128;

    /**
     * Hellos without a valid token per second (after a quarter second's worth back to back) above which
     * {@link RetryMode#AUTO} answers them with a RETRY.
     */
    public static final int DEFAULT_RETRY_THRESHOLD_HANDSHAKES_PER_SECOND = 1000;

    /**
     * Hellos without a valid token per second from one source address (after a quarter second's worth back to back)
     * above which {@link RetryMode#AUTO} answers that source's with a RETRY, and only that source's: a tenth of
     * {@link #DEFAULT_RETRY_THRESHOLD_HANDSHAKES_PER_SECOND}, so a flood from one host validates that host and leaves
     * the other clients' first connects at one round trip.
     */
    public static final int DEFAULT_RETRY_THRESHOLD_HANDSHAKES_PER_SECOND_PER_SOURCE = 100;

    /**
     * Answers per second one source address may draw before its address is validated (RETRYs, refusals), after a
     * burst of twice as many.
     */
    public static final int DEFAULT_UNVALIDATED_ANSWERS_PER_SECOND_PER_SOURCE = 100;

    /**
     * Answers per second all unvalidated addresses together may draw (after a burst of a quarter second's worth).
     */
    public static final int DEFAULT_UNVALIDATED_ANSWERS_PER_SECOND = 10_000;

    /**
     * Diffie-Hellman handshakes (secure mode) per second the whole endpoint performs, after a burst of
     * {@link #DEFAULT_KEY_EXCHANGE_BURST}: each costs three X25519 operations and a connection's set-up, so this caps
     * the share of the agent a flood of hellos with valid MACs and tokens can take (docs/security.md, "Admission" step
     * 6 and "Floods, measured").
     */
    public static final int DEFAULT_KEY_EXCHANGES_PER_SECOND = 500;

    /**
     * Diffie-Hellman handshakes back to back once the rate's credit has built up: a receive batch's worth, so a crowd
     * of clients connecting at once is served in one round of their hellos rather than in rounds of their backed-off
     * retransmissions. No duty cycle performs more than {@link #DEFAULT_KEY_EXCHANGES_PER_DUTY_CYCLE} of them.
     */
    public static final int DEFAULT_KEY_EXCHANGE_BURST = 64;

    /**
     * Diffie-Hellman handshakes in one duty cycle: about a millisecond of work (docs/security.md, "Cost, measured"), so
     * no duty cycle, and none of the connections it serves, stalls on a burst of them; the hellos beyond it wait in
     * the receive batch for the next cycle, which starts at once.
     */
    public static final int DEFAULT_KEY_EXCHANGES_PER_DUTY_CYCLE = 4;

    /**
     * Time into a duty cycle after which it starts no further Diffie-Hellman handshake (it always performs one): four
     * of them take about a millisecond once the JIT compiled them, but many times that while it has not — the first
     * seconds of a flood, a deoptimisation — or on a slow machine, and a count alone then lets one cycle stall every
     * connection for tens of milliseconds (docs/security.md, "Floods, measured").
     */
    public static final long DEFAULT_KEY_EXCHANGE_TIME_PER_DUTY_CYCLE_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private int handshakesPerSecondPerSource = DEFAULT_HANDSHAKES_PER_SECOND_PER_SOURCE;
    private int handshakeBurstPerSource = DEFAULT_HANDSHAKE_BURST_PER_SOURCE;
    private long retryTokenLifetimeNs = DEFAULT_RETRY_TOKEN_LIFETIME_NS;
    private long newTokenLifetimeNs = DEFAULT_NEW_TOKEN_LIFETIME_NS;
    private long memoryBudgetBytes = DEFAULT_MEMORY_BUDGET_BYTES;
    private int maxReceiveRanges = DEFAULT_MAX_RECEIVE_RANGES;
    private int maxUnacknowledgedPtos = DEFAULT_MAX_UNACKNOWLEDGED_PTOS;
    private int maxPacketsWithoutProgress = DEFAULT_MAX_PACKETS_WITHOUT_PROGRESS;
    private long minRttSampleNs = DEFAULT_MIN_RTT_SAMPLE_NS;
    private int maxUnconfirmedHandshakes = DEFAULT_MAX_UNCONFIRMED_HANDSHAKES;
    private int maxUnconfirmedHandshakesPerSource = DEFAULT_MAX_UNCONFIRMED_HANDSHAKES_PER_SOURCE;
    private RetryMode retryMode = RetryMode.AUTO;
    private int retryThresholdHandshakesPerSecond = DEFAULT_RETRY_THRESHOLD_HANDSHAKES_PER_SECOND;
    private int retryThresholdHandshakesPerSecondPerSource = DEFAULT_RETRY_THRESHOLD_HANDSHAKES_PER_SECOND_PER_SOURCE;
    private int unvalidatedAnswersPerSecondPerSource = DEFAULT_UNVALIDATED_ANSWERS_PER_SECOND_PER_SOURCE;
    private int unvalidatedAnswersPerSecond = DEFAULT_UNVALIDATED_ANSWERS_PER_SECOND;
    private int keyExchangesPerSecond = DEFAULT_KEY_EXCHANGES_PER_SECOND;
    private int keyExchangeBurst = DEFAULT_KEY_EXCHANGE_BURST;
    private int keyExchangesPerDutyCycle = DEFAULT_KEY_EXCHANGES_PER_DUTY_CYCLE;
    private long keyExchangeTimePerDutyCycleNs = DEFAULT_KEY_EXCHANGE_TIME_PER_DUTY_CYCLE_NS;

    /**
     * @param handshakes new connections one source address (IP, any port) may open per second once its burst is
     *                   spent, 1..1,000,000; more hellos are dropped and counted, and the client retries later.
     * @return this.
     */
    public EndpointLimits handshakesPerSecondPerSource(final int handshakes)
    {
        handshakesPerSecondPerSource = requireRange("handshakesPerSecondPerSource", handshakes, 1, 1_000_000);
        return this;
    }

    public int handshakesPerSecondPerSource()
    {
        return handshakesPerSecondPerSource;
    }

    /**
     * @param handshakes new connections one source address may open back to back, 1..1,000,000.
     * @return this.
     */
    public EndpointLimits handshakeBurstPerSource(final int handshakes)
    {
        handshakeBurstPerSource = requireRange("handshakeBurstPerSource", handshakes, 1, 1_000_000);
        return this;
    }

    public int handshakeBurstPerSource()
    {
        return handshakeBurstPerSource;
    }

    /**
     * @param ns how long an address-validation (Retry) token is accepted after it was issued, 100 ms..10 min.
     * @return this.
     */
    public EndpointLimits retryTokenLifetimeNs(final long ns)
    {
        retryTokenLifetimeNs = requireRange(
            "retryTokenLifetimeNs", ns, TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.MINUTES.toNanos(10));
        return this;
    }

    public long retryTokenLifetimeNs()
    {
        return retryTokenLifetimeNs;
    }

    /**
     * @param ns how long a token this server gives a confirmed client in a NEW_TOKEN frame is accepted (once) after
     *           it was issued, 1 s..7 days; 0 gives no such tokens, so a returning client pays the RETRY under
     *           pressure like a new one (docs/security.md, "Admission").
     * @return this.
     */
    public EndpointLimits newTokenLifetimeNs(final long ns)
    {
        newTokenLifetimeNs = 0 == ns ? 0 :
            requireRange("newTokenLifetimeNs", ns, TimeUnit.SECONDS.toNanos(1), TimeUnit.DAYS.toNanos(7));
        return this;
    }

    public long newTokenLifetimeNs()
    {
        return newTokenLifetimeNs;
    }

    /**
     * @param bytes stream buffers and sent-packet records all connections may commit together, 1 MiB..1 TiB; a
     *              connection that would exceed it is refused, and one that would grow beyond it is held at its size
     *              (back-pressure on send, packets dropped unacknowledged on receive).
     * @return this.
     */
    public EndpointLimits memoryBudgetBytes(final long bytes)
    {
        memoryBudgetBytes = requireRange("memoryBudgetBytes", bytes, 1L << 20, 1L << 40);
        return this;
    }

    public long memoryBudgetBytes()
    {
        return memoryBudgetBytes;
    }

    /**
     * @param ranges separate out-of-order byte ranges one connection may hold, below what memory allows (an eighth
     *               of the receive buffer in bookkeeping, 25 bytes a range); a peer that opens more is closed with a
     *               protocol violation ("reassembly limit"), 16..16,777,216 (the default: memory decides).
     * @return this.
     * @deprecated a count either closes legitimate long fat flows or is too high to matter; the reassembly limit is
     * memory now, an eighth of {@link PacelinkContext#receiveBufferBytes(int)}. Goes in the next minor version.
     */
    @Deprecated
    public EndpointLimits maxReceiveRanges(final int ranges)
    {
        maxReceiveRanges = requireRange("maxReceiveRanges", ranges, 16, 1 << 24);
        return this;
    }

    /**
     * @return the count limit on out-of-order ranges, {@link #DEFAULT_MAX_RECEIVE_RANGES} unless set.
     * @deprecated see {@link #maxReceiveRanges(int)}.
     */
    @Deprecated
    public int maxReceiveRanges()
    {
        return maxReceiveRanges;
    }

    /**
     * @param ptos consecutive probe timeouts without an acknowledgement after which the connection closes as
     *             {@link CloseReason#PEER_UNRESPONSIVE}, 2..30.
     * @return this.
     */
    public EndpointLimits maxUnacknowledgedPtos(final int ptos)
    {
        maxUnacknowledgedPtos = requireRange("maxUnacknowledgedPtos", ptos, 2, 30);
        return this;
    }

    public int maxUnacknowledgedPtos()
    {
        return maxUnacknowledgedPtos;
    }

    /**
     * @param packets packets without progress a peer may send in an idle timeout (PINGs, ACKs that acknowledge
     *                nothing new; no new data, no new credit or receipt) before its connection closes as
     *                {@link CloseReason#NO_PROGRESS}, 8..1,000,000 (docs/security.md, "Liveness by progress").
     * @return this.
     */
    public EndpointLimits maxPacketsWithoutProgress(final int packets)
    {
        maxPacketsWithoutProgress = requireRange("maxPacketsWithoutProgress", packets, 8, 1_000_000);
        return this;
    }

    /**
     * @return packets without progress a peer may send in an idle timeout.
     */
    public int maxPacketsWithoutProgress()
    {
        return maxPacketsWithoutProgress;
    }

    /**
     * @param ns the smallest RTT sample accepted, 0..1 s: raise it to the propagation delay your paths cannot beat
     *           (e.g. 1 ms for a service reached only over a WAN) so forged early acknowledgements cannot shrink
     *           min_rtt below it.
     * @return this.
     */
    public EndpointLimits minRttSampleNs(final long ns)
    {
        minRttSampleNs = requireRange("minRttSampleNs", ns, 0, TimeUnit.SECONDS.toNanos(1));
        return this;
    }

    public long minRttSampleNs()
    {
        return minRttSampleNs;
    }

    /**
     * @param handshakes server handshakes not yet confirmed by their client held at once, apart from
     *                   {@link PacelinkContext#maxConnections}, 1..1,000,000; when full, the oldest is dropped for a
     *                   new one, so half-open handshakes never keep a new client out.
     * @return this.
     */
    public EndpointLimits maxUnconfirmedHandshakes(final int handshakes)
    {
        maxUnconfirmedHandshakes = requireRange("maxUnconfirmedHandshakes", handshakes, 1, 1_000_000);
        return this;
    }

    public int maxUnconfirmedHandshakes()
    {
        return maxUnconfirmedHandshakes;
    }

    /**
     * @param handshakes unconfirmed server handshakes one source address (any port) holds at once, 1..1,000,000 and
     *                   at most {@link #maxUnconfirmedHandshakes}; its oldest is dropped for its new one.
     * @return this.
     */
    public EndpointLimits maxUnconfirmedHandshakesPerSource(final int handshakes)
    {
        maxUnconfirmedHandshakesPerSource =
            requireRange("maxUnconfirmedHandshakesPerSource", handshakes, 1, 1_000_000);
        return this;
    }

    public int maxUnconfirmedHandshakesPerSource()
    {
        return maxUnconfirmedHandshakesPerSource;
    }

    /**
     * @param mode when a hello without a valid token gets a RETRY: {@link RetryMode#AUTO} (under pressure, the
     *             default), {@link RetryMode#ALWAYS} or {@link RetryMode#NEVER}.
     * @return this.
     */
    public EndpointLimits retryMode(final RetryMode mode)
    {
        if (null == mode)
        {
            throw new IllegalArgumentException("retryMode must be one of " + Arrays.toString(
                RetryMode.values()) + ", got null");
        }
        retryMode = mode;
        return this;
    }

    public RetryMode retryMode()
    {
        return retryMode;
    }

    /**
     * @param handshakes hellos without a valid token per second, after a quarter second's worth back to back, above
     *                   which {@link RetryMode#AUTO} answers them with a RETRY, 4..1,000,000.
     * @return this.
     */
    public EndpointLimits retryThresholdHandshakesPerSecond(final int handshakes)
    {
        retryThresholdHandshakesPerSecond =
            requireRange("retryThresholdHandshakesPerSecond", handshakes, 4, 1_000_000);
        return this;
    }

    public int retryThresholdHandshakesPerSecond()
    {
        return retryThresholdHandshakesPerSecond;
    }

    /**
     * @param handshakes hellos without a valid token per second from one source address, after a quarter second's
     *                   worth back to back, above which {@link RetryMode#AUTO} answers that source's with a RETRY,
     *                   4..1,000,000. Hellos beyond it do not count towards
     *                   {@link #retryThresholdHandshakesPerSecond}, so one host's flood does not turn the RETRY on
     *                   for everyone.
     * @return this.
     */
    public EndpointLimits retryThresholdHandshakesPerSecondPerSource(final int handshakes)
    {
        retryThresholdHandshakesPerSecondPerSource =
            requireRange("retryThresholdHandshakesPerSecondPerSource", handshakes, 4, 1_000_000);
        return this;
    }

    public int retryThresholdHandshakesPerSecondPerSource()
    {
        return retryThresholdHandshakesPerSecondPerSource;
    }

    /**
     * @param answers answers (RETRYs, refusals) per second one source address may draw before it is validated, after
     *                a burst of twice as many, 1..1,000,000; more are dropped and counted.
     * @return this.
     */
    public EndpointLimits unvalidatedAnswersPerSecondPerSource(final int answers)
    {
        unvalidatedAnswersPerSecondPerSource =
            requireRange("unvalidatedAnswersPerSecondPerSource", answers, 1, 1_000_000);
        return this;
    }

    public int unvalidatedAnswersPerSecondPerSource()
    {
        return unvalidatedAnswersPerSecondPerSource;
    }

    /**
     * @param answers answers per second all unvalidated addresses together may draw, after a quarter second's worth
     *                back to back, 4..10,000,000; more are dropped and counted.
     * @return this.
     */
    public EndpointLimits unvalidatedAnswersPerSecond(final int answers)
    {
        unvalidatedAnswersPerSecond = requireRange("unvalidatedAnswersPerSecond", answers, 4, 10_000_000);
        return this;
    }

    public int unvalidatedAnswersPerSecond()
    {
        return unvalidatedAnswersPerSecond;
    }

    /**
     * @param exchanges Diffie-Hellman handshakes (secure mode) the endpoint performs per second once its burst is
     *                  spent, 1..1,000,000; hellos beyond it are dropped and counted, their clients retransmit. One
     *                  source may take half of it (and half the burst), so one host never takes it all.
     * @return this.
     */
    public EndpointLimits keyExchangesPerSecond(final int exchanges)
    {
        keyExchangesPerSecond = requireRange("keyExchangesPerSecond", exchanges, 1, 1_000_000);
        return this;
    }

    public int keyExchangesPerSecond()
    {
        return keyExchangesPerSecond;
    }

    /**
     * @param exchanges Diffie-Hellman handshakes back to back once the rate's credit has built up, 1..1,000,000.
     * @return this.
     */
    public EndpointLimits keyExchangeBurst(final int exchanges)
    {
        keyExchangeBurst = requireRange("keyExchangeBurst", exchanges, 1, 1_000_000);
        return this;
    }

    public int keyExchangeBurst()
    {
        return keyExchangeBurst;
    }

    /**
     * @param exchanges Diffie-Hellman handshakes one duty cycle performs, 1..1,000,000: bounds how long a cycle spends
     *                  on them; the hellos after it in the cycle's receive batch wait for the next cycle.
     * @return this.
     */
    public EndpointLimits keyExchangesPerDutyCycle(final int exchanges)
    {
        keyExchangesPerDutyCycle = requireRange("keyExchangesPerDutyCycle", exchanges, 1, 1_000_000);
        return this;
    }

    public int keyExchangesPerDutyCycle()
    {
        return keyExchangesPerDutyCycle;
    }

    /**
     * @param ns time into a duty cycle, 1 µs..1 s, after which it starts no further Diffie-Hellman handshake (it always
     *           performs one); the hellos after it in its receive batch wait for the next cycle. Only a duty cycle on
     *           a running clock reads the time; in virtual time only {@link #keyExchangesPerDutyCycle} applies.
     * @return this.
     */
    public EndpointLimits keyExchangeTimePerDutyCycleNs(final long ns)
    {
        keyExchangeTimePerDutyCycleNs = requireRange(
            "keyExchangeTimePerDutyCycleNs", ns, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.SECONDS.toNanos(1));
        return this;
    }

    public long keyExchangeTimePerDutyCycleNs()
    {
        return keyExchangeTimePerDutyCycleNs;
    }

    /**
     * Check the limits against the rest of the configuration.
     *
     * @param context the endpoint's configuration.
     * @throws IllegalStateException saying which settings conflict and how to fix them.
     */
    void conclude(final PacelinkContext context)
    {
        // One connection must be able to grow to its configured buffers, or a message of the maximum length may
        // never fit and offer() would stay back-pressured for ever.
        final long oneConnectionBytes = (long)context.sendBufferBytes() + context.receiveBufferBytes();
        if (memoryBudgetBytes < oneConnectionBytes)
        {
            throw new IllegalStateException("memoryBudgetBytes=" + memoryBudgetBytes + " is smaller than one " +
                "connection's sendBufferBytes + receiveBufferBytes=" + oneConnectionBytes +
                ": raise the budget or lower the buffers");
        }
        if (maxUnconfirmedHandshakesPerSource > maxUnconfirmedHandshakes)
        {
            throw new IllegalStateException("maxUnconfirmedHandshakesPerSource=" + maxUnconfirmedHandshakesPerSource +
                " is larger than maxUnconfirmedHandshakes=" + maxUnconfirmedHandshakes +
                ": lower it or raise the other");
        }
    }
}
