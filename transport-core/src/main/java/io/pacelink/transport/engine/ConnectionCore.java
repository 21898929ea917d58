package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.ConnectionState;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.recovery.PacketOutcomeListener;
import io.pacelink.transport.recovery.PathParameters;
import io.pacelink.transport.schedule.SchedulableFlow;
import io.pacelink.transport.schedule.SentPacket;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.CloseFrameFlyweight;
import io.pacelink.transport.wire.CongestionControlFrameFlyweight;
import io.pacelink.transport.wire.DataFrameFlyweight;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.secure.PacketProtection;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.NoiseFrameFlyweight;
import io.pacelink.transport.wire.MaxStreamDataFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.net.InetSocketAddress;

/**
 * The agent's side of one connection: packet numbers, loss recovery and congestion control, ACK generation, stream
 * transmission and reassembly, flow control, and the connection's timers. Everything here runs on the agent thread
 * with the time handed in; nothing reads a clock or touches a socket.
 */
final class ConnectionCore implements SchedulableFlow, PacketOutcomeListener
{
    /**
     * The one stream every connection carries.
     */
    static final int STREAM_ID = 0;

    /**
     * Error code of a graceful close.
     */
    static final int NO_ERROR = 0;

    /**
     * Error code sent when the peer broke the protocol.
     */
    static final int PROTOCOL_VIOLATION_ERROR = 1;

    /**
     * Error code a server sends when it refuses a connection.
     */
    static final int REJECTED_ERROR = 2;

    /**
     * Error code of an abort: the sender's application aborted, its endpoint closed abruptly, or its close timed out.
     * Whatever the receiver has not read is lost.
     */
    static final int ABORTED_ERROR = 3;

    /**
     * Error code a secure server sends when it refuses a hello it cannot authenticate: a pinned key that is not its
     * own, a pre-shared key that differs (docs/security.md, "Secure mode").
     */
    static final int AUTHENTICATION_FAILED_ERROR = 4;

    /**
     * Error code a server sends when it refuses a hello of a mode it does not speak: plaintext to a secure server,
     * secure to a plaintext one, or a Noise profile it has no key for.
     */
    static final int SECURITY_MISMATCH_ERROR = 5;

    /**
     * RFC 9000 section 10.2: a closing or draining connection lingers for three PTOs so late packets are absorbed.
     */
    private static final int CLOSE_LINGER_PTOS = 3;

    /**
     * An ICMP port-unreachable report ends an established connection only if, for this many PTOs after it, nothing
     * arrives from the peer and a second report confirms it (RFC 1122 section 4.2.3.9 lets a transport act on hard
     * ICMP errors, and RFC 5927 section 4.1 warns they can be forged: a live peer answers the probe within a PTO).
     */
    private static final int UNREACHABLE_CONFIRMATION_PTOS = 3;

    /**
     * Handshake retries back off from the initial RTT, doubling (RFC 9002 section 6.2.1 applied to the handshake).
     */
    private static final int MAX_HANDSHAKE_BACKOFF_SHIFT = 6;

    /**
     * RETRY packets a client follows in one connection attempt: one is the normal case, a second covers a token that
     * expired while the client retransmitted; more would let a forger keep the client busy (RFC 9000 section 17.2.5.2
     * allows a single one).
     */
    private static final int MAX_RETRIES = 2;

    /**
     * Packets between two deliberately skipped packet numbers are drawn uniformly from [1, this): one skip every
     * 256 packets on average (RFC 9000 section 21.4). Each skip opens a gap the peer acknowledges around until it
     * learns, from an acknowledgement of its ACK, that the gap was seen (RFC 9000 section 13.2.4).
     */
    private static final int MAX_PACKETS_BETWEEN_SKIPS = 512;

    /**
     * {@link #sendState}: the connection has ack-eliciting work but the peer's flow-control credit holds the data.
     */
    private static final int LIMITED_BY_FLOW_CONTROL = 4;

    /**
     * {@link #sendState}: the connection has ack-eliciting work and the congestion window holds it.
     */
    private static final int LIMITED_BY_CWND = 8;

    /**
     * {@link #sendState}: the connection has ack-eliciting work within its window: only the scheduler (pacing or the
     * duty cycle's send budget) can hold it.
     */
    private static final int WITHIN_WINDOW = 16;

    private final long localId;
    private final boolean isClient;
    private final InetSocketAddress remoteAddress;
    private final ConnectionHandle handle;
    private final PathParameters path;
    private final SendLog sendLog;
    private final ReceiveLog receiveLog;
    private final LossRecovery lossRecovery;
    private final CongestionController controller;
    private final ReceivedPacketTracker ackTracker;
    private final ConnectionCounters counters;
    private final EndpointCounters endpointCounters;
    private final SecurityCounters securityCounters;
    private final SeededRandom random;
    private final AckFrameRanges ackRanges = new AckFrameRanges();
    private final long localMaxAckDelayNs;
    private final long initialRttNs;
    private final long handshakeTimeoutNs;
    private final long lingerTimeoutNs;
    private final SecureSession secureSession;
    private final int receiveWindowBytes;
    private final int maxUnacknowledgedPtos;
    private final DeliveryReceipts receipts;

    private long remoteId;
    private long idleTimeoutNs;
    private ConnectionState state;
    private long nextPacketNumber;
    private long lastReceiveTimeNs;
    private long lastAckElicitingSentNs;
    private long handshakeStartNs;
    private long handshakeRetryDeadlineNs = Long.MAX_VALUE;
    private int handshakeAttempts;
    private boolean handshakeResponsePending;
    private long closeDeadlineNs = Long.MAX_VALUE;
    private long lingerDeadlineNs = Long.MAX_VALUE;
    private boolean closeFramePending;
    private int closeErrorCode = NO_ERROR;
    private DirectBuffer closeReasonText;
    private boolean isUnreachableSuspected;
    private long unreachableSinceNs;
    private int unreachableReports;
    private long advertisedMaxDataBytes;
    private boolean maxDataPending;
    private boolean pingPending;
    private long confirmationDueNs = Long.MAX_VALUE;
    private boolean isHandshakeConfirmed;
    private UnsafeBuffer retryToken;
    private int retryTokenLength;
    private int retriesFollowed;
    private int answersNotAuthenticated;
    private long nextSkippedPacketNumber;
    private boolean isPacketDropped;
    private boolean isSendStalled;

    ConnectionCore(
        final long localId,
        final boolean isClient,
        final InetSocketAddress remoteAddress,
        final ConnectionHandle handle,
        final PathParameters path,
        final LossRecovery lossRecovery,
        final CongestionController controller,
        final ReceivedPacketTracker ackTracker,
        final SeededRandom random,
        final EndpointCounters endpointCounters,
        final SecurityCounters securityCounters,
        final PacelinkContext settings,
        final SecureSession secureSession,
        final long nowNs)
    {
        this.localId = localId;
        this.secureSession = secureSession;
        this.isClient = isClient;
        this.remoteAddress = remoteAddress;
        this.handle = handle;
        this.path = path;
        this.sendLog = handle.sendLog();
        this.receiveLog = handle.receiveLog();
        this.counters = handle.counters();
        this.lossRecovery = lossRecovery;
        this.controller = controller;
        this.ackTracker = ackTracker;
        this.random = random;
        this.endpointCounters = endpointCounters;
        this.securityCounters = securityCounters;
        this.maxUnacknowledgedPtos = settings.limits().maxUnacknowledgedPtos();
        this.nextSkippedPacketNumber = 1 + random.nextInt(MAX_PACKETS_BETWEEN_SKIPS);
        this.localMaxAckDelayNs = settings.maxAckDelayNs();
        this.initialRttNs = settings.initialRttNs();
        this.handshakeTimeoutNs = settings.handshakeTimeoutNs();
        this.lingerTimeoutNs = settings.lingerTimeoutNs();
        this.receipts = new DeliveryReceipts(receiveLog, settings.receiveBufferBytes());
        this.receiveWindowBytes = settings.receiveBufferBytes();
        this.idleTimeoutNs = settings.idleTimeoutNs();
        this.advertisedMaxDataBytes = receiveWindowBytes;
        this.lastReceiveTimeNs = nowNs;
        this.handshakeStartNs = nowNs;

        if (isClient)
        {
            state = ConnectionState.CONNECTING;
            handshakeRetryDeadlineNs = nowNs;
            isHandshakeConfirmed = true;
        }
        else
        {
            state = ConnectionState.CONNECTED;
            handshakeResponsePending = true;
        }
        handle.state(state);
    }

    long localId()
    {
        return localId;
    }

    long remoteId()
    {
        return remoteId;
    }

    boolean isClient()
    {
        return isClient;
    }

    /**
     * @return the secure mode's packet protection once this side's handshake completed; null in plaintext mode and
     * before.
     */
    PacketProtection protection()
    {
        return null == secureSession ? null : secureSession.protection();
    }

    /**
     * @return true if this connection speaks the secure mode.
     */
    boolean isSecure()
    {
        return null != secureSession;
    }

    /**
     * @return bytes that end each of this connection's packets: the AEAD tag once keyed, else the CRC32C.
     */
    int trailerLength()
    {
        return null == protection() ? Crc32cPacketCheck.TRAILER_LENGTH : PacketProtection.TRAILER_LENGTH;
    }

    InetSocketAddress remoteAddress()
    {
        return remoteAddress;
    }

    ConnectionHandle handle()
    {
        return handle;
    }

    ConnectionState state()
    {
        return state;
    }

    boolean isClosed()
    {
        return ConnectionState.CLOSED == state;
    }

    /**
     * @return true once the connection is closing or closed, or has a CLOSE to send: nothing the peer sends is acted
     * on any more.
     */
    private boolean isClosing()
    {
        return ConnectionState.CLOSED == state || closeFramePending || closeDeadlineNs != Long.MAX_VALUE;
    }

    /**
     * @return true on the client, and on the server once the client sent a packet from the address its hello came
     * from with the connection id only the server's answer told it.
     */
    boolean isHandshakeConfirmed()
    {
        return isHandshakeConfirmed;
    }

    /**
     * The server saw the client's first packet after the handshake.
     */
    void confirmHandshake()
    {
        isHandshakeConfirmed = true;
    }

    // ---------------------------------------------------------------- handshake

    /**
     * Apply the peer's handshake parameters (both sides): negotiate the datagram size and idle timeout, take the
     * peer's flow-control credit and ACK delay.
     */
    void applyPeerHandshake(final HandshakeFrameFlyweight handshake, final long nowNs)
    {
        remoteId = handshake.sourceConnectionId();
        final int negotiatedDatagramSizeBytes = Math.min(path.maxDatagramSizeBytes(), handshake.maxDatagramSize());
        if (negotiatedDatagramSizeBytes != path.maxDatagramSizeBytes())
        {
            lossRecovery.onMtuChanged(negotiatedDatagramSizeBytes);
        }
        final long peerIdleTimeoutNs = handshake.idleTimeoutMs() * 1_000_000L;
        if (peerIdleTimeoutNs > 0)
        {
            idleTimeoutNs = Math.min(idleTimeoutNs, peerIdleTimeoutNs);
        }
        lossRecovery.peerMaxAckDelayNs(handshake.maxAckDelayUs() * 1_000L);
        sendLog.connectionSendLimit(handshake.initialMaxData());
        sendLog.streamSendLimit(handshake.initialMaxStreamData());
        lastReceiveTimeNs = nowNs;
    }

    /**
     * The client got the server's answer: the connection is established.
     */
    void onHandshakeResponse(final HandshakeFrameFlyweight handshake, final NoiseFrameFlyweight noise, final long nowNs)
    {
        if (ConnectionState.CONNECTING != state)
        {
            return; // a retransmitted answer
        }
        if (null != secureSession && !isGenuineAnswer(handshake, noise))
        {
            // A forged or tampered answer: ignored, so the genuine one can still complete the handshake.
            securityCounters.handshakeAuthFailures().incrementRelease();
            answersNotAuthenticated++;
            return;
        }
        final String distrust = null == secureSession ? null : secureSession.verifyServer(remoteAddress);
        if (null != distrust)
        {
            // The server proved it holds a key this client learned from it, and the application does not trust that
            // key (a known-hosts file holds another). The server's half-open connection is never confirmed and ends
            // with its handshake timeout; nothing was sent toward it under the distrusted key.
            end(CloseReason.AUTHENTICATION_FAILED, distrust);
            finishClose();
            return;
        }
        if (PacketHeaderFlyweight.CURRENT_VERSION != handshake.version() ||
            handshake.maxDatagramSize() < PacelinkContext.MIN_DATAGRAM_SIZE_BYTES)
        {
            // A server that would have this client build packets below QUIC's floor is broken or hostile.
            securityCounters.handshakesRefusedParameters().incrementRelease();
            end(CloseReason.PROTOCOL_VIOLATION, "the server's handshake asks for an unsupported version or a " +
                "datagram size below " + PacelinkContext.MIN_DATAGRAM_SIZE_BYTES + " bytes");
            finishClose();
            return;
        }
        applyPeerHandshake(handshake, nowNs);
        handshakeRetryDeadlineNs = Long.MAX_VALUE;
        changeState(ConnectionState.CONNECTED);
        // Confirm from this address and to the server's id, which only its answer carried: the server hands the
        // connection to its application only then (RFC 9000 section 8.1 address validation, completed). Any packet
        // confirms, so the first one the application's data goes out in does, as QUIC's client Finished travels with
        // its first 1-RTT data: a PING goes alone only if nothing else was sent by the next duty cycle. A PING sent at
        // once would be an extra packet in the initial window, ahead of the data, and change the first flights'
        // ACK clock (docs/cubic.md, item 4).
        confirmationDueNs = nowNs + 1;
    }

    private boolean isGenuineAnswer(final HandshakeFrameFlyweight handshake, final NoiseFrameFlyweight noise)
    {
        return null != noise &&
            secureSession.profile().wireId() == noise.profile() &&
            secureSession.aead().wireId() == noise.aead() &&
            secureSession.onSecondMessage(noise.message(), transcript(handshake.buffer(), handshake.offset(), null));
    }

    /**
     * The transcript of a HANDSHAKE frame's clear parameters (and the controller a client asks for), which the secure
     * handshake's messages carry (docs/wire-format.md, "Secure mode").
     */
    static byte[] transcript(final DirectBuffer buffer, final int frameOffset, final String controllerName)
    {
        return SecureSession.transcript(buffer, frameOffset + HandshakeFrameFlyweight.SOURCE_CONNECTION_ID_OFFSET,
            HandshakeFrameFlyweight.TOKEN_LENGTH_OFFSET - HandshakeFrameFlyweight.SOURCE_CONNECTION_ID_OFFSET,
            controllerName);
    }

    /**
     * The server answered the hello with a RETRY: send the hello again at once, echoing its token. A secure client
     * also reads the server key the RETRY may carry: it learns the key it did not know, or finds it is not the one it
     * pinned — then the connect fails at once, naming both keys, rather than waiting out the handshake timeout.
     *
     * @param buffer      holding the token.
     * @param tokenOffset of the first token byte.
     * @param tokenLength number of token bytes, at most {@link RetryPacketFlyweight#MAX_TOKEN_LENGTH}.
     * @param serverKey   the server's static public key the RETRY carried, or null.
     * @param nowNs       the current time.
     */
    void onRetry(
        final DirectBuffer buffer,
        final int tokenOffset,
        final int tokenLength,
        final byte[] serverKey,
        final long nowNs)
    {
        if (ConnectionState.CONNECTING != state || retriesFollowed >= MAX_RETRIES)
        {
            return;
        }
        final String keyProblem = null == secureSession ? null : secureSession.onRetry(serverKey);
        if (null != keyProblem)
        {
            end(CloseReason.AUTHENTICATION_FAILED, keyProblem);
            finishClose();
            return;
        }
        retriesFollowed++;
        if (null == retryToken)
        {
            retryToken = new UnsafeBuffer(new byte[RetryPacketFlyweight.MAX_TOKEN_LENGTH]);
        }
        retryToken.putBytes(0, buffer, tokenOffset, tokenLength);
        retryTokenLength = tokenLength;
        handshakeRetryDeadlineNs = nowNs;
    }

    /**
     * The server refused this client's handshake.
     *
     * @param errorCode the CLOSE frame's code: an authentication failure and a mode mismatch are told apart from other
     *                  refusals.
     * @param detail    the server's reason, e.g. "the server has its maximum of connections".
     */
    void onRejected(final int errorCode, final String detail)
    {
        if (ConnectionState.CONNECTING == state)
        {
            end(AUTHENTICATION_FAILED_ERROR == errorCode ? CloseReason.AUTHENTICATION_FAILED :
                SECURITY_MISMATCH_ERROR == errorCode ? CloseReason.SECURITY_MISMATCH : CloseReason.REJECTED, detail);
            finishClose();
        }
    }

    /**
     * The operating system reported the peer's port unreachable (ICMP). A handshake ends at once: there is nothing
     * to lose and nobody to wait for. An established connection only suspects it and probes with a PING: a live
     * peer answers, which clears the suspicion, while a second report after {@link #UNREACHABLE_CONFIRMATION_PTOS}
     * PTOs without a word from the peer confirms it.
     */
    void onPeerUnreachable(final long nowNs)
    {
        if (ConnectionState.CONNECTING == state)
        {
            end(CloseReason.PEER_UNREACHABLE, "");
            finishClose();
            return;
        }
        if (ConnectionState.CLOSED == state || closeDeadlineNs != Long.MAX_VALUE)
        {
            return;
        }
        if (!isUnreachableSuspected)
        {
            isUnreachableSuspected = true;
            unreachableSinceNs = nowNs;
            unreachableReports = 0;
            pingPending = true;
        }
        unreachableReports++;
    }

    private boolean isUnreachableConfirmed(final long nowNs)
    {
        if (!isUnreachableSuspected || nowNs - unreachableSinceNs < unreachableConfirmationNs())
        {
            return false;
        }
        if (unreachableReports >= 2)
        {
            return true;
        }
        isUnreachableSuspected = false; // a lone report that nothing confirmed
        return false;
    }

    private long unreachableConfirmationNs()
    {
        return UNREACHABLE_CONFIRMATION_PTOS * lossRecovery.ptoPeriodNs();
    }

    /**
     * The server got a retransmitted client handshake: its answer was lost, send it again.
     */
    void onHandshakeRetransmission(final long nowNs)
    {
        handshakeResponsePending = true;
        lastReceiveTimeNs = nowNs;
    }

    /**
     * @return true if a handshake packet (client request or server answer) should be sent now.
     */
    boolean isHandshakeDue(final long nowNs)
    {
        return handshakeResponsePending || (ConnectionState.CONNECTING == state && nowNs >= handshakeRetryDeadlineNs);
    }

    /**
     * Write this side's handshake packet. The client pads its hello to the full datagram size, at least 1200 bytes, so
     * the path's MTU is proven before data flows and any answer, even a refusal, is smaller than the hello
     * (RFC 9000 sections 8.1 and 14.1 do the same for Initial packets); it echoes the RETRY token if it got one.
     *
     * @return the datagram length.
     */
    int writeHandshake(final PacketWriter writer, final long nowNs)
    {
        writer.writeHeader(PacketType.HANDSHAKE, remoteId, handshakeAttempts);
        final int handshakeFrameOffset = writer.offset() + writer.length();
        writer.appendHandshake(
            localId,
            !isClient,
            path.maxDatagramSizeBytes(),
            (int)(localMaxAckDelayNs / 1_000L),
            (int)(idleTimeoutNs / 1_000_000L),
            receiveWindowBytes,
            receiveWindowBytes,
            retryToken,
            0,
            retryTokenLength);
        if (isClient)
        {
            // Ask the server to run our controller for its side too; a name the frame cannot carry is not sent and
            // the server uses its own.
            final boolean namesController = CongestionControlFrameFlyweight.isValidName(handle.congestionControl());
            if (namesController)
            {
                writer.appendCongestionControl(handle.congestionControl());
            }
            if (null != secureSession)
            {
                appendNoise(writer, secureSession.firstMessage(transcript(
                    writer.buffer(), handshakeFrameOffset, namesController ? handle.congestionControl() : null)));
            }
            writer.appendPadding(writer.remaining());
            handshakeAttempts++;
            final int shift = Math.min(handshakeAttempts, MAX_HANDSHAKE_BACKOFF_SHIFT);
            handshakeRetryDeadlineNs = nowNs + (initialRttNs << shift);
        }
        else
        {
            if (null != secureSession)
            {
                appendNoise(writer,
                    secureSession.secondMessage(transcript(writer.buffer(), handshakeFrameOffset, null)));
            }
            handshakeResponsePending = false;
        }
        return writer.length();
    }

    private void appendNoise(final PacketWriter writer, final byte[] message)
    {
        final int macOffset = writer.appendNoise(
            secureSession.profile().wireId(), secureSession.aead().wireId(), message);
        secureSession.writeMac(writer.buffer(), writer.offset(), macOffset);
    }

    // ---------------------------------------------------------------- receive

    /**
     * @return true if the packet is a duplicate (already received): the caller drops it.
     */
    boolean isDuplicate(final long packetNumber)
    {
        return ackTracker.isDuplicate(packetNumber);
    }

    /**
     * @return true if the packet number lies so far beyond the largest received that no sender could have sent it:
     * the caller drops it unacknowledged, since acknowledging it would make this side look like an optimistic ACKer.
     */
    boolean isBeyondPacketNumberWindow(final long packetNumber)
    {
        return ackTracker.isBeyondWindow(packetNumber);
    }

    /**
     * Apply a validated ONE_RTT or CLOSE packet: its frames in wire order, then record it for acknowledgement.
     *
     * @param decoder the decoder that validated it.
     * @param buffer  holding the datagram.
     * @param offset  of the datagram in the buffer.
     * @param length  of the datagram.
     * @param nowNs   when it was received.
     */
    void onPacket(
        final PacketDecoder decoder, final DirectBuffer buffer, final int offset, final int length, final long nowNs)
    {
        lastReceiveTimeNs = nowNs;
        isPacketDropped = false;
        isUnreachableSuspected = false;
        for (int frameType = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != frameType && !isClosing() && !isPacketDropped;
            frameType = decoder.nextFrame())
        {
            switch (frameType)
            {
                case FrameType.ACK:
                    onAck(decoder.ack(), nowNs);
                    break;

                case FrameType.DATA:
                    onData(decoder.data());
                    break;

                case FrameType.MAX_DATA:
                    sendLog.connectionSendLimit(decoder.maxData().maximumData());
                    break;

                case FrameType.MAX_STREAM_DATA:
                    onMaxStreamData(decoder.maxStreamData());
                    break;

                case FrameType.HANDSHAKE:
                    // Handshake frames travel only in HANDSHAKE packets, which the endpoint routes before this.
                    protocolViolation(null, CloseReasonTexts.UNEXPECTED_HANDSHAKE);
                    break;

                case FrameType.CONSUMED:
                    if (!receipts.onPeerReceipt(
                        decoder.consumed().position(), decoder.consumed().messages(), sendLog.nextSendPosition()))
                    {
                        protocolViolation(null, CloseReasonTexts.RECEIPT_BEYOND_SENT);
                    }
                    break;

                case FrameType.CLOSE:
                    onClose(decoder.close(), nowNs);
                    break;

                default:
                    // PING and frame types this version does not know: they only elicit an acknowledgement.
                    break;
            }
        }
        if (!isPacketDropped)
        {
            ackTracker.onPacketReceived(decoder.packetNumber(), decoder.isAckEliciting(), nowNs);
        }
    }

    private void onAck(final AckFrameFlyweight ack, final long nowNs)
    {
        final long rejectedRttSamples = lossRecovery.rejectedRttSamples();
        final long result = lossRecovery.onAckReceived(ackRanges.wrap(ack), ack.ackDelayUs() * 1_000L, nowNs, this);
        if (LossRecovery.ERROR_ACK_OF_UNSENT_PACKET == result)
        {
            // An ACK for a packet we never sent: an optimistic-ACK attack or a broken peer (RFC 9000 section 21.4).
            protocolViolation(securityCounters.acksOfSkippedPackets(), CloseReasonTexts.ACK_OF_UNSENT_PACKET);
            return;
        }
        if (result < 0)
        {
            protocolViolation(null, CloseReasonTexts.MALFORMED_ACK);
            return;
        }
        if (lossRecovery.rejectedRttSamples() != rejectedRttSamples)
        {
            securityCounters.rttSamplesRejected().incrementRelease();
        }
        publishRecoveryCounters();
    }

    private void onData(final DataFrameFlyweight data)
    {
        final int newBytes = receiveLog.onData(
            data.streamOffset(), data.buffer(), data.payloadOffset(), data.payloadLength(), data.fin());
        if (newBytes < 0)
        {
            onReceiveError(newBytes);
            return;
        }
        counters.counter(ConnectionCounters.STREAM_BYTES_RECEIVED).getAndAddRelease(newBytes);
    }

    private void onReceiveError(final int error)
    {
        switch (error)
        {
            case ReceiveLog.MEMORY_REFUSED:
                // The endpoint's memory budget is spent: drop the packet unacknowledged, as if the network had, and
                // the peer sends its data again. Its other frames are idempotent, so applying them again is harmless.
                isPacketDropped = true;
                break;

            case ReceiveLog.REASSEMBLY_LIMIT_ERROR:
                protocolViolation(securityCounters.reassemblyLimitCloses(), CloseReasonTexts.REASSEMBLY_LIMIT);
                break;

            case ReceiveLog.DATA_MISMATCH_ERROR:
                protocolViolation(securityCounters.dataMismatchCloses(), CloseReasonTexts.DATA_MISMATCH);
                break;

            case ReceiveLog.FLOW_CONTROL_ERROR:
                protocolViolation(null, CloseReasonTexts.FLOW_CONTROL);
                break;

            case ReceiveLog.FINAL_SIZE_ERROR:
                protocolViolation(null, CloseReasonTexts.FINAL_SIZE);
                break;

            default:
                protocolViolation(null, CloseReasonTexts.MESSAGE_FRAMING);
                break;
        }
    }

    private void onMaxStreamData(final MaxStreamDataFrameFlyweight maxStreamData)
    {
        if (STREAM_ID == maxStreamData.streamId())
        {
            sendLog.streamSendLimit(maxStreamData.maximumStreamData());
        }
    }

    private void onClose(final CloseFrameFlyweight close, final long nowNs)
    {
        if (ConnectionState.CLOSED == state || closeDeadlineNs != Long.MAX_VALUE)
        {
            return; // already closing or draining: the outcome is decided
        }
        // RFC 9000 section 10.2.2: the draining peer sends nothing more; linger to absorb late packets. A receipt in
        // the same packet came before the CLOSE frame, so the outcome judges delivery by the peer's last word.
        closeFramePending = false;
        end(peerCloseReason(close.errorCode()), close.reasonLength() > 0 ? close.reason() : "");
        beginLinger(nowNs);
    }

    /**
     * Who closed is decided by who asked first: a graceful close from the peer while this side's own close was under
     * way ends this side's close too.
     */
    private CloseReason peerCloseReason(final int errorCode)
    {
        switch (errorCode)
        {
            case NO_ERROR:
                return handle.isCloseRequested() ? CloseReason.LOCAL_CLOSE : CloseReason.PEER_CLOSE;

            case PROTOCOL_VIOLATION_ERROR:
                return CloseReason.PROTOCOL_VIOLATION;

            case REJECTED_ERROR:
                return CloseReason.REJECTED;

            default:
                return CloseReason.PEER_ABORTED;
        }
    }

    // ---------------------------------------------------------------- recovery outcomes

    public void onPacketAcked(
        final long packetNumber,
        final long streamOffset,
        final int streamLength,
        final boolean fin,
        final int frameFlags)
    {
        if (streamLength > 0 || fin)
        {
            sendLog.onRangeAcked(streamOffset, streamLength, fin);
        }
        if (0 != (frameFlags & FrameFlags.ACK))
        {
            // The peer has seen the ACK frame this packet carried: stop acknowledging what it covered, so the gaps of
            // its skipped packet numbers do not stay in every ACK (RFC 9000 section 13.2.4).
            ackTracker.onAckFrameAcknowledged(lossRecovery.ackFrameLargestAcked(packetNumber));
        }
    }

    public void onPacketAckedAfterLoss(
        final long packetNumber,
        final long streamOffset,
        final int streamLength,
        final boolean fin,
        final int frameFlags)
    {
        // The loss was spurious: the data arrived after all. Acknowledging it also removes it from the
        // retransmission queue if it has not left again yet.
        onPacketAcked(packetNumber, streamOffset, streamLength, fin, frameFlags);
    }

    public void onPacketLost(
        final long packetNumber,
        final long streamOffset,
        final int streamLength,
        final boolean fin,
        final int frameFlags)
    {
        if (streamLength > 0 || fin)
        {
            sendLog.onRangeLost(streamOffset, streamLength, fin);
        }
        if (0 != (frameFlags & FrameFlags.MAX_DATA))
        {
            // Re-sent at its newest value, not the lost one (RFC 9000 section 13.3).
            maxDataPending = true;
        }
        if (0 != (frameFlags & FrameFlags.CONSUMED))
        {
            receipts.onLost();
        }
    }

    // ---------------------------------------------------------------- timers and housekeeping

    /**
     * Fire due timers and refresh flow-control credit. Called once per duty cycle.
     *
     * @return work done.
     */
    int onDutyCycle(final long nowNs)
    {
        int work = 0;
        isSendStalled = false;
        if (ConnectionState.CLOSED == state)
        {
            return 0;
        }

        if (nowNs >= closeDeadlineNs)
        {
            finishClose();
            return 1;
        }

        if (ConnectionState.CONNECTING == state)
        {
            return onConnectingDutyCycle(nowNs);
        }

        if (closeDeadlineNs != Long.MAX_VALUE || closeFramePending)
        {
            return 0; // the outcome is decided: only the CLOSE and the closing or draining period remain
        }

        if (!isHandshakeConfirmed && nowNs - handshakeStartNs >= handshakeTimeoutNs)
        {
            // The client never answered the server's handshake from its address: never handed to the application.
            securityCounters.handshakeTimeouts().incrementRelease();
            end(CloseReason.HANDSHAKE_TIMEOUT, "");
            finishClose();
            return 1;
        }

        if (handle.isAbortRequested())
        {
            abortWithClose(ABORTED_ERROR, CloseReason.ABORTED);
            return 1;
        }
        if (nowNs - lastReceiveTimeNs >= idleTimeoutNs)
        {
            end(CloseReason.IDLE_TIMEOUT, "");
            finishClose();
            return 1;
        }
        if (isUnreachableConfirmed(nowNs))
        {
            end(CloseReason.PEER_UNREACHABLE, "");
            finishClose();
            return 1;
        }

        checkAppLimited();
        if (lossRecovery.timerDeadlineNs() <= nowNs)
        {
            lossRecovery.onTimeout(nowNs, this);
            publishRecoveryCounters();
            work++;
            if (lossRecovery.lossDetector().ptoCount() >= maxUnacknowledgedPtos)
            {
                // A peer that keeps the connection alive but acknowledges nothing is dead to this side (Linux's
                // tcp_retries2 limit plays this part for TCP; QUIC relies on the idle timeout alone).
                securityCounters.deadPeerCloses().incrementRelease();
                closeReasonText = CloseReasonTexts.PEER_UNRESPONSIVE;
                abortWithClose(ABORTED_ERROR, CloseReason.PEER_UNRESPONSIVE);
                return work;
            }
        }

        if (nowNs >= confirmationDueNs)
        {
            // The application sent nothing when it heard of the connection: confirm the handshake on its own.
            confirmationDueNs = Long.MAX_VALUE;
            pingPending = true;
            work++;
        }

        // Keep an idle connection alive: an ack-eliciting PING at half the idle timeout (RFC 9000 section 10.1.2).
        if (nowNs - lastAckElicitingSentNs >= idleTimeoutNs / 2 && nowNs - lastReceiveTimeNs >= idleTimeoutNs / 2)
        {
            pingPending = true;
        }

        work += refreshReceiveCredit();
        if (receipts.checkDue())
        {
            work++;
        }
        work += progressClose(nowNs);

        publishApplicationCounters();
        return work;
    }

    /**
     * The handshake timer, and a close or abort before the server answered: nothing can have been offered yet
     * (offers wait for the connection), so nothing is lost.
     */
    private int onConnectingDutyCycle(final long nowNs)
    {
        if (handle.isAbortRequested() || handle.isCloseRequested())
        {
            end(handle.isAbortRequested() ? CloseReason.ABORTED : CloseReason.LOCAL_CLOSE, "");
            finishClose();
            return 1;
        }
        if (nowNs - handshakeStartNs >= handshakeTimeoutNs)
        {
            // Answers came but none proved the server holds the keys: not a silent host.
            if (answersNotAuthenticated > 0)
            {
                end(CloseReason.AUTHENTICATION_FAILED, "none of the server's " + answersNotAuthenticated +
                    " answers authenticated: they were forged, or changed on the way");
            }
            else
            {
                end(CloseReason.HANDSHAKE_TIMEOUT, "");
            }
            finishClose();
            return 1;
        }
        return 0;
    }

    /**
     * The graceful close (docs/wire-format.md, "Closing"): end the stream (FIN), then wait until the peer has
     * acknowledged the FIN and its application has read everything up to it (its receipt), and only then send CLOSE;
     * the close fails after the linger timeout, and the connection is aborted.
     */
    private int progressClose(final long nowNs)
    {
        if (!handle.isCloseRequested())
        {
            return 0;
        }
        if (ConnectionState.CONNECTED == state)
        {
            changeState(ConnectionState.CLOSING);
            sendLog.finish();
            final long requestedLingerNs = handle.requestedLingerNs();
            lingerDeadlineNs =
                nowNs + (ConnectionHandle.CONTEXT_LINGER == requestedLingerNs ? lingerTimeoutNs : requestedLingerNs);
            return 1;
        }
        if (sendLog.isFullyAcked() && receipts.isConsumedByPeer(sendLog.finalPosition()))
        {
            end(CloseReason.LOCAL_CLOSE, "");
            closeErrorCode = NO_ERROR;
            closeFramePending = true;
            return 1;
        }
        if (nowNs - lingerDeadlineNs >= 0)
        {
            abortWithClose(ABORTED_ERROR, CloseReason.LINGER_TIMEOUT);
            return 1;
        }
        return 0;
    }

    /**
     * Publish what the applications did, for the stats and {@code pacelink stat}: messages and their bytes offered
     * here, read by the peer's application (its receipts), and polled here; and the wire figure of stream bytes the
     * peer acknowledged.
     */
    private void publishApplicationCounters()
    {
        counters.set(ConnectionCounters.STREAM_BYTES_ACKED, sendLog.ackedHead());
        final long messagesOffered = sendLog.messagesOffered();
        counters.set(ConnectionCounters.MESSAGES_OFFERED, messagesOffered);
        counters.set(ConnectionCounters.APP_BYTES_OFFERED,
            SendLog.applicationBytes(sendLog.tailPosition(), messagesOffered));
        counters.set(ConnectionCounters.MESSAGES_DELIVERED, receipts.peerConsumedMessages());
        counters.set(ConnectionCounters.APP_BYTES_DELIVERED,
            SendLog.applicationBytes(receipts.peerConsumedPosition(), receipts.peerConsumedMessages()));
        final long messagesPolled = receiveLog.consumedMessages();
        counters.set(ConnectionCounters.MESSAGES_RECEIVED, messagesPolled);
        counters.set(ConnectionCounters.APP_BYTES_RECEIVED,
            SendLog.applicationBytes(receiveLog.consumedHead(), messagesPolled));
    }

    /**
     * Advertise more credit once the application consumed half the receive window (RFC 9000 section 4.2 leaves
     * the policy to the implementation; half avoids both stalls and an update per packet), with a receipt of what the
     * application has read.
     */
    private int refreshReceiveCredit()
    {
        receiveLog.releaseConsumed();
        final long newMaxData = receiveLog.consumedHead() + receiveWindowBytes;
        if (newMaxData - advertisedMaxDataBytes >= receiveWindowBytes / 2)
        {
            advertisedMaxDataBytes = newMaxData;
            maxDataPending = true;
            receipts.request();
            return 1;
        }
        return 0;
    }

    /**
     * @return the earliest time this connection needs the agent: loss/PTO timer, ACK deadline, handshake retry and
     * confirmation, idle/keep-alive, linger, unreachable-confirmation and closing timers.
     */
    long nextDeadlineNs()
    {
        if (ConnectionState.CLOSED == state)
        {
            return Long.MAX_VALUE;
        }
        if (closeDeadlineNs != Long.MAX_VALUE)
        {
            return closeDeadlineNs;
        }
        if (ConnectionState.CONNECTING == state)
        {
            return Math.min(handshakeRetryDeadlineNs, handshakeStartNs + handshakeTimeoutNs);
        }
        long deadline = Math.min(lossRecovery.timerDeadlineNs(), ackTracker.ackDeadlineNs());
        deadline = Math.min(deadline, lastReceiveTimeNs + idleTimeoutNs);
        deadline = Math.min(deadline, Math.max(lastAckElicitingSentNs, lastReceiveTimeNs) + idleTimeoutNs / 2);
        deadline = Math.min(deadline, lingerDeadlineNs);
        deadline = Math.min(deadline, confirmationDueNs);
        if (isUnreachableSuspected)
        {
            deadline = Math.min(deadline, unreachableSinceNs + unreachableConfirmationNs());
        }
        return deadline;
    }

    /**
     * The peer broke the protocol: count it once per connection (later frames and packets of a connection already
     * closing are not acted on), tell the peer why, and close.
     *
     * @param cause  the defence's own counter, or null.
     * @param reason the reason sent in the CLOSE frame.
     */
    private void protocolViolation(final AtomicCounter cause, final DirectBuffer reason)
    {
        if (isClosing())
        {
            return;
        }
        endpointCounters.protocolViolations().incrementRelease();
        if (null != cause)
        {
            cause.incrementRelease();
        }
        closeReasonText = reason;
        abortWithClose(PROTOCOL_VIOLATION_ERROR, CloseReason.PROTOCOL_VIOLATION);
    }

    /**
     * The server's application does not take this connection (or the endpoint is closing): close it with a CLOSE
     * (REJECTED) that tells the client why.
     *
     * @param reason the refusal's reason phrase.
     */
    void refuse(final DirectBuffer reason)
    {
        closeReasonText = reason;
        abortWithClose(REJECTED_ERROR, CloseReason.REJECTED);
    }

    /**
     * Close immediately with a CLOSE frame (errors, aborts, endpoint shutdown); a connection whose outcome is already
     * decided keeps it.
     */
    void abortWithClose(final int errorCode, final CloseReason reason)
    {
        if (isClosing())
        {
            return;
        }
        // This side's outcome says what its CLOSE frame tells the peer.
        end(reason, null == closeReasonText ? "" :
            closeReasonText.getStringWithoutLengthUtf8(0, closeReasonText.capacity()));
        closeErrorCode = errorCode;
        closeFramePending = ConnectionState.CONNECTING != state;
        if (!closeFramePending)
        {
            finishClose();
        }
    }

    /**
     * Decide the outcome, once: how the connection ended and whether the peer's application read everything
     * offered, by its latest receipt.
     */
    private void end(final CloseReason reason, final String detail)
    {
        handle.ended(reason, detail, receipts.peerConsumedPosition(), receipts.peerConsumedMessages());
    }

    private void beginLinger(final long nowNs)
    {
        if (ConnectionState.CLOSED != state && ConnectionState.CLOSING != state)
        {
            changeState(ConnectionState.CLOSING);
        }
        closeDeadlineNs = nowNs + CLOSE_LINGER_PTOS * lossRecovery.ptoPeriodNs();
    }

    /**
     * The connection is gone. Its outcome was decided when it ended; one that was not (an endpoint closing under
     * it) ended with the endpoint.
     */
    void finishClose()
    {
        if (ConnectionState.CLOSED == state)
        {
            return;
        }
        publishApplicationCounters();
        end(CloseReason.ENDPOINT_CLOSED, "");
        state = ConnectionState.CLOSED;
        handle.closed(CloseReason.ENDPOINT_CLOSED, "");
    }

    private void changeState(final ConnectionState newState)
    {
        state = newState;
        handle.state(newState);
    }

    // ---------------------------------------------------------------- send (SchedulableFlow)

    public long flowId()
    {
        return localId;
    }

    /**
     * @return the maximum datagram size of the connection's path: the size of the packets it builds.
     */
    int maxDatagramSizeBytes()
    {
        return path.maxDatagramSizeBytes();
    }

    public int sendable(final long nowNs)
    {
        // A connection that could not make progress is not released again before the next duty cycle.
        return isSendStalled ? 0 : sendState(nowNs) & (SchedulableFlow.ACK_ELICITING | SchedulableFlow.ACK_DUE);
    }

    /**
     * Once per duty cycle, after sending: count what kept this connection from sending what it has — the peer's
     * flow-control credit, the congestion window, or the scheduler not releasing it (pacing or the duty cycle's send
     * budget).
     */
    void countSendLimits(final long nowNs)
    {
        final int sendState = sendState(nowNs);
        if (0 != (sendState & LIMITED_BY_FLOW_CONTROL))
        {
            counters.increment(ConnectionCounters.FLOW_CONTROL_LIMITED);
        }
        else if (0 != (sendState & LIMITED_BY_CWND))
        {
            counters.increment(ConnectionCounters.CWND_LIMITED);
        }
        else if (0 != (sendState & WITHIN_WINDOW))
        {
            counters.increment(ConnectionCounters.PACING_LIMITED);
        }
    }

    /**
     * What the connection may send now and, while it is open, what holds its ack-eliciting work: one computation
     * for the scheduler ({@link #sendable}) and the send-limit counters ({@link #countSendLimits}). Changes nothing.
     *
     * @return {@link SchedulableFlow#ACK_ELICITING}, {@link SchedulableFlow#ACK_DUE}, {@link #LIMITED_BY_FLOW_CONTROL},
     * {@link #LIMITED_BY_CWND} and {@link #WITHIN_WINDOW} combined.
     */
    private int sendState(final long nowNs)
    {
        final boolean isOpen = ConnectionState.CONNECTED == state || ConnectionState.CLOSING == state;
        // RFC 9000 section 10.2: once closing or draining, nothing is acknowledged any more.
        final boolean isLingering = closeDeadlineNs != Long.MAX_VALUE;
        int sendState = isOpen && !isLingering && ackTracker.isAckDue(nowNs) ? SchedulableFlow.ACK_DUE : 0;
        if (closeFramePending)
        {
            sendState |= SchedulableFlow.ACK_ELICITING;
        }
        if (!isOpen || isLingering || closeFramePending)
        {
            return sendState;
        }

        if (sendLog.hasUnsentData() && 0 == sendLog.sendableBytes() && !sendLog.hasRetransmission())
        {
            sendState |= LIMITED_BY_FLOW_CONTROL;
        }
        final boolean isWithinWindow = isWithinWindow();
        if (hasAckElicitingWork())
        {
            sendState |= isWithinWindow ? WITHIN_WINDOW | SchedulableFlow.ACK_ELICITING : LIMITED_BY_CWND;
        }
        if (lossRecovery.probesToSend() > 0)
        {
            sendState |= SchedulableFlow.ACK_ELICITING;
        }
        return sendState;
    }

    private boolean isWithinWindow()
    {
        return lossRecovery.canSend() && lossRecovery.bytesInFlight() < controller.congestionWindowBytes();
    }

    private boolean hasAckElicitingWork()
    {
        if (maxDataPending || pingPending || receipts.isPending() || sendLog.hasRetransmission() ||
            sendLog.isFinPending())
        {
            return true;
        }
        return sendLog.hasUnsentData() && sendLog.sendableBytes() > 0;
    }

    /**
     * Build the next packet for this connection (late binding: called only when the scheduler releases it, so it
     * carries the freshest ACK and retransmissions first).
     *
     * @param ackOnly true if the scheduler released the connection only for an ACK it owes.
     * @return the packet, packed by {@link SentPacket#pack}: its length and whether it is ack-eliciting.
     */
    int buildPacket(
        final PacketWriter writer, final MutableDirectBuffer buffer, final long nowNs, final boolean ackOnly)
    {
        if (closeFramePending)
        {
            return buildClosePacket(writer, nowNs);
        }

        final long packetNumber = takePacketNumber();
        writer.writeHeader(PacketType.ONE_RTT, remoteId, packetNumber);
        confirmationDueNs = Long.MAX_VALUE; // any ONE_RTT packet confirms the handshake to the server

        int frameFlags = 0;
        long ackFrameLargestAcked = -1;
        // Acknowledge when an ack-eliciting packet is waiting for it (RFC 9000 section 13.2.1). Packets that only
        // carried ACK frames are acknowledged along with those, never on their own: the peer tracks them for neither
        // loss nor RTT, and with a reordering ACK path they keep many small ranges open, so an ACK frame on every data
        // packet would cost a tenth of the payload and split every retransmitted range in two.
        if (ackTracker.hasNewAckInformation() && (ackOnly || ackTracker.ackElicitingSinceLastAck() > 0))
        {
            if (ackTracker.writeAckFrame(writer, nowNs) > 0)
            {
                frameFlags |= FrameFlags.ACK;
                ackFrameLargestAcked = ackTracker.largestReceived();
            }
        }

        final boolean isProbe = lossRecovery.probesToSend() > 0;
        final boolean mayElicit = !ackOnly && (isProbe || isWithinWindow());
        boolean ackEliciting = false;
        long streamOffset = 0;
        int streamLength = 0;
        boolean fin = false;
        boolean isRetransmission = false;

        if (mayElicit)
        {
            if (maxDataPending && writer.appendMaxData(advertisedMaxDataBytes) &&
                writer.appendMaxStreamData(STREAM_ID, advertisedMaxDataBytes))
            {
                maxDataPending = false;
                frameFlags |= FrameFlags.MAX_DATA;
                ackEliciting = true;
            }
            if (receipts.isPending() && receipts.write(writer))
            {
                frameFlags |= FrameFlags.CONSUMED;
                ackEliciting = true;
            }

            final int payloadRoom = writer.remaining() - PacketWriter.DATA_FRAME_OVERHEAD_BYTES;
            if (payloadRoom >= 0)
            {
                boolean hasFrame = true;
                if (sendLog.hasRetransmission())
                {
                    streamOffset = sendLog.retransmitOffset();
                    streamLength = sendLog.retransmitLength(payloadRoom);
                    isRetransmission = true;
                }
                else if (payloadRoom > 0 && sendLog.sendableBytes() > 0)
                {
                    streamOffset = sendLog.nextSendPosition();
                    streamLength = (int)Math.min(payloadRoom, sendLog.sendableBytes());
                }
                else if (sendLog.isFinPending())
                {
                    streamOffset = sendLog.nextSendPosition();
                }
                else
                {
                    hasFrame = false;
                }

                // Read the final position once: finish() may run on an application thread meanwhile.
                final long finalPosition = sendLog.finalPosition();
                fin = SendLog.NO_FINAL_POSITION != finalPosition && streamOffset + streamLength == finalPosition;
                if (hasFrame && (streamLength > 0 || fin))
                {
                    final int payloadOffset = writer.appendDataHeader(STREAM_ID, streamOffset, fin, streamLength);
                    sendLog.copyOut(streamOffset, streamLength, buffer, payloadOffset);
                    if (isRetransmission)
                    {
                        sendLog.onRetransmitted(streamOffset, streamLength, fin);
                        counters.counter(ConnectionCounters.BYTES_RETRANSMITTED).getAndAddRelease(streamLength);
                        counters.increment(ConnectionCounters.PACKETS_RETRANSMITTED);
                    }
                    else
                    {
                        sendLog.onSent(streamOffset, streamLength, fin);
                    }
                    ackEliciting = true;
                }
                else
                {
                    fin = false;
                    streamLength = 0;
                }
            }

            if (!ackEliciting && (isProbe || pingPending))
            {
                writer.appendPing();
                frameFlags |= FrameFlags.PING;
                ackEliciting = true;
            }
            pingPending = false;
        }

        // The trailer (CRC32C or AEAD tag) is added when the packet leaves, but it travels and counts like the rest.
        final int length = writer.length() + trailerLength();
        lossRecovery.onPacketSent(
            packetNumber, nowNs, length, ackEliciting, ackEliciting, streamOffset, streamLength, fin, frameFlags,
            isRetransmission);
        if (ackFrameLargestAcked >= 0)
        {
            lossRecovery.recordAckFrame(packetNumber, ackFrameLargestAcked);
        }
        if (isProbe)
        {
            lossRecovery.onProbeSent();
        }
        if (ackEliciting)
        {
            lastAckElicitingSentNs = nowNs;
        }
        else if (!ackOnly)
        {
            // Released for ack-eliciting work and built none: whatever disagreement between what this connection
            // said it could send and what it could put in a packet, it must not take the duty cycle's whole send
            // budget for packets that carry nothing (the spin a tiny negotiated datagram size once caused).
            isSendStalled = true;
            securityCounters.stalledSends().incrementRelease();
        }

        counters.counter(ConnectionCounters.BYTES_SENT).getAndAddRelease(length);
        counters.increment(ConnectionCounters.PACKETS_SENT);
        counters.set(ConnectionCounters.BYTES_IN_FLIGHT, lossRecovery.bytesInFlight());
        return SentPacket.pack(length, ackEliciting);
    }

    /**
     * The next packet number, now and then skipping one at random (RFC 9000 section 21.4): a peer that acknowledges
     * the skipped number acknowledges a packet it cannot have received, and is closed for it.
     */
    private long takePacketNumber()
    {
        long packetNumber = nextPacketNumber;
        if (packetNumber >= nextSkippedPacketNumber)
        {
            if (lossRecovery.canSend(packetNumber + 1))
            {
                packetNumber++;
            }
            nextSkippedPacketNumber = packetNumber + 1 + random.nextInt(MAX_PACKETS_BETWEEN_SKIPS);
        }
        nextPacketNumber = packetNumber + 1;
        return packetNumber;
    }

    /**
     * A CLOSE packet elicits no acknowledgement (RFC 9000 section 10.2) and is never paced; it carries the reason.
     */
    private int buildClosePacket(final PacketWriter writer, final long nowNs)
    {
        writer.writeHeader(PacketType.CLOSE, remoteId, nextPacketNumber++);
        // The peer's outcome judges delivery by this last receipt, which comes before the CLOSE frame.
        receipts.write(writer);
        final DirectBuffer reason = closeReasonText;
        if (null == reason || !writer.appendClose(closeErrorCode, reason, 0, reason.capacity()))
        {
            writer.appendClose(closeErrorCode, null, 0, 0);
        }
        closeFramePending = false;
        beginLinger(nowNs);
        return SentPacket.pack(writer.length() + trailerLength(), false);
    }

    /**
     * Once per duty cycle, before timers may transmit: mark the connection application-limited when it has less than a
     * packet of unsent data and cwnd has room (draft-ietf-ccwg-bbr {@code CheckIfApplicationLimited}). Late binding
     * means nothing ever waits below the transport.
     */
    private void checkAppLimited()
    {
        final boolean wasAppLimited = lossRecovery.rateSampler().isAppLimited();
        final long unsentBytes = sendLog.tailPosition() - sendLog.nextSendPosition();
        if (lossRecovery.onAppLimitedCheck(unsentBytes, true, !sendLog.hasRetransmission()) && !wasAppLimited)
        {
            counters.increment(ConnectionCounters.APP_LIMITED);
        }
    }

    private void publishRecoveryCounters()
    {
        counters.set(ConnectionCounters.CWND_BYTES, controller.congestionWindowBytes());
        counters.set(ConnectionCounters.PACING_RATE_BYTES_PER_SECOND, controller.pacingRateBytesPerSecond());
        counters.publishControllerState(controller.stateName());
        if (lossRecovery.rateSampler().hasSample())
        {
            counters.set(ConnectionCounters.DELIVERY_RATE_BYTES_PER_SECOND,
                lossRecovery.rateSampler().deliveryRateBytesPerSecond());
        }
        counters.set(ConnectionCounters.MIN_RTT_NS, lossRecovery.rttEstimator().minRttNs());
        counters.set(ConnectionCounters.SMOOTHED_RTT_NS, lossRecovery.rttEstimator().smoothedRttNs());
        counters.set(ConnectionCounters.LATEST_RTT_NS, lossRecovery.rttEstimator().latestRttNs());
        counters.set(ConnectionCounters.RTT_SAMPLES, lossRecovery.rttEstimator().sampleCount());
        counters.set(ConnectionCounters.BYTES_IN_FLIGHT, lossRecovery.bytesInFlight());
        counters.set(ConnectionCounters.PACKETS_LOST, lossRecovery.lostPackets());
        counters.set(ConnectionCounters.BYTES_LOST, lossRecovery.lostBytes());
        counters.set(ConnectionCounters.SPURIOUS_LOSSES, lossRecovery.spuriousLosses());
        counters.set(ConnectionCounters.PROBE_TIMEOUTS, lossRecovery.ptoExpirations());
    }

    /**
     * The connection is gone: credit its sent-packet records to the memory budget (the endpoint credits its stream
     * buffers through the handle).
     */
    void releaseMemory()
    {
        lossRecovery.releaseMemory();
    }

    /**
     * @return the controller, for traces.
     */
    CongestionController controller()
    {
        return controller;
    }

    public String toString()
    {
        return "ConnectionCore{local=" + Long.toHexString(localId) + ", remote=" + Long.toHexString(remoteId) +
            ", " + remoteAddress + ", state=" + state + "}";
    }
}
