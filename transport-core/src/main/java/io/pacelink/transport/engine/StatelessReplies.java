package io.pacelink.transport.engine;

import io.pacelink.transport.EndpointLimits;
import io.pacelink.transport.admission.AddressValidator;
import io.pacelink.transport.admission.SourceRateLimiter;
import io.pacelink.transport.secure.Crc32cGuard;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.secure.StatelessResetTokens;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.SplittableRandom;

/**
 * The server's answers to a hello that keep no state: a RETRY with an address-validation token (RFC 9000 section
 * 8.1.2), carrying the server's static public key when it answers a Noise NK hello (docs/wire-format.md, "Secure
 * mode"), and a CLOSE refusing the hello with an error code and a phrase that say why — in this endpoint's version,
 * or in the client's own for a client of another version (docs/wire-format.md, "Versions"). Each is far smaller than
 * the hello it answers, and leaves through the {@link Outbox} with the cycle's other datagrams. Each goes to an
 * address nobody has proven (a spoofed source makes the endpoint a reflector towards its victim, if not an
 * amplifier), so each passes a token bucket for its destination and one for all destinations first; one over either
 * is dropped and counted. The stateless resets (RFC 9000 section 10.3) this endpoint sends to packets for
 * connections it does not know pass buckets of their own at the same rates: forged packets for unknown connections
 * cost an attacker nothing to send, and sharing the handshake answers' buckets would let them starve the RETRYs a
 * legitimate client behind the same address (a NAT, or the attacker's own host) needs to connect.
 */
final class StatelessReplies
{
    private static final int DESTINATION_BUCKETS = 4096;

    /**
     * The shortest stateless reset: the first 4 header bytes of a packet, at least one unpredictable byte and the
     * token (RFC 9000 section 10.3 has 5 + 16 bytes for QUIC's short header). A trigger no longer than this gets no
     * answer: the answer must be shorter than its trigger (section 10.3.3).
     */
    static final int MIN_STATELESS_RESET_BYTES =
        PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET + 1 + StatelessResetTokens.TOKEN_LENGTH;

    /**
     * Up to this trigger length a reset is exactly one byte shorter than its trigger (RFC 9000 section 10.3: an
     * attacker cannot tell the two apart by size, and two endpoints answering each other's resets stop within a few
     * steps, section 10.3.3); a longer trigger gets a reset of a random length from this one up to a byte short of it.
     */
    static final int EXACT_LENGTH_TRIGGER_BYTES = 43;

    private final Outbox outbox;
    private final PacketWriter writer;
    private final Crc32cGuard crc;
    private final int maxDatagramSizeBytes;
    private final SourceRateLimiter perDestination;
    private final SourceRateLimiter allDestinations;
    private final SourceRateLimiter resetsPerDestination;
    private final SourceRateLimiter resetsToAllDestinations;
    private final SecurityCounters counters;
    private final PacketHeaderFlyweight header = new PacketHeaderFlyweight();
    private final StatelessResetTokens resetTokens;
    private final SplittableRandom resetPadding;

    /**
     * @param outbox               where the replies go.
     * @param writer               the endpoint's packet writer.
     * @param crc                  seals the replies of this version.
     * @param maxDatagramSizeBytes the endpoint's datagram size.
     * @param limits               the answer rates, per destination and for all.
     * @param hashSeed             secret seed of the per-destination buckets.
     * @param resetTokens          the tokens of this endpoint's connection ids.
     * @param resetPaddingSeed     seed of a stateless reset's unpredictable bytes and length.
     * @param counters             counts the replies sent and those over the rates.
     */
    StatelessReplies(
        final Outbox outbox,
        final PacketWriter writer,
        final Crc32cGuard crc,
        final int maxDatagramSizeBytes,
        final EndpointLimits limits,
        final long hashSeed,
        final StatelessResetTokens resetTokens,
        final long resetPaddingSeed,
        final SecurityCounters counters)
    {
        this.resetTokens = resetTokens;
        this.resetPadding = new SplittableRandom(resetPaddingSeed);
        this.outbox = outbox;
        this.writer = writer;
        this.crc = crc;
        this.maxDatagramSizeBytes = maxDatagramSizeBytes;
        this.perDestination = new SourceRateLimiter(DESTINATION_BUCKETS, hashSeed,
            limits.unvalidatedAnswersPerSecondPerSource(), 2 * limits.unvalidatedAnswersPerSecondPerSource());
        this.allDestinations = SourceRateLimiter.global(
            limits.unvalidatedAnswersPerSecond(), limits.unvalidatedAnswersPerSecond() / 4);
        this.resetsPerDestination = new SourceRateLimiter(DESTINATION_BUCKETS, ~hashSeed,
            limits.unvalidatedAnswersPerSecondPerSource(), 2 * limits.unvalidatedAnswersPerSecondPerSource());
        this.resetsToAllDestinations = SourceRateLimiter.global(
            limits.unvalidatedAnswersPerSecond(), limits.unvalidatedAnswersPerSecond() / 4);
        this.counters = counters;
    }

    /**
     * @return true if an answer to the destination is within both rates (and is counted against them); else the
     * answer is counted as limited and must not be sent.
     */
    private boolean isWithinRate(final InetSocketAddress destination, final long nowNs)
    {
        return isWithinRate(perDestination, allDestinations, destination, nowNs);
    }

    private boolean isWithinRate(
        final SourceRateLimiter toDestination,
        final SourceRateLimiter toAll,
        final InetSocketAddress destination,
        final long nowNs)
    {
        if (toDestination.tryAcquire(destination.getAddress(), nowNs) && toAll.tryAcquire(null, nowNs))
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
        final int offset = outbox.claim(maxDatagramSizeBytes);
        final MutableDirectBuffer buffer = outbox.buffer();
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

    /**
     * @param connectionId the id this server chose for a new connection.
     * @return the connection's stateless reset token, which its handshake answers give the client: a handshake's
     * 16 bytes, not the hot path.
     */
    UnsafeBuffer resetToken(final long connectionId)
    {
        final UnsafeBuffer token = new UnsafeBuffer(new byte[StatelessResetTokens.TOKEN_LENGTH]);
        resetTokens.write(connectionId, token, 0);
        return token;
    }

    /**
     * A stateless reset (RFC 9000 section 10.3) answering a packet for a connection id this endpoint does not know:
     * a datagram that looks like one of a connection's packets — this version, a ONE_RTT packet, sealed when the
     * trigger was — whose other bytes are unpredictable and whose last {@link StatelessResetTokens#TOKEN_LENGTH} are
     * the token of the trigger's connection id. The client that holds that token (from the handshake answer) closes
     * its connection at once instead of waiting out its idle timeout. Always shorter than its trigger (never an
     * amplifier, and no reset loop between two endpoints, section 10.3.3); a trigger of
     * {@link #MIN_STATELESS_RESET_BYTES} or less gets none.
     *
     * @param connectionId  the trigger's destination connection id.
     * @param triggerFlags  the trigger's header flags (a sealed trigger gets a reset that looks sealed).
     * @param triggerLength the trigger's datagram length.
     * @param destination   the trigger's source.
     * @param nowNs         the current time.
     */
    void sendStatelessReset(
        final long connectionId,
        final int triggerFlags,
        final int triggerLength,
        final InetSocketAddress destination,
        final long nowNs)
    {
        if (triggerLength <= MIN_STATELESS_RESET_BYTES ||
            !isWithinRate(resetsPerDestination, resetsToAllDestinations, destination, nowNs))
        {
            return;
        }
        final int lengthBytes = triggerLength <= EXACT_LENGTH_TRIGGER_BYTES ? triggerLength - 1 :
            EXACT_LENGTH_TRIGGER_BYTES +
            resetPadding.nextInt(Math.min(triggerLength, maxDatagramSizeBytes) - EXACT_LENGTH_TRIGGER_BYTES);
        final int offset = outbox.claim(lengthBytes);
        final MutableDirectBuffer buffer = outbox.buffer();
        final int tokenOffset = offset + lengthBytes - StatelessResetTokens.TOKEN_LENGTH;
        for (int i = offset + PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET; i < tokenOffset; i++)
        {
            buffer.putByte(i, (byte)resetPadding.nextInt(256));
        }
        if (tokenOffset > offset + PacketHeaderFlyweight.PACKET_NUMBER_OFFSET + Integer.BYTES)
        {
            // A packet number of the size real ones have, not 64 random bits.
            buffer.putInt(offset + PacketHeaderFlyweight.PACKET_NUMBER_OFFSET + Integer.BYTES, 0);
        }
        header.wrap(buffer, offset);
        header.version(PacketHeaderFlyweight.CURRENT_VERSION).packetType(PacketType.ONE_RTT);
        final boolean isSealed = 0 != (triggerFlags & PacketHeaderFlyweight.FLAG_SEALED);
        header.flags(isSealed ?
            PacketHeaderFlyweight.FLAG_SEALED | (resetPadding.nextInt(2) * PacketHeaderFlyweight.FLAG_KEY_PHASE) : 0);
        resetTokens.write(connectionId, buffer, tokenOffset);
        counters.statelessResetsSent().incrementRelease();
        outbox.commit(lengthBytes, destination);
    }
}
