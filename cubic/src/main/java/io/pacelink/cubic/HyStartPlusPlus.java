package io.pacelink.cubic;

/**
 * HyStart++ (RFC 9406): leaves the initial slow start when the minimum RTT of a round rises by more than
 * {@code clamp(lastRoundMinRtt / 8, 4 ms, 16 ms)} over the previous round, spends up to {@value #CSS_ROUNDS} rounds in
 * Conservative Slow Start growing at a quarter of the slow-start rate, and returns to slow start if the RTT falls back
 * below the baseline that triggered the exit.
 * <p>
 * Rounds are delimited by packet number ({@link PacketNumberRounds}, RFC 9406 section 4.2): the RTT samples of a round
 * are those of the packets sent during the round before. {@code L} is infinite because the sender paces (RFC 9406
 * section 4.3).
 */
final class HyStartPlusPlus implements HyStart
{
    /**
     * RFC 9406 section 4.3 MIN_RTT_THRESH.
     */
    static final long MIN_RTT_THRESH_NS = 4_000_000L;

    /**
     * RFC 9406 section 4.3 MAX_RTT_THRESH.
     */
    static final long MAX_RTT_THRESH_NS = 16_000_000L;

    /**
     * RFC 9406 section 4.3 MIN_RTT_DIVISOR.
     */
    static final int MIN_RTT_DIVISOR = 8;

    /**
     * RFC 9406 section 4.3 N_RTT_SAMPLE: RTT samples a round needs before it is judged.
     */
    static final int N_RTT_SAMPLE = 8;

    /**
     * RFC 9406 section 4.3 CSS_GROWTH_DIVISOR.
     */
    static final int CSS_GROWTH_DIVISOR = 4;

    /**
     * RFC 9406 section 4.3 CSS_ROUNDS.
     */
    static final int CSS_ROUNDS = 5;

    private static final long NO_RTT = Long.MAX_VALUE;

    /**
     * Where HyStart++ stands.
     */
    enum Phase
    {
        /**
         * Standard slow start, watching the RTT.
         */
        SLOW_START,

        /**
         * Conservative Slow Start after an RTT increase.
         */
        CONSERVATIVE_SLOW_START,

        /**
         * Finished: disabled, ended by a congestion event, or left CSS for congestion avoidance.
         */
        DONE
    }

    private final PacketNumberRounds rounds = new PacketNumberRounds();
    private Phase phase;
    private Phase phaseBeforeStop;
    private long lastRoundMinRttNs = NO_RTT;
    private long currentRoundMinRttNs = NO_RTT;
    private long cssBaselineMinRttNs = NO_RTT;
    private int rttSampleCount;
    private int cssRoundCount;

    /**
     * @param isEnabled false to make the initial slow start a standard one.
     */
    HyStartPlusPlus(final boolean isEnabled)
    {
        phase = isEnabled ? Phase.SLOW_START : Phase.DONE;
        phaseBeforeStop = phase;
    }

    public void onPacketSent(final long packetNumber)
    {
        rounds.onPacketSent(packetNumber);
    }

    public boolean onAck(
        final long nowNs,
        final long largestAckedPacketNumber,
        final long latestRttNs,
        final boolean isInSlowStart,
        final long congestionWindowPackets,
        final long pacingRateBytesPerSecond)
    {
        return onAck(largestAckedPacketNumber, latestRttNs);
    }

    public void onCongestionEvent()
    {
        stop();
    }

    public void onCongestionEventUndone()
    {
        undoStop();
    }

    /**
     * HyStart++ applies to the initial slow start only; the slow start after persistent congestion ends at ssthresh.
     */
    public void onPersistentCongestion()
    {
        stop();
    }

    /**
     * Track rounds and RTT for one ACK frame received in slow start (RFC 9406 section 4.2).
     *
     * @param largestAckedPacketNumber number of the largest newly acknowledged packet, negative if none.
     * @param latestRttNs              the frame's RTT sample, negative if none.
     * @return true if CSS has just completed its rounds: the caller enters congestion avoidance with ssthresh = cwnd.
     */
    boolean onAck(final long largestAckedPacketNumber, final long latestRttNs)
    {
        if (Phase.DONE == phase)
        {
            return false;
        }

        if (rounds.onAck(largestAckedPacketNumber))
        {
            // "If the transition into CSS happens in the middle of a round, that partial round counts towards the
            // limit" (RFC 9406 section 4.2), so every round end seen in CSS counts.
            if (Phase.CONSERVATIVE_SLOW_START == phase && ++cssRoundCount >= CSS_ROUNDS)
            {
                phase = Phase.DONE;
                return true;
            }
            startRound();
        }

        if (latestRttNs > 0)
        {
            currentRoundMinRttNs = Math.min(currentRoundMinRttNs, latestRttNs);
            rttSampleCount++;
        }

        if (rttSampleCount >= N_RTT_SAMPLE)
        {
            if (Phase.SLOW_START == phase)
            {
                if (NO_RTT != currentRoundMinRttNs && NO_RTT != lastRoundMinRttNs)
                {
                    final long thresholdNs = Math.max(
                        MIN_RTT_THRESH_NS, Math.min(lastRoundMinRttNs / MIN_RTT_DIVISOR, MAX_RTT_THRESH_NS));
                    if (currentRoundMinRttNs >= lastRoundMinRttNs + thresholdNs)
                    {
                        cssBaselineMinRttNs = currentRoundMinRttNs;
                        cssRoundCount = 0;
                        phase = Phase.CONSERVATIVE_SLOW_START;
                    }
                }
            }
            else if (currentRoundMinRttNs < cssBaselineMinRttNs)
            {
                // The RTT fell back: the exit was spurious, resume slow start.
                cssBaselineMinRttNs = NO_RTT;
                phase = Phase.SLOW_START;
            }
        }
        return false;
    }

    /**
     * A congestion event ends HyStart++ (RFC 9406 section 4.2: the congestion controller takes over).
     */
    void stop()
    {
        phaseBeforeStop = phase;
        phase = Phase.DONE;
    }

    /**
     * The congestion event that stopped HyStart++ was spurious: carry on where it stopped.
     */
    void undoStop()
    {
        phase = phaseBeforeStop;
    }

    /**
     * @return the current phase.
     */
    Phase phase()
    {
        return phase;
    }

    public boolean isInConservativeSlowStart()
    {
        return Phase.CONSERVATIVE_SLOW_START == phase;
    }

    private void startRound()
    {
        lastRoundMinRttNs = currentRoundMinRttNs;
        currentRoundMinRttNs = NO_RTT;
        rttSampleCount = 0;
    }
}
