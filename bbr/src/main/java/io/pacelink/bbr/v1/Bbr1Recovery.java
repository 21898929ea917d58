package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.AckEvent;

/**
 * BBRv1's answer to loss recovery ({@code bbr_set_cwnd_to_recover_or_restore}, {@code bbr_save_cwnd}): packet
 * conservation in the first round of a recovery episode, the last known good cwnd saved on entry and restored on exit.
 * Episodes follow the transport's recovery period (RFC 9002 section 7.3.2), standing in for Linux's
 * {@code icsk_ca_state}. A QUIC recovery period ends before the loss detector has ruled on the packets sent just after
 * it began, so a new period whose lost packets were all sent before the previous one ended continues that episode
 * without a second packet-conservation round, as in Linux, whose Recovery lasts until {@code high_seq} is cumulatively
 * acknowledged and, under continuous loss, is left and re-entered within one ACK that {@code bbr_main} sees as
 * Recovery throughout.
 */
final class Bbr1Recovery
{
    private final Bbr1Model model;

    private long priorCwndBytes;
    private boolean isPacketConservation;
    private boolean isInRecovery;
    private boolean wasInRecovery;
    private boolean isRecoveryStartPending;
    private long recoveryEndNs = Long.MIN_VALUE;

    /**
     * @param model the estimators (packet conservation starts a round).
     */
    Bbr1Recovery(final Bbr1Model model)
    {
        this.model = model;
    }

    /**
     * Recovery ends when a packet sent after it started is acknowledged (RFC 9002 section 7.3.2), the QUIC analogue
     * of Linux's {@code snd_una >= high_seq}; Linux updates its CA state before calling {@code bbr_main}.
     */
    void onAck(final AckEvent ack)
    {
        if (isInRecovery && ack.endsRecovery())
        {
            isInRecovery = false;
            recoveryEndNs = ack.nowNs();
        }
    }

    /**
     * A loss batch that starts a recovery period (Linux {@code tcp_enter_recovery} → {@code bbr_ssthresh} →
     * {@code bbr_save_cwnd}).
     */
    void onRecoveryStart(final long newestLostSentTimeNs, final long congestionWindowBytes, final boolean isProbeRtt)
    {
        if (!isInRecovery)
        {
            isInRecovery = true;
            if (newestLostSentTimeNs <= recoveryEndNs)
            {
                // Every packet of this batch was sent before the previous recovery ended: the losses belong to that
                // episode, which QUIC's recovery period (ended by the first ACK of a packet sent after it began)
                // closed before the loss detector could rule on them. Linux's Recovery lasts until high_seq is
                // cumulatively acknowledged, by which time such losses are already marked, so under continuous
                // loss it leaves and re-enters Recovery within one ACK and bbr_main never sees the Open state:
                // no second packet-conservation round, and bbr_save_cwnd keeps the larger cwnd.
                priorCwndBytes = Math.max(priorCwndBytes, congestionWindowBytes);
            }
            else
            {
                saveCwnd(congestionWindowBytes, isProbeRtt);
                isRecoveryStartPending = true;
            }
        }
        else
        {
            // A packet sent during recovery was lost: a new recovery epoch (RFC 9002 section 7.3.2). This is Linux
            // leaving and re-entering Recovery within one ACK: bbr_ssthresh saves cwnd again (as the max, the
            // previous state being Recovery), and since bbr_main never saw the Open state in between there is
            // neither a restore nor a second packet-conservation round.
            saveCwnd(congestionWindowBytes, isProbeRtt);
        }
    }

    /**
     * Persistent congestion, Linux's RTO ({@code tcp_enter_loss}): cwnd saved, the episode starts in the "Loss" state,
     * so it gets no packet-conservation round.
     */
    void onPersistentCongestion(final long congestionWindowBytes, final boolean isProbeRtt)
    {
        saveCwnd(congestionWindowBytes, isProbeRtt);
        isInRecovery = true;
        wasInRecovery = true;
        isRecoveryStartPending = false;
        isPacketConservation = false;
    }

    /**
     * Undo: back to the Open state, so the next ACK restores the cwnd saved at recovery start.
     */
    void onSpuriousLoss()
    {
        isInRecovery = false;
        isRecoveryStartPending = false;
    }

    /**
     * A new round began: packet conservation lasts one round.
     */
    void onRoundStart()
    {
        isPacketConservation = false;
    }

    /**
     * {@code bbr_set_cwnd_to_recover_or_restore}: an ACK for P bytes releases at most 2P. Newly lost bytes come off
     * cwnd; the first round of recovery follows packet conservation; on leaving recovery the saved cwnd returns.
     *
     * @return the cwnd; {@link #isPacketConservation()} says whether packet conservation decided it.
     */
    long recoverOrRestore(final AckEvent ack, final long ackedBytes, final long congestionWindowBytes)
    {
        long cwnd = congestionWindowBytes;
        final long lostBytes = ack.newlyLostBytes();
        if (lostBytes > 0)
        {
            cwnd = Math.max(cwnd - lostBytes, model.maxDatagramSizeBytes());  // Linux floor: 1 packet
        }

        final long bytesInFlight = ack.bytesInFlight();
        if (isInRecovery && isRecoveryStartPending)
        {
            // First round of recovery: packet conservation, starting a round now; cut cwnd the application,
            // pacing or batching left unused.
            isPacketConservation = true;
            model.startRound();
            cwnd = bytesInFlight + ackedBytes;
        }
        else if (wasInRecovery && !isInRecovery)
        {
            cwnd = Math.max(cwnd, priorCwndBytes);
            isPacketConservation = false;
        }
        isRecoveryStartPending = false;
        wasInRecovery = isInRecovery;

        if (isPacketConservation)
        {
            return Math.max(cwnd, bytesInFlight + ackedBytes);
        }
        return cwnd;
    }

    /**
     * {@code bbr_save_cwnd}: remember the last known good cwnd, unless recovery or PROBE_RTT already cut it.
     */
    void saveCwnd(final long congestionWindowBytes, final boolean isProbeRtt)
    {
        if (!wasInRecovery && !isProbeRtt)
        {
            priorCwndBytes = congestionWindowBytes;
        }
        else
        {
            priorCwndBytes = Math.max(priorCwndBytes, congestionWindowBytes);
        }
    }

    boolean isInRecovery()
    {
        return isInRecovery;
    }

    boolean isPacketConservation()
    {
        return isPacketConservation;
    }

    long priorCwndBytes()
    {
        return priorCwndBytes;
    }
}
