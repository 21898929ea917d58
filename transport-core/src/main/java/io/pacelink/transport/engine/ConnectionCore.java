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
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.CloseFrameFlyweight;
import io.pacelink.transport.wire.CongestionControlFrameFlyweight;
import io.pacelink.transport.wire.DataFrameFlyweight;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;
import io.pacelink.transport.wire.MaxStreamDataFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

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
     * RFC 9000 section 10.2: a closing or draining connection lingers for three PTOs so late packets are absorbed.
     */
    private static final int CLOSE_LINGER_PTOS = 3;

    /**
     * Handshake retries back off from the initial RTT, doubling (RFC 9002 section 6.2.1 applied to the handshake).
     */
    private static final int MAX_HANDSHAKE_BACKOFF_SHIFT = 6;

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
    private final AckFrameRanges ackRanges = new AckFrameRanges();
    private final long localMaxAckDelayNs;
    private final long initialRttNs;
    private final long handshakeTimeoutNs;
    private final int receiveWindowBytes;

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
    private boolean closeFramePending;
    private int closeErrorCode = NO_ERROR;
    private CloseReason pendingCloseReason = CloseReason.NONE;
    private long advertisedMaxDataBytes;
    private boolean maxDataPending;
    private boolean pingPending;

    ConnectionCore(
        final long localId,
        final boolean isClient,
        final InetSocketAddress remoteAddress,
        final ConnectionHandle handle,
        final PathParameters path,
        final LossRecovery lossRecovery,
        final CongestionController controller,
        final ReceivedPacketTracker ackTracker,
        final EndpointCounters endpointCounters,
        final PacelinkContext settings,
        final long nowNs)
    {
        this.localId = localId;
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
        this.endpointCounters = endpointCounters;
        this.localMaxAckDelayNs = settings.maxAckDelayNs();
        this.initialRttNs = settings.initialRttNs();
        this.handshakeTimeoutNs = settings.handshakeTimeoutNs();
        this.receiveWindowBytes = settings.receiveBufferBytes();
        this.idleTimeoutNs = settings.idleTimeoutNs();
        this.advertisedMaxDataBytes = receiveWindowBytes;
        this.lastReceiveTimeNs = nowNs;
        this.handshakeStartNs = nowNs;

        if (isClient)
        {
            state = ConnectionState.CONNECTING;
            handshakeRetryDeadlineNs = nowNs;
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
    void onHandshakeResponse(final HandshakeFrameFlyweight handshake, final long nowNs)
    {
        if (ConnectionState.CONNECTING != state)
        {
            return; // a retransmitted answer
        }
        applyPeerHandshake(handshake, nowNs);
        handshakeRetryDeadlineNs = Long.MAX_VALUE;
        changeState(ConnectionState.CONNECTED);
    }

    /**
     * The server refused this client's handshake.
     */
    void onRejected()
    {
        if (ConnectionState.CONNECTING == state)
        {
            pendingCloseReason = CloseReason.REJECTED;
            finishClose();
        }
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
     * Write this side's handshake packet. The client pads its request to the full datagram size so the path's MTU is
     * proven before data flows (RFC 9000 section 14.1 does the same for Initial packets).
     *
     * @return the datagram length.
     */
    int writeHandshake(final PacketWriter writer, final long nowNs)
    {
        writer.writeHeader(PacketType.HANDSHAKE, remoteId, handshakeAttempts);
        writer.appendHandshake(
            localId,
            !isClient,
            path.maxDatagramSizeBytes(),
            (int)(localMaxAckDelayNs / 1_000L),
            (int)(idleTimeoutNs / 1_000_000L),
            receiveWindowBytes,
            receiveWindowBytes,
            null,
            0,
            0);
        if (isClient)
        {
            // Ask the server to run our controller for its side too; a name the frame cannot carry is not sent and
            // the server uses its own.
            if (CongestionControlFrameFlyweight.isValidName(handle.congestionControl()))
            {
                writer.appendCongestionControl(handle.congestionControl());
            }
            writer.appendPadding(writer.remaining());
            handshakeAttempts++;
            final int shift = Math.min(handshakeAttempts, MAX_HANDSHAKE_BACKOFF_SHIFT);
            handshakeRetryDeadlineNs = nowNs + (initialRttNs << shift);
        }
        else
        {
            handshakeResponsePending = false;
        }
        return writer.length();
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
        for (int frameType = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != frameType;
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
                    protocolViolation();
                    break;

                case FrameType.CLOSE:
                    onClose(decoder.close(), nowNs);
                    break;

                default:
                    // PING and frame types this version does not know: they only elicit an acknowledgement.
                    break;
            }
        }
        ackTracker.onPacketReceived(decoder.packetNumber(), decoder.isAckEliciting(), nowNs);
    }

    private void onAck(final AckFrameFlyweight ack, final long nowNs)
    {
        final long result = lossRecovery.onAckReceived(ackRanges.wrap(ack), ack.ackDelayUs() * 1_000L, nowNs, this);
        if (result < 0)
        {
            // An ACK for a packet we never sent: an optimistic-ACK attack or a broken peer (RFC 9000 section 21.4).
            protocolViolation();
            return;
        }
        publishRecoveryCounters();
    }

    private void onData(final DataFrameFlyweight data)
    {
        final int newBytes = receiveLog.onData(
            data.streamOffset(), data.buffer(), data.payloadOffset(), data.payloadLength(), data.fin());
        if (newBytes < 0)
        {
            protocolViolation();
            return;
        }
        counters.counter(ConnectionCounters.BYTES_RECEIVED).getAndAddRelease(newBytes);
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
        if (ConnectionState.CLOSED != state)
        {
            // RFC 9000 section 10.2.2: the draining peer sends nothing more; linger to absorb late packets.
            closeFramePending = false;
            pendingCloseReason = REJECTED_ERROR == close.errorCode() ? CloseReason.REJECTED : CloseReason.PEER_CLOSE;
            beginLinger(nowNs);
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
            if (nowNs - handshakeStartNs >= handshakeTimeoutNs)
            {
                pendingCloseReason = CloseReason.HANDSHAKE_TIMEOUT;
                finishClose();
                return 1;
            }
            return 0;
        }

        if (closeDeadlineNs != Long.MAX_VALUE)
        {
            return 0; // closing or draining: only the linger timer runs
        }

        if (nowNs - lastReceiveTimeNs >= idleTimeoutNs)
        {
            pendingCloseReason = CloseReason.IDLE_TIMEOUT;
            finishClose();
            return 1;
        }

        checkAppLimited();
        if (lossRecovery.timerDeadlineNs() <= nowNs)
        {
            lossRecovery.onTimeout(nowNs, this);
            publishRecoveryCounters();
            work++;
        }

        // Keep an idle connection alive: an ack-eliciting PING at half the idle timeout (RFC 9000 section 10.1.2).
        if (nowNs - lastAckElicitingSentNs >= idleTimeoutNs / 2 && nowNs - lastReceiveTimeNs >= idleTimeoutNs / 2)
        {
            pingPending = true;
        }

        work += refreshReceiveCredit();

        if (handle.isCloseRequested() && ConnectionState.CONNECTED == state)
        {
            changeState(ConnectionState.CLOSING);
            sendLog.finish();
            work++;
        }
        if (ConnectionState.CLOSING == state && !closeFramePending && sendLog.isFullyAcked())
        {
            // Everything the application offered has been acknowledged: tell the peer and linger.
            pendingCloseReason = CloseReason.LOCAL_CLOSE;
            closeErrorCode = NO_ERROR;
            closeFramePending = true;
            work++;
        }

        counters.set(ConnectionCounters.BYTES_DELIVERED, sendLog.ackedHead());
        return work;
    }

    /**
     * Advertise more credit once the application consumed half the receive window (RFC 9000 section 4.2 leaves
     * the policy to the implementation; half avoids both stalls and an update per packet).
     */
    private int refreshReceiveCredit()
    {
        final long newMaxData = receiveLog.consumedHead() + receiveWindowBytes;
        if (newMaxData - advertisedMaxDataBytes >= receiveWindowBytes / 2)
        {
            advertisedMaxDataBytes = newMaxData;
            maxDataPending = true;
            return 1;
        }
        return 0;
    }

    /**
     * @return the earliest time this connection needs the agent: loss/PTO timer, ACK deadline, handshake retry,
     * idle/keep-alive and linger timers.
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
        return deadline;
    }

    /**
     * The peer broke the protocol: count it, tell the peer, and close.
     */
    void protocolViolation()
    {
        endpointCounters.protocolViolations().incrementRelease();
        abortWithClose(PROTOCOL_VIOLATION_ERROR, CloseReason.PROTOCOL_VIOLATION);
    }

    /**
     * Close immediately with a CLOSE frame (errors, endpoint shutdown).
     */
    void abortWithClose(final int errorCode, final CloseReason reason)
    {
        if (ConnectionState.CLOSED == state || closeDeadlineNs != Long.MAX_VALUE)
        {
            return;
        }
        closeErrorCode = errorCode;
        pendingCloseReason = reason;
        closeFramePending = ConnectionState.CONNECTING != state;
        if (!closeFramePending)
        {
            finishClose();
        }
    }

    private void beginLinger(final long nowNs)
    {
        if (ConnectionState.CLOSED != state && ConnectionState.CLOSING != state)
        {
            changeState(ConnectionState.CLOSING);
        }
        closeDeadlineNs = nowNs + CLOSE_LINGER_PTOS * lossRecovery.ptoPeriodNs();
    }

    private void finishClose()
    {
        state = ConnectionState.CLOSED;
        handle.closed(pendingCloseReason == CloseReason.NONE ? CloseReason.ENDPOINT_CLOSED : pendingCloseReason);
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
        return sendState(nowNs) & (SchedulableFlow.ACK_ELICITING | SchedulableFlow.ACK_DUE);
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
        int sendState = isOpen && ackTracker.isAckDue(nowNs) ? SchedulableFlow.ACK_DUE : 0;
        if (closeFramePending)
        {
            sendState |= SchedulableFlow.ACK_ELICITING;
        }
        if (!isOpen || closeDeadlineNs != Long.MAX_VALUE)
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
        if (maxDataPending || pingPending || sendLog.hasRetransmission() || sendLog.isFinPending())
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

        final long packetNumber = nextPacketNumber++;
        writer.writeHeader(PacketType.ONE_RTT, remoteId, packetNumber);

        int frameFlags = 0;
        // Acknowledge when an ack-eliciting packet is waiting for it (RFC 9000 section 13.2.1). Packets that only
        // carried ACK frames are acknowledged along with those, never on their own: the peer tracks them for neither
        // loss nor RTT, and with a reordering ACK path they keep many small ranges open, so an ACK frame on every data
        // packet would cost a tenth of the payload and split every retransmitted range in two.
        if (ackTracker.hasNewAckInformation() && (ackOnly || ackTracker.ackElicitingSinceLastAck() > 0))
        {
            if (ackTracker.writeAckFrame(writer, nowNs) > 0)
            {
                frameFlags |= FrameFlags.ACK;
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

        final int length = writer.length();
        lossRecovery.onPacketSent(
            packetNumber, nowNs, length, ackEliciting, ackEliciting, streamOffset, streamLength, fin, frameFlags,
            isRetransmission);
        if (isProbe)
        {
            lossRecovery.onProbeSent();
        }
        if (ackEliciting)
        {
            lastAckElicitingSentNs = nowNs;
        }

        counters.counter(ConnectionCounters.BYTES_SENT).getAndAddRelease(length);
        counters.increment(ConnectionCounters.PACKETS_SENT);
        counters.set(ConnectionCounters.BYTES_IN_FLIGHT, lossRecovery.bytesInFlight());
        return SentPacket.pack(length, ackEliciting);
    }

    /**
     * A CLOSE packet elicits no acknowledgement (RFC 9000 section 10.2) and is never paced.
     */
    private int buildClosePacket(final PacketWriter writer, final long nowNs)
    {
        writer.writeHeader(PacketType.CLOSE, remoteId, nextPacketNumber++);
        writer.appendClose(closeErrorCode, null, 0, 0);
        closeFramePending = false;
        beginLinger(nowNs);
        return SentPacket.pack(writer.length(), false);
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
