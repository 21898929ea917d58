package io.pacelink.transport.recovery;

/**
 * The connection's congestion recovery period (RFC 9002 section 7.3.2), kept here once for the transport and every
 * controller, as quiche keeps {@code congestion_recovery_start_time} in its shared congestion state and Linux keeps
 * {@code icsk_ca_state} in the socket: a congestion event whose newest lost packet was sent after the current period
 * began starts a new period at the event's time; losses of packets sent at or before that time belong to the event
 * already answered. The period ends when a packet sent after it began is acknowledged. {@link LossRecovery} tells the
 * controller both through the events ({@code CongestionEvent.startsRecovery()}, {@code AckEvent.endsRecovery()}).
 * <p>
 * Persistent congestion always starts a new period: the losses of the packets sent before the collapse belong to it
 * (as in Linux's Loss state, which lasts until the data outstanding at the timeout is acknowledged), where RFC 9002
 * Appendix B.8 forgets the period instead and lets each of them reduce again. A spurious-loss undo does not end the
 * period: the controllers that undo leave their own reaction to it, and its start keeps the other losses of the same
 * episode from starting another.
 */
final class RecoveryPeriod
{
    /**
     * Start time meaning "no period yet": every congestion event starts one.
     */
    private static final long NO_RECOVERY_NS = Long.MIN_VALUE;

    private long startNs = NO_RECOVERY_NS;
    private boolean isInRecovery;
    private long recoveryCount;

    /**
     * @param newestLostSentTimeNs   send time of the most recently sent packet the event is about.
     * @param isPersistentCongestion true if the event establishes persistent congestion.
     * @param nowNs                  current time.
     * @return true if the event starts a new period: the controller answers it with one reduction.
     */
    boolean onCongestionEvent(final long newestLostSentTimeNs, final boolean isPersistentCongestion, final long nowNs)
    {
        if (isPersistentCongestion || newestLostSentTimeNs > startNs)
        {
            startNs = nowNs;
            isInRecovery = true;
            recoveryCount++;
            return true;
        }
        return false;
    }

    /**
     * @param largestAckedSentTimeNs send time of the largest packet an ACK frame newly acknowledged,
     *                               {@link Long#MIN_VALUE} if none.
     * @return true if the frame ends the period.
     */
    boolean onAck(final long largestAckedSentTimeNs)
    {
        if (isInRecovery && largestAckedSentTimeNs > startNs)
        {
            isInRecovery = false;
            return true;
        }
        return false;
    }

    /**
     * @return when the current (or last) period began, {@link Long#MIN_VALUE} before the first.
     */
    long startNs()
    {
        return startNs;
    }

    /**
     * @return true from a congestion event until a packet sent after it is acknowledged.
     */
    boolean isInRecovery()
    {
        return isInRecovery;
    }

    /**
     * @return periods started so far.
     */
    long recoveryCount()
    {
        return recoveryCount;
    }
}
