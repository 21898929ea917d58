package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.secure.Crc32cGuard;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.secure.PacketGuard;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * Takes each received datagram from integrity to the part that acts on it: its guard first (the CRC32C, or for a
 * sealed packet the connection's AEAD after the cheap checks — a known connection, its address, the packet-number
 * window, a duplicate), then {@link PacketDecoder#validate} of the header and every frame, then by type and
 * destination id: a connection's ONE_RTT or CLOSE packet to its {@link ConnectionCore} (a server connection's first
 * confirms it through the {@link Acceptor}), a hello to the {@link Acceptor}, a server's answer, refusal or RETRY to
 * the client connection it is for. Whatever fails a check is dropped and counted; nothing here throws.
 * <p>
 * Stateless reset (RFC 9000 section 10.3), both ends: a datagram that belongs to no connection (an unknown id, or
 * an integrity check failed) is first checked for a client connection's reset token ({@link PeerResetTokens}); a
 * server answers a ONE_RTT packet for an id it does not know with a reset ({@link StatelessReplies}).
 */
final class DatagramDispatcher
{
    private final ConnectionTable connections;
    private final Acceptor acceptor;
    private final StatelessReplies replies;
    private final boolean sendsStatelessResets;
    private final Crc32cGuard crc;
    private final EndpointCounters endpointCounters;
    private final SecurityCounters securityCounters;
    private final ConnectionFailures failures;
    private final PacketDecoder decoder = new PacketDecoder();
    /**
     * The connection the datagram being dispatched was found to be for (null before that, and for a hello): the one an
     * exception ends ({@link ConnectionFailures}).
     */
    private ConnectionCore dispatchedTo;
    private boolean handshakeNamesController;
    private boolean handshakeHasNoise;
    private int handshakeMinAckDelayUs;
    private long arrivalAckDelayNs = Long.MAX_VALUE;
    private int closeErrorCode;

    /**
     * {@link #handshakeFrame}: the packet carried no MIN_ACK_DELAY frame.
     */
    private static final int NO_MIN_ACK_DELAY = -1;

    DatagramDispatcher(
        final PacelinkContext context,
        final ConnectionTable connections,
        final Acceptor acceptor,
        final StatelessReplies replies,
        final Crc32cGuard crc,
        final EndpointCounters endpointCounters,
        final SecurityCounters securityCounters,
        final ConnectionFailures failures)
    {
        this.connections = connections;
        this.acceptor = acceptor;
        this.replies = replies;
        // Only a server gives tokens, so only a server's resets can be recognised: a client stays silent.
        this.sendsStatelessResets = context.acceptConnections();
        this.crc = crc;
        this.endpointCounters = endpointCounters;
        this.securityCounters = securityCounters;
        this.failures = failures;
    }

    /**
     * Act on one datagram received at {@code nowNs}; an exception while doing so is never thrown: it is counted,
     * reported to the context's error handler and ends the connection it came from ({@link ConnectionFailures}).
     *
     * @param ecnCodepoint the ECN field the datagram arrived with (not-ECT when the port cannot read it), counted for
     *                     the ACK frames of the connection it is for (RFC 9000 section 13.4.1).
     * @param verified     true if the port vouched for a plaintext packet's CRC32C trailer
     *                     ({@link io.pacelink.transport.port.ReceiveBatch#isVerified}): it is not checked again.
     * @param arrivalNs    when the datagram arrived, no later than {@code nowNs}: the time an ACK it carries was
     *                     received, for the delivery-rate sample
     *                     ({@link io.pacelink.transport.port.ReceiveBatch#arrivalTimeNs}).
     */
    void onDatagram(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final int ecnCodepoint,
        final boolean verified,
        final long arrivalNs,
        final long nowNs)
    {
        dispatchedTo = null;
        try
        {
            if (length >= PacketHeaderFlyweight.HEADER_LENGTH && isCurrentVersion(buffer, offset))
            {
                final int flags = buffer.getByte(offset + PacketHeaderFlyweight.FLAGS_OFFSET);
                if (0 != (flags & PacketHeaderFlyweight.FLAG_SEALED))
                {
                    onSealed(buffer, offset, length, source, ecnCodepoint, arrivalNs, nowNs);
                    return;
                }
                final int packetLength =
                    verified ? length - Crc32cPacketCheck.TRAILER_LENGTH : crc.open(buffer, offset, length);
                if (packetLength < 0)
                {
                    if (!isStatelessReset(buffer, offset, length, source))
                    {
                        securityCounters.integrityFailures().incrementRelease();
                    }
                    return;
                }
                onIntactPacket(buffer, offset, packetLength, source, false, ecnCodepoint, arrivalNs, nowNs);
                return;
            }
            if (length > PacketHeaderFlyweight.HEADER_LENGTH &&
                crc.isIntact(buffer, offset, length, PacketHeaderFlyweight.CURRENT_VERSION))
            {
                // A packet of this version whose version byte was damaged on the way: corrupt, not another version.
                securityCounters.integrityFailures().incrementRelease();
                return;
            }
            onIntactPacket(buffer, offset, length, source, false, ecnCodepoint, arrivalNs, nowNs);
        }
        catch (final Throwable ex)
        {
            failures.onFailure(dispatchedTo, ex);
        }
    }

    /**
     * Count datagrams received, once per batch rather than once per datagram: each count is a store to the
     * endpoint's counters, a cache line of its own that a busy endpoint with many peers finds cold
     * ({@link #onDatagram} counts nothing itself).
     *
     * @param datagrams datagrams received.
     * @param bytes     their lengths added up.
     */
    void countReceived(final int datagrams, final long bytes)
    {
        if (datagrams > 0)
        {
            endpointCounters.datagramsReceived().getAndAddRelease(datagrams);
            endpointCounters.bytesReceived().getAndAddRelease(bytes);
        }
    }

    /**
     * {@link InetSocketAddress#equals} with the identity checked first, which it does not do: a port hands the same
     * address object for a peer again and again (the simulator's always, the batched port's from its cache), and the
     * comparison of the two holders and their {@code InetAddress}es is then skipped for every datagram.
     */
    private static boolean isSameAddress(final InetSocketAddress remote, final InetSocketAddress source)
    {
        return remote == source || remote.equals(source);
    }

    /**
     * @return true if the datagram looks like a hello of this version (a clear HANDSHAKE packet to connection id 0):
     * the header only, nothing checked or counted.
     */
    static boolean isHello(final DirectBuffer buffer, final int offset, final int length)
    {
        return length >= PacketHeaderFlyweight.HEADER_LENGTH && isCurrentVersion(buffer, offset) &&
            0 == (buffer.getByte(offset + PacketHeaderFlyweight.FLAGS_OFFSET) & PacketHeaderFlyweight.FLAG_SEALED) &&
            PacketType.HANDSHAKE == (buffer.getByte(offset + PacketHeaderFlyweight.PACKET_TYPE_OFFSET) & 0xFF) &&
            0 == buffer.getLong(offset + PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET,
                PacketHeaderFlyweight.BYTE_ORDER);
    }

    private static boolean isCurrentVersion(final DirectBuffer buffer, final int offset)
    {
        return PacketHeaderFlyweight.CURRENT_VERSION ==
            (buffer.getByte(offset + PacketHeaderFlyweight.VERSION_OFFSET) & 0xFF);
    }

    /**
     * A sealed datagram. The cheap checks come first — a known connection with keys, its address, the packet-number
     * window, a duplicate (a replayed packet) — so a forgery costs no decryption unless it gets past all of them.
     */
    private void onSealed(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final int ecnCodepoint,
        final long arrivalNs,
        final long nowNs)
    {
        final long destinationId = buffer.getLong(
            offset + PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, PacketHeaderFlyweight.BYTE_ORDER);
        final ConnectionCore connection = connections.byId(destinationId);
        dispatchedTo = connection;
        if (null == connection || connection.isClosed())
        {
            if (!isStatelessReset(buffer, offset, length, source))
            {
                endpointCounters.unknownConnection().incrementRelease();
                answerUnknownConnection(
                    buffer.getByte(offset + PacketHeaderFlyweight.PACKET_TYPE_OFFSET) & 0xFF, destinationId,
                    buffer.getShort(offset + PacketHeaderFlyweight.FLAGS_OFFSET, PacketHeaderFlyweight.BYTE_ORDER),
                    length, source, nowNs);
            }
            return;
        }
        if (!isSameAddress(connection.remoteAddress(), source) && !connection.acceptsMigration())
        {
            securityCounters.packetsFromWrongAddress().incrementRelease();
            return;
        }
        if (null == connection.protection())
        {
            // A plaintext connection's packet with the flag set: one damaged on the way fails its CRC32C like any
            // other corrupted packet; an intact one is a forgery.
            if (crc.isIntact(buffer, offset, length))
            {
                securityCounters.packetsUnauthenticated().incrementRelease();
            }
            else
            {
                securityCounters.integrityFailures().incrementRelease();
            }
            return;
        }
        final long packetNumber =
            buffer.getLong(offset + PacketHeaderFlyweight.PACKET_NUMBER_OFFSET, PacketHeaderFlyweight.BYTE_ORDER);
        if (packetNumber < 0 || length > PacelinkContext.MAX_DATAGRAM_SIZE_BYTES)
        {
            endpointCounters.malformedDropped().incrementRelease();
            return;
        }
        if (!isNewPacketNumber(connection, packetNumber))
        {
            return;
        }
        final PacketGuard guard = connection.guard();
        final int openedLength = guard.open(buffer, offset, length);
        if (openedLength < 0)
        {
            securityCounters.integrityFailures().incrementRelease();
            if (guard.isIntegrityLimitReached())
            {
                connection.abortWithClose(ConnectionLifecycle.PROTOCOL_VIOLATION_ERROR, CloseReason.PROTOCOL_VIOLATION);
            }
            return;
        }
        onIntactPacket(guard.openedBuffer(), guard.openedOffset(), openedLength, source, true, ecnCodepoint, arrivalNs,
            nowNs);
    }

    /**
     * @return true if the datagram is a stateless reset of a client connection from its server: the connection ended
     * ({@link CloseReason#PEER_RESET}) and the reset is counted.
     */
    private boolean isStatelessReset(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source)
    {
        final ConnectionCore connection = connections.peerResetTokens().resetConnection(buffer, offset, length, source);
        if (null == connection)
        {
            return false;
        }
        securityCounters.statelessResetsReceived().incrementRelease();
        connection.onStatelessReset();
        connections.mark(connection);
        return true;
    }

    /**
     * A packet for a connection id this endpoint does not know: a server answers a connection's ONE_RTT packet with
     * a stateless reset, so a client of a restarted server learns at once that its connection is gone (RFC 9000
     * section 10.3). Handshake packets, RETRYs, CLOSEs (whose sender is leaving anyway) and id 0 get none.
     */
    private void answerUnknownConnection(
        final int packetType,
        final long destinationId,
        final int flags,
        final int length,
        final InetSocketAddress source,
        final long nowNs)
    {
        if (sendsStatelessResets && PacketType.ONE_RTT == packetType && 0 != destinationId)
        {
            replies.sendStatelessReset(destinationId, flags, length, source, nowNs);
        }
    }

    /**
     * @return true if a packet number lies within the connection's window and was not received before; else the
     * packet is counted (out of window, or a duplicate: a replay) and must be dropped.
     */
    private boolean isNewPacketNumber(final ConnectionCore connection, final long packetNumber)
    {
        if (connection.isBeyondPacketNumberWindow(packetNumber))
        {
            securityCounters.packetNumbersOutOfWindow().incrementRelease();
            return false;
        }
        if (connection.isDuplicate(packetNumber))
        {
            endpointCounters.duplicatePackets().incrementRelease();
            connection.handle().counters().increment(ConnectionCounters.DUPLICATE_PACKETS);
            return false;
        }
        return true;
    }

    /**
     * A datagram whose integrity check passed (or of another version, which has none): validate and dispatch it.
     *
     * @param wasSealed true if it was opened by the connection's AEAD.
     */
    private void onIntactPacket(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final boolean wasSealed,
        final int ecnCodepoint,
        final long arrivalNs,
        final long nowNs)
    {
        final int result = decoder.validate(buffer, offset, length);
        if (PacketDecoder.OK != result)
        {
            if (PacketDecoder.UNSUPPORTED_VERSION == result && isHelloOfAnyVersion(buffer, offset, length))
            {
                acceptor.refuseVersion(buffer, offset, source, nowNs);
            }
            else
            {
                endpointCounters.malformedDropped().incrementRelease();
            }
            return;
        }

        switch (decoder.packetType())
        {
            case PacketType.HANDSHAKE:
                onHandshakePacket(buffer, offset, length, source, nowNs);
                break;

            case PacketType.ONE_RTT:
            case PacketType.CLOSE:
                onConnectionPacket(buffer, offset, length, source, wasSealed, ecnCodepoint, arrivalNs, nowNs);
                break;

            case PacketType.RETRY:
                onRetryPacket(source, nowNs);
                break;

            default:
                endpointCounters.unknownConnection().incrementRelease();
                break;
        }
    }

    private void onConnectionPacket(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final boolean wasSealed,
        final int ecnCodepoint,
        final long arrivalNs,
        final long nowNs)
    {
        final ConnectionCore connection = connections.byId(decoder.destinationConnectionId());
        dispatchedTo = connection;
        if (null == connection || connection.isClosed())
        {
            endpointCounters.unknownConnection().incrementRelease();
            // Only a plaintext packet gets here unknown (a sealed one ends in onSealed): its datagram had the CRC32C.
            answerUnknownConnection(decoder.packetType(), decoder.destinationConnectionId(), 0,
                length + Crc32cPacketCheck.TRAILER_LENGTH, source, nowNs);
            return;
        }
        if (!wasSealed && null != connection.protection())
        {
            // Once keyed, a secure connection acts only on what its peer sealed: a plaintext CLOSE or DATA is forged.
            securityCounters.packetsUnauthenticated().incrementRelease();
            return;
        }
        if (!isSameAddress(connection.remoteAddress(), source))
        {
            securityCounters.packetsFromWrongAddress().incrementRelease();
            onPacketFromNewAddress(connection, buffer, offset, length, source, wasSealed, nowNs);
            return;
        }
        if (ConnectionState.CONNECTING == connection.state())
        {
            if (PacketType.CLOSE == decoder.packetType())
            {
                final String phrase = closeReasonPhrase(buffer, offset, length);
                connection.onRejected(closeErrorCode, phrase);
            }
            else
            {
                endpointCounters.unknownConnection().incrementRelease();
            }
            return;
        }

        if (!isNewPacketNumber(connection, decoder.packetNumber()))
        {
            return;
        }
        if (!connection.isHandshakeConfirmed() && PacketType.ONE_RTT == decoder.packetType() &&
            !acceptor.confirm(connection, nowNs))
        {
            return;
        }
        connection.onPacket(decoder, buffer, offset, length, ecnCodepoint, arrivalNs, nowNs);
        arrivalAckDelayNs = Math.min(arrivalAckDelayNs, connection.ackDelayNs());
    }

    /**
     * The shortest ACK delay in force among the connections that received a packet since the last call, and start
     * again: how long the agent may hold arrivals before a wake ({@code WakeCoalescing}).
     *
     * @return that delay, {@link Long#MAX_VALUE} if no connection received a packet.
     */
    long takeArrivalAckDelayNs()
    {
        final long delayNs = arrivalAckDelayNs;
        arrivalAckDelayNs = Long.MAX_VALUE;
        return delayNs;
    }

    /**
     * A packet for a known connection from another address than its peer's: an off-path forgery, a replay, or the
     * peer behind a NAT that rebound (or a client that moved). Only an authenticated packet may start path validation
     * toward that address (RFC 9000 section 9.3): in the secure mode one the connection's AEAD opened; in plaintext
     * one whose CRC32C and connection id checked and whose packet number is the largest received yet, so a replayed
     * or reordered old packet from elsewhere cannot. Nothing else of it is acted on but a PATH_RESPONSE, which
     * completes a validation: the connection moves only once the address answered a challenge
     * ({@link PathValidation}), and until then what the peer sends from there is sent again after the move.
     */
    private void onPacketFromNewAddress(
        final ConnectionCore connection,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final boolean wasSealed,
        final long nowNs)
    {
        if (!connection.acceptsMigration() || PacketType.ONE_RTT != decoder.packetType() ||
            decoder.packetNumber() <= connection.largestReceivedPacketNumber() ||
            connection.isBeyondPacketNumberWindow(decoder.packetNumber()))
        {
            return;
        }
        connection.onPacketFromNewAddress(
            source, length + (wasSealed ? connection.guard().trailerLength() : Crc32cPacketCheck.TRAILER_LENGTH),
            nowNs);
        for (int frameType = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != frameType;
            frameType = decoder.nextFrame())
        {
            if (FrameType.PATH_RESPONSE == frameType)
            {
                connection.onPathResponse(decoder.path().pathData());
            }
        }
    }

    private void onHandshakePacket(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final InetSocketAddress source,
        final long nowNs)
    {
        final long destinationId = decoder.destinationConnectionId();
        final HandshakeFrameFlyweight handshake = handshakeFrame(buffer, offset, length);
        if (null == handshake || handshake.isResponse() != (0 != destinationId))
        {
            endpointCounters.malformedDropped().incrementRelease();
            return;
        }
        if (0 == destinationId)
        {
            acceptor.onHello(decoder, handshake, handshakeHasNoise, handshakeNamesController, handshakeMinAckDelayUs,
                buffer, offset, length, source, nowNs);
            return;
        }

        final ConnectionCore connection = clientConnection(destinationId, source);
        if (null != connection)
        {
            connection.onHandshakeResponse(
                handshake, handshakeHasNoise ? decoder.noise() : null, handshakeMinAckDelayUs, nowNs);
            connections.peerResetTokens().add(connection);
        }
    }

    private void onRetryPacket(final InetSocketAddress source, final long nowNs)
    {
        final ConnectionCore connection = clientConnection(decoder.destinationConnectionId(), source);
        if (null != connection)
        {
            final RetryPacketFlyweight retry = decoder.retry();
            byte[] serverKey = null;
            if (RetryPacketFlyweight.SERVER_KEY_LENGTH == decoder.retryServerKeyLength())
            {
                serverKey = new byte[RetryPacketFlyweight.SERVER_KEY_LENGTH]; // a handshake's, not the hot path
                retry.buffer().getBytes(retry.serverKeyOffset(), serverKey);
            }
            connection.onRetry(retry.buffer(), retry.tokenOffset(), retry.tokenLength(), serverKey, nowNs);
        }
    }

    /**
     * @return the client connection a server's answer or RETRY is for, if it came from that connection's server;
     * else null, the packet counted (an unknown connection, or a packet from another address).
     */
    private ConnectionCore clientConnection(final long connectionId, final InetSocketAddress source)
    {
        final ConnectionCore connection = connections.byId(connectionId);
        dispatchedTo = connection;
        if (null == connection || !connection.isClient())
        {
            endpointCounters.unknownConnection().incrementRelease();
            return null;
        }
        if (!isSameAddress(connection.remoteAddress(), source))
        {
            securityCounters.packetsFromWrongAddress().incrementRelease();
            return null;
        }
        return connection;
    }

    /**
     * @return the last HANDSHAKE frame of a validated handshake packet, or null; whether a CONGESTION_CONTROL frame
     * and a NOISE frame came with it, and the min ACK delay of a MIN_ACK_DELAY frame, are noted, and any other frame
     * there is ignored.
     */
    private HandshakeFrameFlyweight handshakeFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        boolean found = false;
        handshakeNamesController = false;
        handshakeHasNoise = false;
        handshakeMinAckDelayUs = NO_MIN_ACK_DELAY;
        for (int frameType = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != frameType;
            frameType = decoder.nextFrame())
        {
            found |= FrameType.HANDSHAKE == frameType;
            handshakeNamesController |= FrameType.CONGESTION_CONTROL == frameType;
            handshakeHasNoise |= FrameType.NOISE == frameType;
            if (FrameType.MIN_ACK_DELAY == frameType)
            {
                handshakeMinAckDelayUs = decoder.minAckDelay().minAckDelayUs();
            }
        }
        return found ? decoder.handshake() : null;
    }

    /**
     * A hello of another version at least as long as a hello of this one, whose header has the layout every version
     * so far shares: a HANDSHAKE packet to connection id 0 starting with a HANDSHAKE frame, the client's id first.
     */
    private static boolean isHelloOfAnyVersion(final DirectBuffer buffer, final int offset, final int length)
    {
        return length >= PacelinkContext.MIN_DATAGRAM_SIZE_BYTES &&
            PacketType.HANDSHAKE == (buffer.getByte(offset + PacketHeaderFlyweight.PACKET_TYPE_OFFSET) & 0xFF) &&
            0 == buffer.getLong(offset + PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET,
                PacketHeaderFlyweight.BYTE_ORDER) &&
            FrameType.HANDSHAKE == (buffer.getByte(offset + PacketHeaderFlyweight.HEADER_LENGTH) & 0xFF);
    }

    /**
     * @return the reason phrase of a validated CLOSE packet's CLOSE frame (a server's reason for a refusal), or empty;
     * its error code is left in {@link #closeErrorCode}.
     */
    private String closeReasonPhrase(final DirectBuffer buffer, final int offset, final int length)
    {
        String phrase = "";
        closeErrorCode = ConnectionLifecycle.REJECTED_ERROR;
        for (int frameType = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != frameType;
            frameType = decoder.nextFrame())
        {
            if (FrameType.CLOSE == frameType)
            {
                closeErrorCode = decoder.close().errorCode();
                phrase = decoder.close().reasonLength() > 0 ? decoder.close().reason() : "";
            }
        }
        return phrase;
    }
}
