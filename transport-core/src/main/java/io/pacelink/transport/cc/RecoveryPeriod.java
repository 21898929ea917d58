package io.pacelink.transport.cc;

/**
 * The congestion recovery period of a loss-based window controller in the form RFC 9002 section 7.3.2 gives it
 * (reference section 3): a congestion event whose newest lost packet was sent after the current period began starts
 * a new period, which the controller answers with one window reduction; losses of packets sent before the period began
 * belong to the event already answered. The period ends when a packet sent after it began is acknowledged, so the
 * window is reduced at most once per round trip and does not grow while the losses are being repaired.
 * <p>
 * Shared by NewReno and CUBIC through {@link WindowController}. Primitive state only: no callback allocates.
 */
public final class RecoveryPeriod
{
    /**
     * Start time meaning "no period yet": every loss starts one (RFC 9002 Appendix B.8 uses 0 and resets to it on
     * persistent congestion).
     */
    private static final long NO_RECOVERY_NS = Long.MIN_VALUE;

    private long startTimeNs = NO_RECOVERY_NS;
    private boolean isInRecovery;

    /**
     * Start a new period if the event is not part of the current one.
     *
     * @param event the batch of losses.
     * @return true if a new period started now: the caller reduces its window once.
     */
    public boolean onCongestionEvent(final CongestionEvent event)
    {
        // RFC 9002 Appendix B.8 OnCongestionEvent: "No reaction if already in a recovery period", where a packet sent
        // at or before the period's start is in it.
        if (event.newestLostSentTimeNs() > startTimeNs)
        {
            startTimeNs = event.nowNs();
            isInRecovery = true;
            return true;
        }
        return false;
    }

    /**
     * Track the end of the period on an ACK frame.
     *
     * @param ack the processed ACK frame.
     * @return true if the window must not grow on this frame: the period is still running, or this frame ends it. The
     * frame that ends it may also acknowledge packets sent before the period began, which RFC 9002 Appendix B.5 does
     * not let grow the window; with only the frame's largest packet known, skipping the frame does not over-count.
     */
    public boolean onAck(final AckEvent ack)
    {
        if (!isInRecovery)
        {
            return false;
        }
        if (ack.largestAckedSentTimeNs() > startTimeNs)
        {
            isInRecovery = false;
        }
        return true;
    }

    /**
     * End the period but remember when it began, so the other losses of the same episode still do not reduce again
     * (used when a reduction is undone as spurious).
     */
    public void end()
    {
        isInRecovery = false;
    }

    /**
     * Forget the period: the next loss starts a new one (RFC 9002 Appendix B.8 on persistent congestion).
     */
    public void reset()
    {
        startTimeNs = NO_RECOVERY_NS;
        isInRecovery = false;
    }

    /**
     * @return true from a reduction until a packet sent after it is acknowledged.
     */
    public boolean isInRecovery()
    {
        return isInRecovery;
    }
}
