package io.pacelink.bbr.v3;

/**
 * The draft's two min-RTT filters ({@code UpdateMinRTT}): {@code probe_rtt_min_delay}, the minimum over
 * ProbeRTTInterval (5 s) whose expiry schedules ProbeRTT, and {@code min_rtt}, the minimum over MinRTTFilterLen (10 s)
 * the model's BDP uses.
 */
final class Bbr3MinRttFilter
{
    private final Bbr3Parameters config;
    private final boolean isRefreshedByEqualSamples;
    private long minRttNs;
    private long minRttStampNs;
    private long probeRttMinDelayNs = Bbr3Controller.INFINITE;
    private long probeRttMinStampNs;
    private boolean isProbeRttExpired;

    /**
     * @param config        the filter lengths.
     * @param variant       BBRv2 alpha refreshes both filters on an equal sample.
     * @param initialRttNs  the transport's smoothed RTT if it had one before the controller, else
     *                      {@link Bbr3Controller#INFINITE}.
     */
    Bbr3MinRttFilter(final Bbr3Parameters config, final Bbr3Variant variant, final long initialRttNs)
    {
        this.config = config;
        this.isRefreshedByEqualSamples = variant.isMinRttRefreshedByEqualSamples();
        this.minRttNs = initialRttNs;
    }

    /**
     * Draft {@code OnInit} stamps the filters with Now(); the SPI's first clock reading is the first callback.
     */
    void startClock(final long nowNs)
    {
        minRttStampNs = nowNs;
        probeRttMinStampNs = nowNs;
    }

    void update(final long nowNs, final long rttNs)
    {
        isProbeRttExpired = nowNs > probeRttMinStampNs + config.probeRttIntervalNs;
        // BBRv2 alpha refreshes both on an equal sample (bbr_update_min_rtt: <=), which postpones ProbeRTT on a
        // stable path.
        if (rttNs >= 0 && (rttNs < probeRttMinDelayNs || (isRefreshedByEqualSamples && rttNs == probeRttMinDelayNs) ||
            isProbeRttExpired))
        {
            probeRttMinDelayNs = rttNs;
            probeRttMinStampNs = nowNs;
        }
        final boolean isMinRttExpired = nowNs > minRttStampNs + config.minRttFilterLengthNs;
        if (probeRttMinDelayNs < minRttNs || (isRefreshedByEqualSamples && probeRttMinDelayNs == minRttNs) ||
            isMinRttExpired)
        {
            minRttNs = probeRttMinDelayNs;
            minRttStampNs = probeRttMinStampNs;
        }
    }

    /**
     * ProbeRTT done: the next one is due a whole ProbeRTTInterval from now.
     */
    void scheduleNextProbeRtt(final long nowNs)
    {
        probeRttMinStampNs = nowNs;
    }

    boolean isProbeRttExpired()
    {
        return isProbeRttExpired;
    }

    long minRttNs()
    {
        return minRttNs;
    }
}
