package io.pacelink.bbr.v1;

import io.pacelink.bbr.BbrConstants;
import io.pacelink.bbr.BbrMath;
import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.RttStats;

/**
 * What BBRv1 tells the transport: the pacing rate and send quantum ({@code bbr_set_pacing_rate}) and the cwnd
 * ({@code bbr_set_cwnd}), with the inflight targets they derive from the model ({@code bbr_quantization_budget},
 * {@code bbr_inflight}).
 */
final class Bbr1Outputs
{
    private final Bbr1Parameters parameters;
    private final Bbr1Variant variant;
    private final RttStats rttStats;
    private final Bbr1Model model;
    private final Bbr1Mode mode;
    private final Bbr1Recovery recovery;
    private final double pacingMarginFactor;

    private long congestionWindowBytes;
    private long pacingRateBytesPerSecond;
    private int sendQuantumBytes;
    private boolean hasSeenRtt;

    Bbr1Outputs(
        final Bbr1Parameters parameters,
        final RttStats rttStats,
        final Bbr1Model model,
        final Bbr1Mode mode,
        final Bbr1Recovery recovery,
        final double pacingMarginFactor)
    {
        this.parameters = parameters;
        this.variant = parameters.variant();
        this.rttStats = rttStats;
        this.model = model;
        this.mode = mode;
        this.recovery = recovery;
        this.pacingMarginFactor = pacingMarginFactor;
        this.congestionWindowBytes = model.initialWindowBytes();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Pacing
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * {@code bbr_init_pacing_rate_from_rtt}: {@code high_gain * cwnd / srtt}, with a nominal 1 ms RTT before any
     * sample.
     */
    void initPacingRateFromRtt()
    {
        final long rttNs;
        if (rttStats.hasSample())
        {
            rttNs = Math.max(rttStats.smoothedRttNs(), 1);
            hasSeenRtt = true;
        }
        else
        {
            rttNs = BbrConstants.NOMINAL_RTT_NS;
        }
        final long bandwidth = BbrMath.rateBytesPerSecond(congestionWindowBytes, rttNs);
        pacingRateBytesPerSecond = toPacingRate(bandwidth, parameters.startupPacingGain());
        sendQuantumBytes = BbrMath.sendQuantumBytes(pacingRateBytesPerSecond, model.maxDatagramSizeBytes());
    }

    /**
     * {@code bbr_set_pacing_rate}: until the pipe is full the rate only rises, so a low early sample cannot slow
     * STARTUP.
     */
    void setPacingRate(final long bandwidthBytesPerSecond, final double gain)
    {
        final long rate = toPacingRate(bandwidthBytesPerSecond, gain);
        if (!hasSeenRtt && rttStats.hasSample())
        {
            initPacingRateFromRtt();
        }
        if (model.isFullBandwidthReached() || rate > pacingRateBytesPerSecond)
        {
            pacingRateBytesPerSecond = rate;
        }
        sendQuantumBytes = BbrMath.sendQuantumBytes(pacingRateBytesPerSecond, model.maxDatagramSizeBytes());
    }

    /**
     * {@code bbr_bw_to_pacing_rate}: pace 1 % below the estimate, capped by the configured maximum.
     */
    private long toPacingRate(final long bandwidthBytesPerSecond, final double gain)
    {
        final long rate = (long)(bandwidthBytesPerSecond * gain * pacingMarginFactor);
        return Math.min(rate, parameters.maxPacingRateBytesPerSecond());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // cwnd
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * {@code bbr_set_cwnd}.
     */
    void setCwnd(final AckEvent ack, final long ackedBytes, final long bandwidth, final double gain)
    {
        long cwnd = congestionWindowBytes;
        if (ackedBytes > 0)
        {
            cwnd = recovery.recoverOrRestore(ack, ackedBytes, cwnd);
            if (!recovery.isPacketConservation())
            {
                long targetBytes = model.bdpBytes(bandwidth, gain);
                // Provision for data that aggregation (of data or ACKs) delivers beyond the bandwidth estimate.
                targetBytes += model.ackAggregationCwndBytes();
                targetBytes = quantizationBudget(targetBytes);

                // Slow-start toward the target; only cut cwnd once the pipe was filled.
                if (model.isFullBandwidthReached())
                {
                    cwnd = Math.min(cwnd + ackedBytes, targetBytes);
                }
                else if (cwnd < targetBytes || model.totalDeliveredBytes() < model.initialWindowBytes())
                {
                    cwnd = cwnd + ackedBytes;
                }
                cwnd = Math.max(cwnd, model.minTargetCwndBytes());
            }
        }

        if (mode.is(Bbr1State.PROBE_RTT))
        {
            cwnd = Math.min(cwnd, model.minTargetCwndBytes());  // drain the queue, refresh min_rtt
        }
        congestionWindowBytes = cwnd;
    }

    /**
     * {@code bbr_check_probe_rtt_done}: the cwnd saved on entering PROBE_RTT returns.
     */
    void restoreCwnd()
    {
        congestionWindowBytes = Math.max(congestionWindowBytes, recovery.priorCwndBytes());
    }

    /**
     * Persistent congestion: Linux collapses to 1 packet; here the window collapses to the RFC 9002 minimum (2
     * datagrams), and the next ACK lifts it to the 4-packet floor as in Linux.
     */
    void collapseCwnd(final long minimumWindowBytes)
    {
        congestionWindowBytes = minimumWindowBytes;
    }

    void onMtuChanged()
    {
        congestionWindowBytes = Math.max(congestionWindowBytes, model.minTargetCwndBytes());
        sendQuantumBytes = BbrMath.sendQuantumBytes(pacingRateBytesPerSecond, model.maxDatagramSizeBytes());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Inflight targets
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * {@code bbr_quantization_budget}: room for three send quanta in the end hosts (Linux: three TSO bursts), rounded
     * up to an even number of packets (fewer delayed ACKs), plus 2 packets in the 5/4 phase so gain cycling raises
     * inflight above BDP even for tiny BDPs. BBRplus keeps only the three quanta.
     */
    private long quantizationBudget(final long windowBytes)
    {
        long budgetBytes = windowBytes + 3L * sendQuantumBytes;
        if (!variant.hasEvenAndProbeUpQuantization())
        {
            return budgetBytes;
        }
        final long twoPacketsBytes = 2L * model.maxDatagramSizeBytes();
        budgetBytes = (budgetBytes + twoPacketsBytes - 1) / twoPacketsBytes * twoPacketsBytes;
        if (mode.isProbingUp())
        {
            budgetBytes += twoPacketsBytes;
        }
        return budgetBytes;
    }

    /**
     * {@code bbr_inflight}.
     */
    long inflightBytes(final long bandwidthBytesPerSecond, final double gain)
    {
        return quantizationBudget(model.bdpBytes(bandwidthBytesPerSecond, gain));
    }

    long congestionWindowBytes()
    {
        return congestionWindowBytes;
    }

    long pacingRateBytesPerSecond()
    {
        return pacingRateBytesPerSecond;
    }

    int sendQuantumBytes()
    {
        return sendQuantumBytes;
    }
}
