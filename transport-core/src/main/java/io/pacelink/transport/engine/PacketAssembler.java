package io.pacelink.transport.engine;

import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.recovery.PathParameters;
import io.pacelink.transport.recovery.SentPacketDescriptor;
import io.pacelink.transport.secure.SecureSession;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.CongestionControlFrameFlyweight;
import io.pacelink.transport.wire.EcnCodepoint;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.PacketWriter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes one connection's packets where they will leave from (the send batch, or the guard's staging buffer): its
 * ONE_RTT packets, built late — only when the scheduler releases the connection, so each carries the freshest ACK and
 * retransmissions first — its CLOSE, and its handshake packets. Takes the work from the connection's queues (the send
 * log, the ACK tracker, the control frames owed, the delivery receipts) as it writes it, and describes each tracked
 * packet in the {@link SentPacketDescriptor} for loss recovery; it records nothing itself.
 */
final class PacketAssembler
{
    private final long localId;
    private final ConnectionHandle handle;
    private final PathParameters path;
    private final long localMaxAckDelayNs;
    private final PacketNumbers packetNumbers;
    private final ConnectionHandshake handshake;
    private final ConnectionLifecycle lifecycle;
    private final Liveness liveness;
    private final ControlFrames controlFrames;
    private final DeliveryReceipts receipts;
    private final ReceivedPacketTracker ackTracker;
    private final LossRecovery lossRecovery;
    private final AckFrequencyRequests ackFrequency;
    private final SendLog sendLog;
    private final ConnectionCounters counters;

    PacketAssembler(
        final long localId,
        final ConnectionHandle handle,
        final PathParameters path,
        final long localMaxAckDelayNs,
        final PacketNumbers packetNumbers,
        final ConnectionHandshake handshake,
        final ConnectionLifecycle lifecycle,
        final Liveness liveness,
        final ControlFrames controlFrames,
        final DeliveryReceipts receipts,
        final ReceivedPacketTracker ackTracker,
        final LossRecovery lossRecovery,
        final AckFrequencyRequests ackFrequency)
    {
        this.ackFrequency = ackFrequency;
        this.localId = localId;
        this.handle = handle;
        this.path = path;
        this.localMaxAckDelayNs = localMaxAckDelayNs;
        this.packetNumbers = packetNumbers;
        this.handshake = handshake;
        this.lifecycle = lifecycle;
        this.liveness = liveness;
        this.controlFrames = controlFrames;
        this.receipts = receipts;
        this.ackTracker = ackTracker;
        this.lossRecovery = lossRecovery;
        this.sendLog = handle.sendLog();
        this.counters = handle.counters();
    }

    /**
     * Write a ONE_RTT packet: an ACK frame if an ack-eliciting packet waits for one, then (unless {@code ackOnly})
     * credit and a receipt, a retransmitted range before new data, FIN, or a PING for a probe or a timer.
     *
     * @param writer         wrapped around where the packet goes, with room for the packet without its trailer.
     * @param remoteId       the peer's connection id.
     * @param ackOnly        true if the scheduler released the connection only for an ACK it owes.
     * @param isWithinWindow true if the congestion window has room for an ack-eliciting packet.
     * @param nowNs          the send time.
     * @param sent           filled with the packet's description, but for its size.
     * @param gathered       where to leave the DATA payload's place instead of copying it, if it lies in one direct
     *                       segment of the send log (the payload is then the packet's last bytes, not written); null to
     *                       copy it always.
     * @return the packet's length without the trailer, a payload left in place included.
     */
    int assembleOneRtt(
        final PacketWriter writer,
        final long remoteId,
        final boolean ackOnly,
        final boolean isWithinWindow,
        final long nowNs,
        final SentPacketDescriptor sent,
        final GatheredPayload gathered)
    {
        final long packetNumber = packetNumbers.take(lossRecovery);
        writer.writeHeader(PacketType.ONE_RTT, remoteId, packetNumber);
        handshake.onOneRttPacket();
        // ECN validation decides each packet's codepoint: ECT(0) while testing or once capable, else not-ECT.
        sent.reset(packetNumber, nowNs).ecnCodepoint(lossRecovery.ecnCodepointToSend(nowNs));

        controlFrames.writePathResponse(writer);
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
                sent.ackFrameLargestAcked(ackTracker.largestReceived());
            }
        }

        final boolean isProbe = lossRecovery.probesToSend() > 0;
        boolean ackEliciting = false;
        if (!ackOnly && (isProbe || isWithinWindow))
        {
            if (controlFrames.writeCredit(writer))
            {
                frameFlags |= FrameFlags.MAX_DATA;
                ackEliciting = true;
            }
            if (receipts.isPending() && receipts.write(writer))
            {
                frameFlags |= FrameFlags.CONSUMED;
                ackEliciting = true;
            }
            if (controlFrames.writeNewToken(writer))
            {
                frameFlags |= FrameFlags.NEW_TOKEN;
                ackEliciting = true;
            }
            if (ackFrequency.write(writer))
            {
                lossRecovery.peerMaxAckDelayNs(ackFrequency.recoveryAckDelayNs());
                frameFlags |= FrameFlags.ACK_FREQUENCY;
                counters.increment(ConnectionCounters.ACK_FREQUENCY_SENT);
                ackEliciting = true;
            }
            // A probe must be answered at once, not after the longer delay this side asked for
            // (draft-ietf-quic-ack-frequency section 5): the tail loss it probes for costs no more than before.
            if (isProbe && ackFrequency.isDelayExtended() && writer.appendImmediateAck())
            {
                ackEliciting = true;
            }
            // Last: a payload left in place must be the packet's last bytes.
            ackEliciting |= appendStreamData(writer, sent, gathered);
            if (!ackEliciting && (isProbe || controlFrames.isPingPending()))
            {
                writer.appendPing();
                frameFlags |= FrameFlags.PING;
                ackEliciting = true;
            }
            controlFrames.clearPing();
        }
        sent.ackEliciting(ackEliciting).frameFlags(frameFlags).probe(isProbe);
        return writer.length();
    }

    /**
     * A DATA frame: a retransmitted range first, else new data the peer's credit allows, else a lone FIN.
     *
     * @return true if one was written.
     */
    private boolean appendStreamData(
        final PacketWriter writer, final SentPacketDescriptor sent, final GatheredPayload gathered)
    {
        final int payloadRoom = writer.remaining() - PacketWriter.DATA_FRAME_OVERHEAD_BYTES;
        if (payloadRoom < 0)
        {
            return false;
        }
        long streamOffset = 0;
        int streamLength = 0;
        boolean isRetransmission = false;
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
        final boolean fin = SendLog.NO_FINAL_POSITION != finalPosition && streamOffset + streamLength == finalPosition;
        if (!hasFrame || (0 == streamLength && !fin))
        {
            // Nothing to carry after all (no room for a retransmitted byte): described as loss recovery always saw
            // such a packet, with no range.
            sent.streamRange(streamOffset, 0, false, isRetransmission);
            return false;
        }
        final int payloadOffset = writer.appendDataHeader(ConnectionCore.STREAM_ID, streamOffset, fin, streamLength);
        final UnsafeBuffer inPlace =
            null == gathered || 0 == streamLength ? null : sendLog.segmentInPlace(streamOffset, streamLength);
        if (null != inPlace)
        {
            // The port sends the payload from the log (one copy, the kernel's, instead of two).
            gathered.set(inPlace, sendLog.indexInSegment(streamOffset), streamLength);
        }
        else
        {
            sendLog.copyOut(streamOffset, streamLength, writer.buffer(), payloadOffset);
        }
        if (isRetransmission)
        {
            sendLog.onRetransmitted(streamOffset, streamLength, fin);
            counters.add(ConnectionCounters.BYTES_RETRANSMITTED, streamLength);
            counters.increment(ConnectionCounters.PACKETS_RETRANSMITTED);
        }
        else
        {
            sendLog.onSent(streamOffset, streamLength, fin);
        }
        sent.streamRange(streamOffset, streamLength, fin, isRetransmission);
        return true;
    }

    /**
     * Write a packet carrying a PATH_CHALLENGE toward the address being validated (RFC 9000 section 8.2.1), padded
     * to {@code sizeBytes} (the minimum datagram size where the amplification budget allows it). It is tracked like
     * an ACK-only packet — not ack-eliciting, not in flight — so an acknowledgement of its number is an
     * acknowledgement of a packet sent, and the congestion controller never sees a probe of another path.
     *
     * @param sizeBytes the datagram's size, trailer included.
     * @return the packet's length without the trailer.
     */
    int assemblePathChallenge(
        final PacketWriter writer,
        final long remoteId,
        final long challengeData,
        final int sizeBytes,
        final int trailerBytes,
        final long nowNs,
        final SentPacketDescriptor sent)
    {
        final long packetNumber = packetNumbers.take(lossRecovery);
        writer.writeHeader(PacketType.ONE_RTT, remoteId, packetNumber);
        sent.reset(packetNumber, nowNs).ecnCodepoint(EcnCodepoint.NOT_ECT);
        writer.appendPathFrame(FrameType.PATH_CHALLENGE, challengeData);
        // A padding frame too small for its own header is left out: the challenge is then a few bytes short.
        writer.appendPadding(Math.min(sizeBytes - trailerBytes - writer.length(), writer.remaining()));
        sent.ackEliciting(false).countsInFlight(false);
        return writer.length();
    }

    /**
     * Write the CLOSE: never paced, eliciting no acknowledgement (RFC 9000 section 10.2), carrying the last receipt
     * (the peer's outcome judges delivery by it, so it comes before the CLOSE frame) and the reason. The closing
     * period begins.
     *
     * @return the packet's length without the trailer.
     */
    int assembleClose(final PacketWriter writer, final long remoteId, final long nowNs)
    {
        writer.writeHeader(PacketType.CLOSE, remoteId, packetNumbers.takeUntracked());
        receipts.write(writer);
        final int errorCode = lifecycle.closeErrorCode();
        final DirectBuffer reason = lifecycle.closeReasonText();
        if (null == reason || !writer.appendClose(errorCode, reason, 0, reason.capacity()))
        {
            writer.appendClose(errorCode, null, 0, 0);
        }
        lifecycle.onCloseFrameSent(nowNs);
        return writer.length();
    }

    /**
     * Write this side's handshake packet. The client pads its hello to the full datagram size, at least 1200 bytes,
     * so the path's MTU is proven before data flows and any answer, even a refusal, is smaller than the hello
     * (RFC 9000 sections 8.1 and 14.1 do the same for Initial packets); it echoes the RETRY token if it got one and
     * asks for its controller.
     *
     * @return the packet's length without the trailer.
     */
    int assembleHandshake(
        final PacketWriter writer, final long remoteId, final int receiveWindowBytes, final long nowNs)
    {
        final boolean isClient = handshake.isClient();
        final SecureSession secureSession = handshake.secureSession();
        writer.writeHeader(PacketType.HANDSHAKE, remoteId, handshake.attempts());
        final int handshakeFrameOffset = writer.offset() + writer.length();
        writer.appendHandshake(
            localId,
            !isClient,
            path.maxDatagramSizeBytes(),
            (int)(localMaxAckDelayNs / 1_000L),
            (int)(liveness.idleTimeoutNs() / 1_000_000L),
            receiveWindowBytes,
            receiveWindowBytes,
            handshake.retryToken(),
            0,
            handshake.retryTokenLength());
        if (ackFrequency.isEnabled())
        {
            // This side follows ACK_FREQUENCY frames (draft-ietf-quic-ack-frequency section 3); before the NOISE
            // frame, so its MAC covers it. An earlier build skips the frame by its length.
            writer.appendMinAckDelay((int)(ackTracker.minAckDelayNs() / 1_000L));
        }
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
                appendNoise(writer, secureSession, secureSession.firstMessage(ConnectionHandshake.transcript(
                    writer.buffer(), handshakeFrameOffset, namesController ? handle.congestionControl() : null)));
            }
            writer.appendPadding(writer.remaining());
            handshake.onHelloSent(nowNs);
        }
        else
        {
            if (null != secureSession)
            {
                appendNoise(writer, secureSession, secureSession.secondMessage(
                    ConnectionHandshake.transcript(writer.buffer(), handshakeFrameOffset, null)));
            }
            handshake.onAnswerSent(nowNs);
        }
        return writer.length();
    }

    private static void appendNoise(final PacketWriter writer, final SecureSession secureSession, final byte[] message)
    {
        final int macOffset = writer.appendNoise(
            secureSession.profile().wireId(), secureSession.aead().wireId(), message);
        secureSession.writeMac(writer.buffer(), writer.offset(), macOffset);
    }
}
