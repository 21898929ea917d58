package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.AckEvent;

/**
 * BBRv3's ECN signals as Linux BBRv3 reads them ({@code tcp_bbr.c}; BBRv2 alpha's {@code tcp_bbr2.c} has the same
 * rules), not the draft, which only says CE counts as congestion: once the path is ECN-capable
 * ({@link AckEvent#isEcnCapable()}) and min_rtt at most {@code ecnMaxRttUs}, the CE-marked fraction of each round's
 * delivered data feeds an EWMA, alpha ({@code bbr_update_ecn_alpha}); a rate sample marked above {@code ecnThreshold}
 * has inflight too high ({@code bbr_is_inflight_too_high}); a round with marks cuts inflight_shortterm to
 * {@code 1 - ecnFactor * alpha} of itself ({@code bbr_ecn_lower_bounds}); a ProbeBW cycle with marks but no loss
 * re-probes with a head start ({@code bbr_ecn_reprobe_gain}). The model, Startup and ProbeBW act on what this part
 * answers. Marks never open a loss recovery.
 */
final class Bbr3Ecn
{
    private final Bbr3Parameters config;

    private boolean isEcnCapable;
    private boolean isEligible;
    private double alpha;
    private long alphaLastDeliveredBytes;
    private long alphaLastDeliveredCeBytes;
    private long totalDeliveredCeBytes;

    // The ACK being processed: whether it reported new marks, and the CE-marked bytes of its rate sample.
    private boolean rsIsEce;
    private long rsDeliveredCeBytes;

    // Linux ecn_in_round and ecn_in_cycle.
    private boolean isEcnInRound;
    private boolean isEcnInCycle;

    Bbr3Ecn(final Bbr3Parameters config)
    {
        this.config = config;
        this.alpha = config.ecnAlphaInit;
    }

    /**
     * @param ack the ACK being processed.
     */
    void read(final AckEvent ack)
    {
        isEcnCapable = ack.isEcnCapable();
        totalDeliveredCeBytes = ack.totalDeliveredCeBytes();
        rsIsEce = ack.newlyEcnCePackets() > 0;
        rsDeliveredCeBytes = ack.hasRateSample() ? ack.sampleDeliveredCeBytes() : 0;
    }

    /**
     * Linux {@code bbr_update_ecn_alpha}, at each packet-timed round start: eligible once the path carries marks and
     * min_rtt says a shallow-threshold queue is likely (a LAN or data-centre path); then, per round,
     * {@code alpha = (1 - g) alpha + g (CE / delivered)}.
     *
     * @param deliveredBytes the connection's delivered bytes now (C.delivered).
     * @param minRttNs       the min_rtt estimate.
     * @return the round's CE-marked fraction, 0 to 1, if alpha was updated; else -1.
     */
    double updateAlpha(final long deliveredBytes, final long minRttNs)
    {
        if (!isEligible && config.ecn && isEcnCapable && config.ecnFactor > 0 &&
            (0 == config.ecnMaxRttNs || minRttNs <= config.ecnMaxRttNs))
        {
            isEligible = true;
        }
        if (!isEligible)
        {
            return -1;
        }
        final long deliveredInRoundBytes = deliveredBytes - alphaLastDeliveredBytes;
        final long deliveredCeInRoundBytes = totalDeliveredCeBytes - alphaLastDeliveredCeBytes;
        if (deliveredInRoundBytes <= 0 || deliveredCeInRoundBytes < 0)
        {
            return -1;
        }
        final double ceRatio = Math.min(1.0, deliveredCeInRoundBytes / (double)deliveredInRoundBytes);
        alpha = Math.min(1.0, (1.0 - config.ecnAlphaGain) * alpha + config.ecnAlphaGain * ceRatio);
        alphaLastDeliveredBytes = deliveredBytes;
        alphaLastDeliveredCeBytes = totalDeliveredCeBytes;
        return ceRatio;
    }

    /**
     * Every ACK: an eligible ACK with new marks puts marks in the current round.
     */
    void noteAck()
    {
        isEcnInRound |= isEligible && rsIsEce;
    }

    /**
     * A loss round ended: its lower bounds were adapted.
     */
    void endRound()
    {
        isEcnInRound = false;
    }

    /**
     * Linux {@code bbr_main}, at its end: a sample with marks puts marks in the ProbeBW cycle.
     */
    void endAck()
    {
        isEcnInCycle |= rsDeliveredCeBytes > 0;
    }

    /**
     * Linux {@code bbr_reset_congestion_signals}, the ECN half.
     */
    void resetSignals()
    {
        isEcnInRound = false;
        isEcnInCycle = false;
    }

    /**
     * Linux {@code bbr_ecn_lower_bounds}: on a round with marks, the short-term inflight bound alpha calls for.
     *
     * @param inflightShorttermBytes the short-term bound now (already set from cwnd if it was unset).
     * @return the bound the marks allow.
     */
    long lowerInflightShorttermBytes(final long inflightShorttermBytes)
    {
        return (long)(inflightShorttermBytes * (1.0 - alpha * config.ecnFactor));
    }

    /**
     * @return true if the current round carried marks and a cut is configured.
     */
    boolean isCuttingThisRound()
    {
        return isEcnInRound && config.ecnFactor > 0;
    }

    /**
     * Linux {@code bbr_is_inflight_too_high}, ECN half: more than {@code ecnThreshold} of the sample's delivered data
     * was marked.
     *
     * @param sampleDeliveredBytes the rate sample's delivered bytes.
     * @return true if the sample's inflight was too high by its marks.
     */
    boolean isTooHigh(final long sampleDeliveredBytes)
    {
        return isEligible && rsDeliveredCeBytes > 0 && sampleDeliveredBytes > 0 &&
            rsDeliveredCeBytes > sampleDeliveredBytes * config.ecnThreshold;
    }

    /**
     * Linux {@code bbr_check_time_to_probe_bw}: marks but no loss in this cycle, and not in recovery, mean an
     * operating point at the marking threshold; re-probe at once.
     *
     * @param isLossInCycle whether the cycle saw a loss.
     * @param isInRecovery  whether the connection is in loss recovery.
     * @return true if it is time for the quick re-probe.
     */
    boolean isReprobeDue(final boolean isLossInCycle, final boolean isInRecovery)
    {
        return config.ecnReprobeGain > 0 && isEligible && isEcnInCycle && !isLossInCycle && !isInRecovery;
    }

    /**
     * The quick re-probe raises inflight_longterm by {@code ecnReprobeGain} of itself in its first round: UP starts at
     * the probe round whose growth, 2^rounds packets, is that head start (Linux: bw_probe_up_rounds = its log2).
     *
     * @param inflightLongtermBytes the long-term bound now.
     * @param smssBytes             the maximum datagram size.
     * @param maxProbeUpRounds      the largest probe round.
     * @return the probe round to start UP at.
     */
    int reprobeUpRounds(final long inflightLongtermBytes, final int smssBytes, final int maxProbeUpRounds)
    {
        final double reprobePackets = Math.min((double)inflightLongtermBytes / smssBytes * config.ecnReprobeGain,
            (double)(1L << maxProbeUpRounds));
        return reprobePackets < 1.0 ? 0 : 63 - Long.numberOfLeadingZeros((long)reprobePackets);
    }

    /**
     * @return true once ECN is in use (Linux {@code ecn_eligible}).
     */
    boolean isEligible()
    {
        return isEligible;
    }

    /**
     * @return the EWMA of the CE-marked fraction, 0 to 1.
     */
    double alpha()
    {
        return alpha;
    }
}
