package io.pacelink.transport.engine;

import io.pacelink.transport.EndpointLimits;
import io.pacelink.transport.admission.AddressValidator;
import io.pacelink.transport.admission.SourceRateLimiter;
import io.pacelink.transport.secure.Crc32cGuard;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.net.InetSocketAddress;

/**
 * The server's answers to a hello that keep no state: a RETRY with an address-validation token (RFC 9000 section
 * 8.1.2), carrying the server's static public key when it answers a Noise NK hello (docs/wire-format.md, "Secure
 * mode"), and a CLOSE refusing the hello with an error code and a phrase that say why — in this endpoint's version,
 * or in the client's own for a client of another version (docs/wire-format.md, "Versions"). Each is far smaller than
 * the hello it answers, and leaves through the {@link Outbox} with the cycle's other datagrams. Each goes to an
 * address nobody has proven (a spoofed source makes the endpoint a reflector towards its victim, if not an
 * amplifier), so each passes a token bucket for its destination and one for all destinations first; one over either
 * is dropped and counted.
 */
final class StatelessReplies
{
    private static final int DESTINATION_BUCKETS = 4096;

    private final Outbox outbox;
    private final PacketWriter writer;
    private final Crc32cGuard crc;
    private final int maxDatagramSizeBytes;
    private final SourceRateLimiter perDestination;
    private final SourceRateLimiter allDestinations;
    private final SecurityCounters counters;
    private final PacketHeaderFlyweight header = new PacketHeaderFlyweight();

    /**
     * @param outbox               where the replies go.
     * @param writer               the endpoint's packet writer.
     * @param crc                  seals the replies of this version.
     * @param maxDatagramSizeBytes the endpoint's datagram size.
     * @param limits               the answer rates, per destination and for all.
     * @param hashSeed             secret seed of the per-destination buckets.
     * @param counters             counts the replies sent and those over the rates.
     */
    StatelessReplies(
        final Outbox outbox,
        final PacketWriter writer,
        final Crc32cGuard crc,
        final int maxDatagramSizeBytes,
        final EndpointLimits limits,
        final long hashSeed,
        final SecurityCounters counters)
    {
        this.outbox = outbox;
        this.writer = writer;
        this.crc = crc;
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.perDestination = new SourceRateLimiter(DESTINATION_BUCKETS, hashSeed,
            limits.unvalidatedAnswersPerSecondPerSource(), 2 * limits.unvalidatedAnswersPerSecondPerSource());
        this.allDestinations = SourceRateLimiter.global(
            limits.unvalidatedAnswersPerSecond(), limits.unvalidatedAnswersPerSecond() / 4);
        this.counters = counters;
    }

    /**
     * @return true if an answer to the destination is within both rates (and is counted against them); else the
     * answer is counted as limited and must not be sent.
     */
    private boolean isWithinRate(final InetSocketAddress destination, final long nowNs)
    {
        if (perDestination.tryAcquire(destination.getAddress(), nowNs) && allDestinations.tryAcquire(null, nowNs))
        {
            return true;
        }
        counters.answersRateLimited().incrementRelease();
        return false;
    }

    /**
     * @param clientId    the client's id from its hello.
     * @param token       the address-validation token, {@link AddressValidator#TOKEN_LENGTH} bytes from 0.
     * @param serverKey   the server's static public key, answering a Noise NK hello; else null.
     * @param destination the hello's source.
     * @param nowNs       the current time.
     */
    void sendRetry(
        final long clientId,
        final DirectBuffer token,
        final byte[] serverKey,
        final InetSocketAddress destination,
        final long nowNs)
    {
        if (!isWithinRate(destination, nowNs))
        {
            return;
        }
        counters.retriesSent().incrementRelease();
        final int lengthBytes = RetryPacketFlyweight.TOKEN_OFFSET + AddressValidator.TOKEN_LENGTH +
            (null == serverKey ? 0 : RetryPacketFlyweight.SERVER_KEY_LENGTH);
        final int offset = outbox.claim(lengthBytes + Crc32cPacketCheck.TRAILER_LENGTH);
        writer.wrap(outbox.buffer(), offset, lengthBytes);
        writer.writeRetry(clientId, token, 0, AddressValidator.TOKEN_LENGTH, serverKey);
        outbox.commit(crc.seal(outbox.buffer(), offset, writer.length()), destination);
    }

    /**
     * A CLOSE refusing a client's hello.
     *
     * @param clientId    the client's id from its hello.
     * @param errorCode   {@link ConnectionLifecycle#REJECTED_ERROR}, or for a secure server's refusals
     *                    {@link ConnectionLifecycle#AUTHENTICATION_FAILED_ERROR} or
     *                    {@link ConnectionLifecycle#SECURITY_MISMATCH_ERROR}.
     * @param reason      why.
     * @param version     the header version to write, 0 for this endpoint's.
     * @param destination the hello's source.
     * @param nowNs       the current time.
     */
    void sendRejection(
        final long clientId,
        final int errorCode,
        final DirectBuffer reason,
        final int version,
        final InetSocketAddress destination,
        final long nowNs)
    {
        if (!isWithinRate(destination, nowNs))
        {
            return;
        }
        final MutableDirectBuffer buffer = outbox.buffer();
        final int offset = outbox.claim(maxDatagramSizeBytes);
        writer.wrap(buffer, offset, maxDatagramSizeBytes - Crc32cPacketCheck.TRAILER_LENGTH);
        writer.writeHeader(PacketType.CLOSE, clientId, 0);
        writer.appendClose(errorCode, reason, 0, reason.capacity());
        if (0 != version)
        {
            // Another version's client: written in its layout, which has an integrity trailer from version 3 on
            // (computed over the client's version byte) and none before.
            header.wrap(buffer, offset);
            header.version(version);
            outbox.commit(version >= PacketHeaderFlyweight.FIRST_VERSION_WITH_TRAILER ?
                crc.seal(buffer, offset, writer.length()) : writer.length(), destination);
        }
        else
        {
            outbox.commit(crc.seal(buffer, offset, writer.length()), destination);
        }
    }
}
