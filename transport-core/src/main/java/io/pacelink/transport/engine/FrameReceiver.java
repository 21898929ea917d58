package io.pacelink.transport.engine;

import io.pacelink.transport.CloseReason;
import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.recovery.PacketOutcomeListener;
import io.pacelink.transport.recovery.RttEstimator;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.EndpointCounters;
import io.pacelink.transport.stats.SecurityCounters;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.stream.SendLog;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.AckFrequencyFrameFlyweight;
import io.pacelink.transport.wire.DataFrameFlyweight;
import io.pacelink.transport.wire.EcnCodepoint;
import io.pacelink.transport.wire.FrameType;
import io.pacelink.transport.wire.MaxStreamDataFrameFlyweight;
import io.pacelink.transport.wire.NewTokenFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.net.InetSocketAddress;

/**
 * Applies one connection's validated ONE_RTT and CLOSE packets, frame by frame in wire order — ACKs to loss recovery,
 * data to the receive log, credit to the send log, receipts, the peer's CLOSE — and then records the packet for
 * acknowledgement; and hears from loss recovery what became of each packet sent (acknowledged: its range is freed;
 * lost: its range and its control frames go out again). A peer that breaks the protocol is told why and the
 * connection closes.
 */
final class FrameReceiver implements PacketOutcomeListener
{
    /**
     * No ACK frame waits to be applied.
     */
    static final int NO_PARKED_ACK = 0;

    /**
     * An ACK frame was parked by the duty cycle that is running: it waits for the answer's send.
     */
    static final int ACK_PARKED_THIS_CYCLE = 1;

    /**
     * An ACK frame was parked by an earlier duty cycle: it is applied at this connection's next service.
     */
    static final int ACK_PARKED = 2;

    private final SendLog sendLog;
    private final ReceiveLog receiveLog;
    private final ReceivedPacketTracker ackTracker;
    private final LossRecovery lossRecovery;
    private final DeliveryReceipts receipts;
    private final ConnectionLifecycle lifecycle;
    private final ControlFrames controlFrames;
    private final Liveness liveness;
    private final ConnectionPublisher publisher;
    private final ConnectionCounters counters;
    private final EndpointCounters endpointCounters;
    private final SecurityCounters securityCounters;
    /**
     * Made at the first ACK frame received: a server's half-open connections — a flood's hellos that never confirm —
     * receive none and made ~2 KB each for nothing (perf/FINDINGS.md, "The server's first seconds under a flood").
     */
    private AckFrameRanges ackRanges;
    private final ProgressWatch progressWatch;
    private final AckFrequencyRequests ackFrequency;
    private final ServerTokens serverTokens;
    private final InetSocketAddress remoteAddress;
    private boolean isPacketDropped;
    private boolean isImmediateAckAsked;
    private boolean isProgress;
    private boolean hasPathResponse;
    private long pathResponseData;
    private boolean isRequest;
    private int parkedAck = NO_PARKED_ACK;
    private long parkedAckDelayNs;
    private long parkedArrivalNs;
    private long parkedNowNs;
    private boolean hasAckedRun;
    private boolean isAckedRunFin;
    private long ackedRunFromPosition;
    private long ackedRunToPosition;

    FrameReceiver(
        final ConnectionHandle handle,
        final ReceivedPacketTracker ackTracker,
        final LossRecovery lossRecovery,
        final DeliveryReceipts receipts,
        final ConnectionLifecycle lifecycle,
        final ControlFrames controlFrames,
        final Liveness liveness,
        final ConnectionPublisher publisher,
        final EndpointCounters endpointCounters,
        final SecurityCounters securityCounters,
        final ProgressWatch progressWatch,
        final AckFrequencyRequests ackFrequency,
        final ServerTokens serverTokens)
    {
        this.progressWatch = progressWatch;
        this.serverTokens = serverTokens;
        this.remoteAddress = handle.remoteAddress();
        this.ackFrequency = ackFrequency;
        this.sendLog = handle.sendLog();
        this.receiveLog = handle.receiveLog();
        this.counters = handle.counters();
        this.ackTracker = ackTracker;
        this.lossRecovery = lossRecovery;
        this.receipts = receipts;
        this.lifecycle = lifecycle;
        this.controlFrames = controlFrames;
        this.liveness = liveness;
        this.publisher = publisher;
        this.endpointCounters = endpointCounters;
        this.securityCounters = securityCounters;
    }

    /**
     * Apply a validated ONE_RTT or CLOSE packet: its frames in wire order, then record it for acknowledgement — unless
     * the memory budget made it drop the packet, which the peer then sends again.
     *
     * @param decoder      the decoder that validated it.
     * @param buffer       holding the datagram.
     * @param offset       of the datagram in the buffer.
     * @param length       of the datagram.
     * @param ecnCodepoint the ECN field it arrived with, counted for the ACK frames (RFC 9000 section 13.4.1).
     * @param arrivalNs    when the datagram arrived (the kernel's receive time where the port reads it), no later than
     *                     {@code nowNs}: the arrival of an ACK it carries, which times the delivery-rate sample, and
     *                     the packet's receipt, which the ACK Delay this side reports for it is measured from.
     * @param nowNs        when it was received.
     */
    void onPacket(
        final PacketDecoder decoder,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int ecnCodepoint,
        final long arrivalNs,
        final long nowNs)
    {
        liveness.onPacket(nowNs);
        isPacketDropped = false;
        isImmediateAckAsked = false;
        isProgress = false;
        hasPathResponse = false;
        isRequest = decoder.carriesData();
        final long sendLimitBefore = sendLog.sendLimit();
        final long peerConsumedBefore = receipts.peerConsumedPosition();
        for (int frameType = decoder.firstFrame(buffer, offset, length);
            PacketDecoder.NO_MORE_FRAMES != frameType && !lifecycle.isClosing() && !isPacketDropped;
            frameType = decoder.nextFrame())
        {
            switch (frameType)
            {
                case FrameType.ACK:
                    onAck(decoder.ack(), arrivalNs, nowNs);
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
                    lifecycle.onPeerClose(decoder.close(), nowNs);
                    break;

                case FrameType.PATH_CHALLENGE:
                    controlFrames.onPathChallenge(decoder.path().pathData());
                    break;

                case FrameType.PATH_RESPONSE:
                    hasPathResponse = true;
                    pathResponseData = decoder.path().pathData();
                    break;

                case FrameType.ACK_FREQUENCY:
                    onAckFrequency(decoder.ackFrequency());
                    break;

                case FrameType.IMMEDIATE_ACK:
                    onImmediateAck();
                    break;

                case FrameType.NEW_TOKEN:
                    onNewToken(decoder.newToken());
                    break;

                default:
                    // PING and frame types this version does not know: they only elicit an acknowledgement.
                    break;
            }
        }
        if (!isPacketDropped)
        {
            if (ackTracker.onPacketReceived(
                decoder.packetNumber(), decoder.isAckEliciting(), ecnCodepoint, arrivalNs, nowNs) &&
                EcnCodepoint.CE == ecnCodepoint)
            {
                counters.set(ConnectionCounters.ECN_CE_RECEIVED, ackTracker.ceReceived());
            }
            if (isImmediateAckAsked)
            {
                ackTracker.ackNow(nowNs);
            }
            watchProgress(sendLimitBefore, peerConsumedBefore, nowNs);
        }
    }

    /**
     * @return true if the last packet carried a PATH_RESPONSE ({@link #pathResponseData()}).
     */
    boolean hasPathResponse()
    {
        return hasPathResponse;
    }

    /**
     * @return the bytes of the last packet's PATH_RESPONSE.
     */
    long pathResponseData()
    {
        return pathResponseData;
    }

    /**
     * Liveness by progress ({@link ProgressWatch}): new data, new credit, a new receipt or a new acknowledgement of
     * this side's packets is progress; a packet with none counts towards the bound, unless this side holds the peer
     * back by flow control (its application does not read), where the peer cannot make progress.
     */
    private void watchProgress(final long sendLimitBefore, final long peerConsumedBefore, final long nowNs)
    {
        if (lifecycle.isClosing())
        {
            return;
        }
        // New credit is progress only where this side has data waiting for it: credit nobody needs, raised a byte at
        // a time, must not keep a connection open.
        final boolean isNeededCredit =
            sendLog.sendLimit() > sendLimitBefore && sendLog.tailPosition() > sendLimitBefore;
        if (isProgress || isNeededCredit || receipts.peerConsumedPosition() != peerConsumedBefore)
        {
            progressWatch.onProgress(nowNs);
        }
        else if (progressWatch.onPacketWithoutProgress(nowNs, liveness.idleTimeoutNs()) &&
            !controlFrames.isPeerBlockedByCredit())
        {
            securityCounters.noProgressCloses().incrementRelease();
            lifecycle.closeReasonText(CloseReasonTexts.NO_PROGRESS);
            lifecycle.abortWithClose(ConnectionLifecycle.ABORTED_ERROR, CloseReason.NO_PROGRESS);
        }
    }

    /**
     * An ACK frame: checked at once (an acknowledgement of a packet never sent, or malformed ranges, close the
     * connection now) and applied to loss recovery now — or parked until this connection's answer has been sent
     * ({@link #applyParkedAck}), when three things hold: the packet carries application data (a request its
     * application may answer at once: a ping, an RPC), this side has stream data in flight (the frame may acknowledge
     * the last answer), and one more datagram fits in the window (the next packet does not wait for what the frame
     * frees). A bulk sender's ACKs (ACK-only packets) and a bulk receiver's (it sends no stream data) are applied as
     * they arrive. The answer then leaves without the recovery work of the frame its request carried — loss recovery,
     * the controller, the ACK frequency, the counters: the largest Java item between a ping's arrival and its answer
     * (perf/FINDINGS.md, branches lat14 and lat17) — and that work runs with the times the frame arrived and was read,
     * so its RTT sample is the one it would have given at once. A parked frame is applied before any later one, and
     * before this connection's timers fire.
     */
    private void onAck(final AckFrameFlyweight ack, final long arrivalNs, final long nowNs)
    {
        applyParkedAck();
        if (null == ackRanges)
        {
            ackRanges = new AckFrameRanges();
        }
        ackRanges.wrap(ack);
        final long ackDelayNs = ack.ackDelayUs() * 1_000L;
        if (isRequest && sendLog.ackedHead() < sendLog.nextSendPosition() && lossRecovery.hasWindowRoom())
        {
            final int validation = lossRecovery.validateAck(ackRanges);
            if (validation < 0)
            {
                onAckRefused(validation);
                return;
            }
            // A new acknowledgement is progress now (ProgressWatch), as it would be once applied.
            isProgress |= ackRanges.largestAcked() > lossRecovery.largestAckedPacketNumber();
            parkedAck = ACK_PARKED_THIS_CYCLE;
            parkedAckDelayNs = ackDelayNs;
            parkedArrivalNs = arrivalNs;
            parkedNowNs = nowNs;
            return;
        }
        applyAck(ackDelayNs, arrivalNs, nowNs);
    }

    /**
     * @return {@link #NO_PARKED_ACK}, {@link #ACK_PARKED_THIS_CYCLE} or {@link #ACK_PARKED}.
     */
    int parkedAck()
    {
        return parkedAck;
    }

    /**
     * The duty cycle that parked an ACK frame ends: the frame is now an earlier cycle's.
     *
     * @return true if an ACK frame is parked.
     */
    boolean ageParkedAck()
    {
        if (ACK_PARKED_THIS_CYCLE == parkedAck)
        {
            parkedAck = ACK_PARKED;
        }
        return NO_PARKED_ACK != parkedAck;
    }

    /**
     * Apply the parked ACK frame, if any, with the times it arrived and was read.
     */
    void applyParkedAck()
    {
        if (NO_PARKED_ACK != parkedAck)
        {
            parkedAck = NO_PARKED_ACK;
            applyAck(parkedAckDelayNs, parkedArrivalNs, parkedNowNs);
        }
    }

    /**
     * Drop a parked ACK frame: the connection is gone, nothing will use it.
     */
    void dropParkedAck()
    {
        parkedAck = NO_PARKED_ACK;
    }

    private void applyAck(final long ackDelayNs, final long arrivalNs, final long nowNs)
    {
        final long rejectedRttSamples = lossRecovery.rejectedRttSamples();
        final long result = lossRecovery.onAckReceived(ackRanges, ackDelayNs, arrivalNs, nowNs, this);
        releaseAckedRun();
        if (result < 0)
        {
            onAckRefused(result);
            return;
        }
        if (lossRecovery.rejectedRttSamples() != rejectedRttSamples)
        {
            securityCounters.rttSamplesRejected().incrementRelease();
        }
        final RttEstimator rtt = lossRecovery.rttEstimator();
        ackFrequency.refresh(rtt.hasSample() ? rtt.minRttNs() : 0, lossRecovery.controller().isInStartup());
        publisher.publishRecovery();
    }

    private void onAckRefused(final long result)
    {
        if (LossRecovery.ERROR_ACK_OF_UNSENT_PACKET == result)
        {
            // An ACK for a packet we never sent: an optimistic-ACK attack or a broken peer (RFC 9000 section 21.4).
            protocolViolation(securityCounters.acksOfSkippedPackets(), CloseReasonTexts.ACK_OF_UNSENT_PACKET);
            return;
        }
        protocolViolation(null, CloseReasonTexts.MALFORMED_ACK);
    }

    /**
     * The peer asks how often to acknowledge (draft-ietf-quic-ack-frequency section 4): follow the newest frame,
     * ignore and count an older one, and close on a delay below the min ACK delay this side announced (or one this
     * side never announced: an endpoint that did not offer the extension must not receive its frames).
     */
    /**
     * A NEW_TOKEN frame: a client keeps the token for its next connection to this server (RFC 9000 section 19.7); a
     * server receiving one has a broken or hostile client (section 19.7: a PROTOCOL_VIOLATION).
     */
    private void onNewToken(final NewTokenFrameFlyweight frame)
    {
        if (null == serverTokens)
        {
            protocolViolation(null, CloseReasonTexts.NEW_TOKEN_FROM_CLIENT);
            return;
        }
        serverTokens.store(remoteAddress, frame.buffer(), frame.tokenOffset(), frame.tokenLength());
    }

    private void onAckFrequency(final AckFrequencyFrameFlyweight frame)
    {
        if (!ackFrequency.isEnabled())
        {
            protocolViolation(null, CloseReasonTexts.ACK_FREQUENCY_NOT_OFFERED);
            return;
        }
        final int result = ackTracker.applyAckFrequency(frame.sequenceNumber(), frame.ackElicitingThreshold(),
            frame.requestedMaxAckDelayUs() * 1_000L, frame.reorderingThreshold());
        if (ReceivedPacketTracker.ACK_FREQUENCY_STALE == result)
        {
            counters.increment(ConnectionCounters.ACK_FREQUENCY_IGNORED);
        }
        else if (ReceivedPacketTracker.ACK_FREQUENCY_INVALID_DELAY == result)
        {
            protocolViolation(null, CloseReasonTexts.ACK_FREQUENCY_DELAY);
        }
    }

    private void onImmediateAck()
    {
        if (!ackFrequency.isEnabled())
        {
            protocolViolation(null, CloseReasonTexts.ACK_FREQUENCY_NOT_OFFERED);
            return;
        }
        isImmediateAckAsked = true;
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
        counters.add(ConnectionCounters.STREAM_BYTES_RECEIVED, newBytes);
        isProgress |= newBytes > 0;
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
        if (ConnectionCore.STREAM_ID == maxStreamData.streamId())
        {
            sendLog.streamSendLimit(maxStreamData.maximumStreamData());
        }
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
        if (lifecycle.isClosing())
        {
            return;
        }
        endpointCounters.protocolViolations().incrementRelease();
        if (null != cause)
        {
            cause.incrementRelease();
        }
        lifecycle.closeReasonText(reason);
        lifecycle.abortWithClose(ConnectionLifecycle.PROTOCOL_VIOLATION_ERROR, CloseReason.PROTOCOL_VIOLATION);
    }

    // ---------------------------------------------------------------- what became of the packets sent

    public void onPacketAcked(
        final long packetNumber,
        final long streamOffset,
        final int streamLength,
        final boolean fin,
        final int frameFlags)
    {
        isProgress = true;
        if (streamLength > 0 || fin)
        {
            onStreamRangeAcked(streamOffset, streamOffset + streamLength, fin);
        }
        if (0 != (frameFlags & FrameFlags.ACK))
        {
            // The peer has seen the ACK frame this packet carried: stop acknowledging what it covered, so the gaps of
            // its skipped packet numbers do not stay in every ACK (RFC 9000 section 13.2.4).
            ackTracker.onAckFrameAcknowledged(lossRecovery.ackFrameLargestAcked(packetNumber));
        }
        if (0 != (frameFlags & FrameFlags.ACK_FREQUENCY))
        {
            ackFrequency.onAcked();
            lossRecovery.peerMaxAckDelayNs(ackFrequency.recoveryAckDelayNs());
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

    /**
     * One packet's acknowledged stream range: joined to the run of ranges this ACK frame acknowledged so far when it
     * touches it, else the run goes to the send log and this range starts the next. Loss recovery reports a frame's
     * packets from the newest down, so a bulk sender's ~30 packets per ACK are one run, which the send log releases
     * with one update instead of one per packet through its range set (perf/FINDINGS.md, branch bulk23). The run
     * reaches the send log before the first loss the frame declares ({@link #onPacketLost}) and when loss recovery
     * returns ({@link #applyAck}): nothing reads the send log in between.
     */
    private void onStreamRangeAcked(final long fromPosition, final long toPosition, final boolean fin)
    {
        if (hasAckedRun && toPosition == ackedRunFromPosition)
        {
            ackedRunFromPosition = fromPosition;
            isAckedRunFin |= fin;
            return;
        }
        if (hasAckedRun && fromPosition == ackedRunToPosition)
        {
            ackedRunToPosition = toPosition;
            isAckedRunFin |= fin;
            return;
        }
        releaseAckedRun();
        hasAckedRun = true;
        ackedRunFromPosition = fromPosition;
        ackedRunToPosition = toPosition;
        isAckedRunFin = fin;
    }

    /**
     * Hand the run of acknowledged ranges, if any, to the send log.
     */
    private void releaseAckedRun()
    {
        if (hasAckedRun)
        {
            hasAckedRun = false;
            sendLog.onPositionsAcked(ackedRunFromPosition, ackedRunToPosition, isAckedRunFin);
        }
    }

    public void onPacketLost(
        final long packetNumber,
        final long streamOffset,
        final int streamLength,
        final boolean fin,
        final int frameFlags)
    {
        // The frame's acknowledged ranges reach the send log before any loss it declares, as one call per packet did.
        releaseAckedRun();
        if (streamLength > 0 || fin)
        {
            sendLog.onRangeLost(streamOffset, streamLength, fin);
        }
        if (0 != (frameFlags & FrameFlags.MAX_DATA))
        {
            controlFrames.onCreditLost();
        }
        if (0 != (frameFlags & FrameFlags.CONSUMED))
        {
            receipts.onLost();
        }
        if (0 != (frameFlags & FrameFlags.ACK_FREQUENCY))
        {
            ackFrequency.onLost();
        }
        if (0 != (frameFlags & FrameFlags.NEW_TOKEN))
        {
            controlFrames.onNewTokenLost();
        }
    }
}
