package io.pacelink.transport.engine;

import io.pacelink.transport.wire.PacketWriter;

/**
 * The sending side of draft-ietf-quic-ack-frequency: how often this side asks its peer to acknowledge. A peer that
 * announced a min ACK delay in its handshake accepts ACK_FREQUENCY frames; a peer that did not (an earlier build) is
 * never sent one and acknowledges as RFC 9000 section 13.2 says, every second packet or within its max ACK delay.
 * <p>
 * The policy is Chromium's ACK decimation ({@code quic/core/quic_received_packet_manager.cc}: one ACK per 10
 * ack-eliciting packets or per quarter of the min RTT, whichever comes first, the delay capped at 25 ms, QUIC's
 * default max_ack_delay): the peer is asked for a max ACK delay of a quarter of the min RTT, at least its handshake's
 * max ACK delay (so never more ACKs than without the extension) and at most {@link #MAX_REQUESTED_ACK_DELAY_NS}, and
 * an ack-eliciting threshold of {@link #REQUESTED_ACK_ELICITING_THRESHOLD}, with the reordering threshold of 1 that
 * keeps RFC 9000 section 13.2.1's immediate ACK of an out-of-order packet, so loss detection is as fast as before. The
 * receiver still thins within that (a quarter of its arrivals per delay, never before its first 100 packets, so slow
 * start is acknowledged every second packet). A new request goes when the quarter RTT moves by more than an eighth of
 * what was asked for; one is in flight at a time, and a lost one goes again at its newest value (section 4).
 * <p>
 * Loss recovery uses the larger of the delay in force and the one asked for until the peer acknowledged the frame,
 * then the one asked for (draft-ietf-quic-ack-frequency section 6.1: the probe timeout must allow for the peer's
 * delay, RFC 9002 section 6.2.1). A probe (RFC 9002 section 6.2.4) carries an IMMEDIATE_ACK while a delay longer
 * than the handshake's is in force, so a tail loss costs no more than before.
 * <p>
 * Agent thread only; no allocation.
 */
final class AckFrequencyRequests
{
    /**
     * The longest max ACK delay asked for: QUIC's default max_ack_delay (RFC 9000 section 18.2), Chromium's cap.
     */
    static final long MAX_REQUESTED_ACK_DELAY_NS = 25_000_000L;

    /**
     * Ack-eliciting packets the peer may receive before an ACK is due: 9, so one ACK per 10 packets (Chromium's
     * kMaxRetransmittablePacketsBeforeAck).
     */
    static final int REQUESTED_ACK_ELICITING_THRESHOLD = 9;

    /**
     * Out-of-order packets are acknowledged at once (RFC 9000 section 13.2.1).
     */
    static final int REQUESTED_REORDERING_THRESHOLD = 1;

    /**
     * The min RTT's share asked for as the max ACK delay.
     */
    private static final int MIN_RTT_FRACTION = 4;

    /**
     * A new request goes when the wanted delay moves by more than this fraction of the one asked for.
     */
    private static final int CHANGE_FRACTION = 8;

    private static final long NANOS_PER_MICRO = 1_000L;
    private static final long NOT_ANNOUNCED = -1;

    private final boolean isEnabled;
    private long peerMinAckDelayNs = NOT_ANNOUNCED;
    private long handshakeAckDelayNs;
    private long requestedAckDelayNs;
    private long inFlightAckDelayNs;
    private long recoveryAckDelayNs;
    private long nextSequenceNumber;
    private boolean isPending;
    private boolean isInFlight;
    private long framesSent;

    /**
     * @param isEnabled false never to ask the peer for an ACK frequency.
     */
    AckFrequencyRequests(final boolean isEnabled)
    {
        this.isEnabled = isEnabled;
    }

    /**
     * The peer's handshake: its max ACK delay, and its min ACK delay if it announced one.
     *
     * @param maxAckDelayNs     the peer's max ACK delay.
     * @param minAckDelayNs     the peer's min ACK delay, negative if it announced none.
     */
    void onPeerHandshake(final long maxAckDelayNs, final long minAckDelayNs)
    {
        handshakeAckDelayNs = maxAckDelayNs;
        requestedAckDelayNs = maxAckDelayNs;
        recoveryAckDelayNs = maxAckDelayNs;
        // draft-ietf-quic-ack-frequency section 3: a min above the max is an error there; here the peer simply is
        // not asked (it announced nothing usable), as if it had announced nothing.
        peerMinAckDelayNs = minAckDelayNs >= 0 && minAckDelayNs <= maxAckDelayNs ? minAckDelayNs : NOT_ANNOUNCED;
    }

    /**
     * @return true if this side offers the extension (announces its min ACK delay) and may use it.
     */
    boolean isEnabled()
    {
        return isEnabled;
    }

    /**
     * @return true if the peer accepts ACK_FREQUENCY frames and this side may send them.
     */
    boolean isNegotiated()
    {
        return isEnabled && NOT_ANNOUNCED != peerMinAckDelayNs;
    }

    /**
     * After each ACK: ask again if the quarter of the min RTT moved far from the delay asked for; ask nothing while
     * the congestion controller is in its initial slow start or STARTUP ({@code isControllerStartingUp}).
     * <p>
     * Why not in startup (draft-ietf-quic-ack-frequency, "Congestion Control": a sender that grows its window per
     * ACK needs them timely): slow start and STARTUP send what each ACK releases, so an ACK of 10 packets releases a
     * burst of 10 into a queue STARTUP keeps full. On a drop-tail queue of one BDP that burst's first packet — often a
     * retransmission — is dropped again, the hole it leaves holds the receiver's flow-control credit for another
     * round trip, and the sender ran out of credit: in the simulator (100 Mbit/s, 40 ms, seed 2) BBR sent nothing for
     * 80 ms of STARTUP, the queue emptied before the pipe was judged full, and DRAIN had nothing to drain; at 202 ms
     * BBR was flow-control limited for 2 s of its STARTUP (perf/FINDINGS.md, branch {@code ack8}). Once the search is
     * over the flight is paced at the estimated rate and a decimated ACK releases no burst the pacer would not space.
     *
     * @param minRttNs               the path's min RTT, 0 before the first sample.
     * @param isControllerStartingUp the controller's {@code isInStartup()}.
     */
    void refresh(final long minRttNs, final boolean isControllerStartingUp)
    {
        if (!isNegotiated() || minRttNs <= 0 || isInFlight || isControllerStartingUp)
        {
            return;
        }
        final long wantedNs = wantedAckDelayNs(minRttNs);
        if (Math.abs(wantedNs - requestedAckDelayNs) > requestedAckDelayNs / CHANGE_FRACTION)
        {
            requestedAckDelayNs = wantedNs;
            isPending = true;
        }
    }

    /**
     * @param minRttNs the path's min RTT.
     * @return the max ACK delay to ask for.
     */
    long wantedAckDelayNs(final long minRttNs)
    {
        final long floorNs = Math.max(handshakeAckDelayNs, peerMinAckDelayNs);
        return Math.max(floorNs, Math.min(MAX_REQUESTED_ACK_DELAY_NS, minRttNs / MIN_RTT_FRACTION));
    }

    /**
     * @return true if an ACK_FREQUENCY frame is to be sent.
     */
    boolean isPending()
    {
        return isPending;
    }

    /**
     * Append the ACK_FREQUENCY frame owed; from now on loss recovery must allow for the larger of the delays
     * ({@link #recoveryAckDelayNs()}).
     *
     * @return true if it fit; it is then in flight.
     */
    boolean write(final PacketWriter writer)
    {
        if (!isPending || !writer.appendAckFrequency(nextSequenceNumber, REQUESTED_ACK_ELICITING_THRESHOLD,
            (int)(requestedAckDelayNs / NANOS_PER_MICRO), REQUESTED_REORDERING_THRESHOLD))
        {
            return false;
        }
        nextSequenceNumber++;
        framesSent++;
        isPending = false;
        isInFlight = true;
        inFlightAckDelayNs = requestedAckDelayNs;
        recoveryAckDelayNs = Math.max(recoveryAckDelayNs, inFlightAckDelayNs);
        return true;
    }

    /**
     * The packet that carried the frame in flight was acknowledged: the peer follows it, and loss recovery allows for
     * exactly its delay ({@link #recoveryAckDelayNs()}).
     */
    void onAcked()
    {
        if (isInFlight)
        {
            isInFlight = false;
            recoveryAckDelayNs = inFlightAckDelayNs;
        }
    }

    /**
     * @return the peer's max ACK delay loss recovery must allow for (RFC 9002 sections 5.3 and 6.2.1): the handshake's,
     * the larger of it and the one asked for while that request is unacknowledged, then the one asked for.
     */
    long recoveryAckDelayNs()
    {
        return recoveryAckDelayNs;
    }

    /**
     * The packet that carried the frame in flight was lost: send the newest request again.
     */
    void onLost()
    {
        if (isInFlight)
        {
            isInFlight = false;
            isPending = true;
        }
    }

    /**
     * @return true if the peer may be delaying its ACKs longer than its handshake said: a probe then asks for an
     * immediate one.
     */
    boolean isDelayExtended()
    {
        return isNegotiated() && (isInFlight || requestedAckDelayNs > handshakeAckDelayNs);
    }

    /**
     * @return ACK_FREQUENCY frames sent.
     */
    long framesSent()
    {
        return framesSent;
    }

    /**
     * @return the max ACK delay asked for last (the handshake's before any request).
     */
    long requestedAckDelayNs()
    {
        return requestedAckDelayNs;
    }
}
