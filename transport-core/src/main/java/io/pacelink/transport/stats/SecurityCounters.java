package io.pacelink.transport.stats;

import org.agrona.CloseHelper;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

import static io.pacelink.transport.stats.EndpointCounters.newCounter;

/**
 * The endpoint-wide counters of its defences against hostile input (docs/security.md lists what each one means and
 * the limit behind it): refused handshakes by reason, address validation, rate limits, packets dropped for their
 * source address or packet number, the peer misbehaviour that closed connections, and the memory budget. Written by
 * the agent thread only; readable from any thread, like {@link EndpointCounters}.
 */
public final class SecurityCounters implements AutoCloseable
{
    private final AtomicCounter handshakesTooSmall;
    private final AtomicCounter handshakesRefusedVersion;
    private final AtomicCounter handshakesRefusedParameters;
    private final AtomicCounter retriesSent;
    private final AtomicCounter retryTokensInvalid;
    private final AtomicCounter retryTokensExpired;
    private final AtomicCounter handshakesRateLimited;
    private final AtomicCounter handshakesRefusedMemory;
    private final AtomicCounter handshakeTimeouts;
    private final AtomicCounter packetsFromWrongAddress;
    private final AtomicCounter packetNumbersOutOfWindow;
    private final AtomicCounter acksOfSkippedPackets;
    private final AtomicCounter rttSamplesRejected;
    private final AtomicCounter reassemblyLimitCloses;
    private final AtomicCounter dataMismatchCloses;
    private final AtomicCounter deadPeerCloses;
    private final AtomicCounter memoryCommittedBytes;
    private final AtomicCounter memoryRefusals;
    private final AtomicCounter stalledSends;
    private final AtomicCounter integrityFailures;
    private final AtomicCounter packetsUnauthenticated;
    private final AtomicCounter hellosBadMac;
    private final AtomicCounter hellosReplayed;
    private final AtomicCounter handshakeAuthFailures;
    private final AtomicCounter handshakesRefusedMode;
    private final AtomicCounter keyUpdates;
    private final AtomicCounter migrations;
    private final AtomicCounter pathValidationsFailed;
    private final AtomicCounter handshakesUnvalidated;
    private final AtomicCounter handshakesEvicted;
    private final AtomicCounter retryTokensReused;
    private final AtomicCounter keyExchangesLimited;
    private final AtomicCounter answersRateLimited;
    private final AtomicCounter statelessResetsSent;
    private final AtomicCounter noProgressCloses;
    private final AtomicCounter statelessResetsReceived;
    private final AtomicCounter newTokensSent;
    private final AtomicCounter newTokensAccepted;
    private final AtomicCounter newTokensInvalid;
    private final AtomicCounter newTokensExpired;
    private final AtomicCounter newTokensReused;

    /**
     * @param countersManager where to register the counters.
     * @param endpointName    label prefix, e.g. the bound address.
     */
    public SecurityCounters(final CountersManager countersManager, final String endpointName)
    {
        handshakesTooSmall = newCounter(countersManager, endpointName, "handshakes-too-small");
        handshakesRefusedVersion = newCounter(countersManager, endpointName, "handshakes-refused-version");
        handshakesRefusedParameters = newCounter(countersManager, endpointName, "handshakes-refused-parameters");
        retriesSent = newCounter(countersManager, endpointName, "retries-sent");
        retryTokensInvalid = newCounter(countersManager, endpointName, "retry-tokens-invalid");
        retryTokensExpired = newCounter(countersManager, endpointName, "retry-tokens-expired");
        handshakesRateLimited = newCounter(countersManager, endpointName, "handshakes-rate-limited");
        handshakesRefusedMemory = newCounter(countersManager, endpointName, "handshakes-refused-memory");
        handshakeTimeouts = newCounter(countersManager, endpointName, "handshake-timeouts");
        packetsFromWrongAddress = newCounter(countersManager, endpointName, "packets-from-wrong-address");
        packetNumbersOutOfWindow = newCounter(countersManager, endpointName, "packet-numbers-out-of-window");
        acksOfSkippedPackets = newCounter(countersManager, endpointName, "acks-of-skipped-packets");
        rttSamplesRejected = newCounter(countersManager, endpointName, "rtt-samples-rejected");
        reassemblyLimitCloses = newCounter(countersManager, endpointName, "reassembly-limit-closes");
        dataMismatchCloses = newCounter(countersManager, endpointName, "data-mismatch-closes");
        deadPeerCloses = newCounter(countersManager, endpointName, "dead-peer-closes");
        memoryCommittedBytes = newCounter(countersManager, endpointName, "memory-committed-bytes");
        memoryRefusals = newCounter(countersManager, endpointName, "memory-refusals");
        stalledSends = newCounter(countersManager, endpointName, "stalled-sends");
        integrityFailures = newCounter(countersManager, endpointName, "integrity-failures");
        packetsUnauthenticated = newCounter(countersManager, endpointName, "packets-unauthenticated");
        hellosBadMac = newCounter(countersManager, endpointName, "hellos-bad-mac");
        hellosReplayed = newCounter(countersManager, endpointName, "hellos-replayed");
        handshakeAuthFailures = newCounter(countersManager, endpointName, "handshake-auth-failures");
        handshakesRefusedMode = newCounter(countersManager, endpointName, "handshakes-refused-mode");
        keyUpdates = newCounter(countersManager, endpointName, "key-updates");
        handshakesUnvalidated = newCounter(countersManager, endpointName, "handshakes-unvalidated");
        handshakesEvicted = newCounter(countersManager, endpointName, "handshakes-evicted");
        retryTokensReused = newCounter(countersManager, endpointName, "retry-tokens-reused");
        keyExchangesLimited = newCounter(countersManager, endpointName, "key-exchanges-limited");
        answersRateLimited = newCounter(countersManager, endpointName, "answers-rate-limited");
        statelessResetsSent = newCounter(countersManager, endpointName, "stateless-resets-sent");
        noProgressCloses = newCounter(countersManager, endpointName, "no-progress-closes");
        statelessResetsReceived = newCounter(countersManager, endpointName, "stateless-resets-received");
        migrations = newCounter(countersManager, endpointName, "migrations");
        pathValidationsFailed = newCounter(countersManager, endpointName, "path-validations-failed");
        newTokensSent = newCounter(countersManager, endpointName, "new-tokens-sent");
        newTokensAccepted = newCounter(countersManager, endpointName, "new-tokens-accepted");
        newTokensInvalid = newCounter(countersManager, endpointName, "new-tokens-invalid");
        newTokensExpired = newCounter(countersManager, endpointName, "new-tokens-expired");
        newTokensReused = newCounter(countersManager, endpointName, "new-tokens-reused");
    }

    /**
     * @return hellos in datagrams shorter than 1200 bytes, dropped unanswered (RFC 9000 section 14.1).
     */
    public AtomicCounter handshakesTooSmall()
    {
        return handshakesTooSmall;
    }

    /**
     * @return hellos of another wire-format version, refused.
     */
    public AtomicCounter handshakesRefusedVersion()
    {
        return handshakesRefusedVersion;
    }

    /**
     * @return hellos whose parameters are unusable (a maximum datagram size below 1200 bytes), refused.
     */
    public AtomicCounter handshakesRefusedParameters()
    {
        return handshakesRefusedParameters;
    }

    /**
     * @return Retry packets sent to hellos without a valid token.
     */
    public AtomicCounter retriesSent()
    {
        return retriesSent;
    }

    /**
     * @return hellos whose token failed its MAC, was minted for another address or client, or is malformed.
     */
    public AtomicCounter retryTokensInvalid()
    {
        return retryTokensInvalid;
    }

    /**
     * @return hellos whose token was older than its lifetime.
     */
    public AtomicCounter retryTokensExpired()
    {
        return retryTokensExpired;
    }

    /**
     * @return validated hellos dropped because their source opened connections faster than its limit.
     */
    public AtomicCounter handshakesRateLimited()
    {
        return handshakesRateLimited;
    }

    /**
     * @return validated hellos refused because the memory budget could not hold another connection.
     */
    public AtomicCounter handshakesRefusedMemory()
    {
        return handshakesRefusedMemory;
    }

    /**
     * @return server-side connections whose client never confirmed the handshake within the handshake timeout.
     */
    public AtomicCounter handshakeTimeouts()
    {
        return handshakeTimeouts;
    }

    /**
     * @return packets for a known connection that came from another address than the connection's peer.
     */
    public AtomicCounter packetsFromWrongAddress()
    {
        return packetsFromWrongAddress;
    }

    /**
     * @return packets whose number lay far beyond the largest received, dropped unacknowledged.
     */
    public AtomicCounter packetNumbersOutOfWindow()
    {
        return packetNumbersOutOfWindow;
    }

    /**
     * @return ACK frames that acknowledged a packet number never sent (skipped or above the largest sent): each
     * closed its connection with a protocol violation (RFC 9000 section 21.4).
     */
    public AtomicCounter acksOfSkippedPackets()
    {
        return acksOfSkippedPackets;
    }

    /**
     * @return RTT samples below the minimum RTT sample limit, ignored.
     */
    public AtomicCounter rttSamplesRejected()
    {
        return rttSamplesRejected;
    }

    /**
     * @return connections closed because the peer opened more out-of-order ranges than the reassembly limit.
     */
    public AtomicCounter reassemblyLimitCloses()
    {
        return reassemblyLimitCloses;
    }

    /**
     * @return connections closed because the peer sent different bytes for the same stream offsets
     * (RFC 9000 section 2.2).
     */
    public AtomicCounter dataMismatchCloses()
    {
        return dataMismatchCloses;
    }

    /**
     * @return connections closed because the peer acknowledged nothing through the limit of consecutive probe
     * timeouts.
     */
    public AtomicCounter deadPeerCloses()
    {
        return deadPeerCloses;
    }

    /**
     * @return bytes of stream buffers and sent-packet records committed now, pooled ones included (a gauge).
     */
    public AtomicCounter memoryCommittedBytes()
    {
        return memoryCommittedBytes;
    }

    /**
     * @return times a connection could not grow a buffer because the memory budget was spent.
     */
    public AtomicCounter memoryRefusals()
    {
        return memoryRefusals;
    }

    /**
     * @return times a connection released to send ack-eliciting work built none; it was not released again within
     * that duty cycle, so no connection can spin the agent without progress.
     */
    public AtomicCounter stalledSends()
    {
        return stalledSends;
    }

    /**
     * @return packets whose CRC32C or AEAD tag did not check: corrupted on the way, or forged; dropped before any
     * frame was read.
     */
    public AtomicCounter integrityFailures()
    {
        return integrityFailures;
    }

    /**
     * @return plaintext packets for a secure connection, or sealed packets for a connection without keys; dropped.
     */
    public AtomicCounter packetsUnauthenticated()
    {
        return packetsUnauthenticated;
    }

    /**
     * @return secure hellos whose MAC did not check (a flood, or a client with the wrong key); dropped before any
     * public-key work.
     */
    public AtomicCounter hellosBadMac()
    {
        return hellosBadMac;
    }

    /**
     * @return hellos repeated after their connection was confirmed; dropped.
     */
    public AtomicCounter hellosReplayed()
    {
        return hellosReplayed;
    }

    /**
     * @return Noise handshake messages that failed (wrong key, tampered, small-order point, parameters changed on
     * the way); dropped.
     */
    public AtomicCounter handshakeAuthFailures()
    {
        return handshakeAuthFailures;
    }

    /**
     * @return hellos refused because one side speaks the secure mode and the other plaintext.
     */
    public AtomicCounter handshakesRefusedMode()
    {
        return handshakesRefusedMode;
    }

    /**
     * @return key updates of sending keys, all connections.
     */
    public AtomicCounter keyUpdates()
    {
        return keyUpdates;
    }

    /**
     * @return hellos given a connection without a RETRY first (retry mode auto without pressure, or never).
     */
    public AtomicCounter handshakesUnvalidated()
    {
        return handshakesUnvalidated;
    }

    /**
     * @return unconfirmed server handshakes dropped for a newer one when their source or the handshake budget was
     * full.
     */
    public AtomicCounter handshakesEvicted()
    {
        return handshakesEvicted;
    }

    /**
     * @return hellos echoing a valid token already spent on an earlier hello, treated as hellos without one.
     */
    public AtomicCounter retryTokensReused()
    {
        return retryTokensReused;
    }

    /**
     * @return secure hellos dropped because the endpoint's Diffie-Hellman budget was spent.
     */
    public AtomicCounter keyExchangesLimited()
    {
        return keyExchangesLimited;
    }

    /**
     * @return answers to unvalidated addresses (RETRYs, refusals) not sent because their source or all sources were
     * over their rate.
     */
    public AtomicCounter answersRateLimited()
    {
        return answersRateLimited;
    }

    /**
     * @return stateless resets sent to packets for connection ids this endpoint does not know (RFC 9000 section
     * 10.3; those over the answer rates count as {@link #answersRateLimited()}).
     */
    public AtomicCounter statelessResetsSent()
    {
        return statelessResetsSent;
    }

    /**
     * @return stateless resets received that carried a connection's token from its peer's address: each closed
     * its connection as {@code PEER_RESET}.
     */
    public AtomicCounter statelessResetsReceived()
    {
        return statelessResetsReceived;
    }

    /**
     * @return connections closed as {@code NO_PROGRESS}: their peer sent only PINGs and ACKs for an idle timeout,
     * beyond the keep-alive bound.
     */
    public AtomicCounter noProgressCloses()
    {
        return noProgressCloses;
    }

    /**
     * @return connections moved to their peer's new address once path validation proved it (RFC 9000 section 9).
     */
    public AtomicCounter migrations()
    {
        return migrations;
    }

    /**
     * @return path validations abandoned: no PATH_RESPONSE from a peer's new address in time, the connection left
     * on its old path (RFC 9000 section 8.2.4).
     */
    public AtomicCounter pathValidationsFailed()
    {
        return pathValidationsFailed;
    }

    /**
     * @return tokens this server gave its confirmed clients in NEW_TOKEN frames (one a connection; a lost one is sent
     * again, not counted again).
     */
    public AtomicCounter newTokensSent()
    {
        return newTokensSent;
    }

    /**
     * @return hellos whose NEW_TOKEN token was valid and unspent: treated as address-validated, no RETRY.
     */
    public AtomicCounter newTokensAccepted()
    {
        return newTokensAccepted;
    }

    /**
     * @return hellos whose NEW_TOKEN-format token was forged, damaged or minted for another address: treated as hellos
     * without one.
     */
    public AtomicCounter newTokensInvalid()
    {
        return newTokensInvalid;
    }

    /**
     * @return hellos whose NEW_TOKEN token was genuine but older than its lifetime: treated as hellos without one.
     */
    public AtomicCounter newTokensExpired()
    {
        return newTokensExpired;
    }

    /**
     * @return hellos whose NEW_TOKEN token was spent on an earlier hello: treated as hellos without one.
     */
    public AtomicCounter newTokensReused()
    {
        return newTokensReused;
    }

    public void close()
    {
        CloseHelper.closeAll(
            handshakesTooSmall,
            handshakesRefusedVersion,
            handshakesRefusedParameters,
            retriesSent,
            retryTokensInvalid,
            retryTokensExpired,
            handshakesRateLimited,
            handshakesRefusedMemory,
            handshakeTimeouts,
            packetsFromWrongAddress,
            packetNumbersOutOfWindow,
            acksOfSkippedPackets,
            rttSamplesRejected,
            reassemblyLimitCloses,
            dataMismatchCloses,
            deadPeerCloses,
            memoryCommittedBytes,
            memoryRefusals,
            stalledSends,
            integrityFailures,
            packetsUnauthenticated,
            hellosBadMac,
            hellosReplayed,
            handshakeAuthFailures,
            handshakesRefusedMode,
            keyUpdates,
            handshakesUnvalidated,
            handshakesEvicted,
            retryTokensReused,
            keyExchangesLimited,
            answersRateLimited,
            statelessResetsSent,
            noProgressCloses,
            statelessResetsReceived,
            migrations,
            pathValidationsFailed,
            newTokensSent,
            newTokensAccepted,
            newTokensInvalid,
            newTokensExpired,
            newTokensReused);
    }
}
