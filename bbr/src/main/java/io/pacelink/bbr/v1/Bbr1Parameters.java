package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.ControllerParameters;

import java.util.List;

/**
 * BBRv1's tunables, read once from the controller parameters: {@code bbr.*} for Linux BBR, {@code bbrplus.*} for
 * BBRplus (the names below follow the variant's name and a dot). Every default is the variant's {@code tcp_bbr.c} or
 * {@code tcp_bbrplus.c} value. Unknown names with the variant's prefix are rejected so a typo fails fast.
 */
public final class Bbr1Parameters
{
    /**
     * STARTUP pacing gain; default Linux {@code bbr_high_gain = 256 * 2885 / 1000 + 1}, i.e. 739/256 = 2.8867,
     * the fixed-point rendering of 2/ln 2.
     */
    public static final String STARTUP_PACING_GAIN = "startupPacingGain";

    /**
     * STARTUP and DRAIN cwnd gain; default {@code bbr_high_gain} as above.
     */
    public static final String STARTUP_CWND_GAIN = "startupCwndGain";

    /**
     * DRAIN pacing gain; default Linux {@code bbr_drain_gain = 256 * 1000 / 2885}, i.e. 88/256 = 0.34375.
     */
    public static final String DRAIN_PACING_GAIN = "drainPacingGain";

    /**
     * PROBE_BW cwnd gain; default 2 ({@code bbr_cwnd_gain}).
     */
    public static final String CWND_GAIN = "cwndGain";

    /**
     * Bandwidth filter window in packet-timed rounds; default 10 ({@code bbr_bw_rtts = CYCLE_LEN + 2}).
     */
    public static final String BANDWIDTH_FILTER_ROUNDS = "bandwidthFilterRounds";

    /**
     * min_rtt filter window, which is also how often PROBE_RTT runs; default 10000 ms
     * ({@code bbr_min_rtt_win_sec = 10}).
     */
    public static final String PROBE_RTT_INTERVAL_MS = "probeRttIntervalMs";

    /**
     * Minimum time at the PROBE_RTT inflight floor; default 200 ms ({@code bbr_probe_rtt_mode_ms}); 0 disables
     * PROBE_RTT as in Linux.
     */
    public static final String PROBE_RTT_DURATION_MS = "probeRttDurationMs";

    /**
     * Gain on the ACK-aggregation cwnd credit; default 1 ({@code bbr_extra_acked_gain = BBR_UNIT}); 0 disables it.
     */
    public static final String EXTRA_ACKED_GAIN = "extraAckedGain";

    /**
     * Long-term ("policer") bandwidth estimation on/off; default on.
     */
    public static final String LONG_TERM_BW = "longTermBw";

    /**
     * Pace this many percent below the estimate; default 1 ({@code bbr_pacing_margin_percent}), 0 for BBRplus.
     */
    public static final String PACING_MARGIN_PERCENT = "pacingMarginPercent";

    /**
     * Upper bound on the pacing rate in bytes per second ({@code sk_max_pacing_rate}); default unlimited.
     */
    public static final String MAX_PACING_RATE_BYTES_PER_SECOND = "maxPacingRateBytesPerSecond";

    /**
     * The names this controller reads, after the variant's prefix.
     */
    public static final List<String> NAMES = List.of(
        STARTUP_PACING_GAIN, STARTUP_CWND_GAIN, DRAIN_PACING_GAIN, CWND_GAIN, BANDWIDTH_FILTER_ROUNDS,
        PROBE_RTT_INTERVAL_MS, PROBE_RTT_DURATION_MS, EXTRA_ACKED_GAIN, LONG_TERM_BW, PACING_MARGIN_PERCENT,
        MAX_PACING_RATE_BYTES_PER_SECOND);

    /**
     * Linux {@code bbr_high_gain} in its 8-bit fixed point: {@code BBR_UNIT * 2885 / 1000 + 1 = 739}.
     */
    public static final double LINUX_HIGH_GAIN = 739.0 / 256.0;

    /**
     * Linux {@code bbr_drain_gain} in its 8-bit fixed point: {@code BBR_UNIT * 1000 / 2885 = 88}.
     */
    public static final double LINUX_DRAIN_GAIN = 88.0 / 256.0;

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final Bbr1Variant variant;
    private final double startupPacingGain;
    private final double startupCwndGain;
    private final double drainPacingGain;
    private final double cwndGain;
    private final int bandwidthFilterRounds;
    private final long probeRttIntervalNs;
    private final long probeRttDurationNs;
    private final double extraAckedGain;
    private final boolean isLongTermBandwidthEnabled;
    private final double pacingMarginPercent;
    private final long maxPacingRateBytesPerSecond;

    private Bbr1Parameters(final ControllerParameters parameters, final Bbr1Variant variant)
    {
        this.variant = variant;
        final String prefix = variant.controllerName() + ".";
        parameters.rejectUnknownAfterPrefix(prefix, NAMES);
        startupPacingGain = parameters.getDouble(prefix + STARTUP_PACING_GAIN, LINUX_HIGH_GAIN, 1.0, 10.0);
        startupCwndGain = parameters.getDouble(prefix + STARTUP_CWND_GAIN, LINUX_HIGH_GAIN, 1.0, 10.0);
        drainPacingGain = parameters.getDouble(prefix + DRAIN_PACING_GAIN, LINUX_DRAIN_GAIN, 0.01, 1.0);
        cwndGain = parameters.getDouble(prefix + CWND_GAIN, 2.0, 1.0, 10.0);
        bandwidthFilterRounds = (int)parameters.getLong(prefix + BANDWIDTH_FILTER_ROUNDS, 10, 1, 1_000);
        probeRttIntervalNs =
            parameters.getLong(prefix + PROBE_RTT_INTERVAL_MS, 10_000, 1, 3_600_000) * NANOS_PER_MILLI;
        probeRttDurationNs = parameters.getLong(prefix + PROBE_RTT_DURATION_MS, 200, 0, 60_000) * NANOS_PER_MILLI;
        extraAckedGain = parameters.getDouble(prefix + EXTRA_ACKED_GAIN, 1.0, 0.0, 10.0);
        isLongTermBandwidthEnabled = parameters.getBoolean(prefix + LONG_TERM_BW, true);
        pacingMarginPercent =
            parameters.getDouble(prefix + PACING_MARGIN_PERCENT, variant.defaultPacingMarginPercent(), 0.0, 50.0);
        maxPacingRateBytesPerSecond =
            parameters.getLong(prefix + MAX_PACING_RATE_BYTES_PER_SECOND, Long.MAX_VALUE, 1, Long.MAX_VALUE);
    }

    /**
     * @param parameters the controller parameters.
     * @return the validated parameters of Linux BBRv1 ({@code bbr.*}).
     * @throws IllegalArgumentException naming an unknown {@code bbr.*} parameter or a malformed or out-of-range
     * value.
     */
    public static Bbr1Parameters from(final ControllerParameters parameters)
    {
        return from(parameters, Bbr1Variant.LINUX);
    }

    /**
     * @param parameters the controller parameters.
     * @param variant    the {@code tcp_bbr.c} the controller follows; its name is the parameters' prefix.
     * @return the validated parameters.
     * @throws IllegalArgumentException naming an unknown parameter with the variant's prefix or a malformed or
     * out-of-range value.
     */
    public static Bbr1Parameters from(final ControllerParameters parameters, final Bbr1Variant variant)
    {
        return new Bbr1Parameters(parameters, variant);
    }

    /**
     * @return the {@code tcp_bbr.c} the controller follows.
     */
    public Bbr1Variant variant()
    {
        return variant;
    }

    /**
     * @return STARTUP pacing gain.
     */
    public double startupPacingGain()
    {
        return startupPacingGain;
    }

    /**
     * @return STARTUP and DRAIN cwnd gain.
     */
    public double startupCwndGain()
    {
        return startupCwndGain;
    }

    /**
     * @return DRAIN pacing gain.
     */
    public double drainPacingGain()
    {
        return drainPacingGain;
    }

    /**
     * @return PROBE_BW cwnd gain.
     */
    public double cwndGain()
    {
        return cwndGain;
    }

    /**
     * @return bandwidth filter window in rounds.
     */
    public int bandwidthFilterRounds()
    {
        return bandwidthFilterRounds;
    }

    /**
     * @return min_rtt filter window (PROBE_RTT interval) in ns.
     */
    public long probeRttIntervalNs()
    {
        return probeRttIntervalNs;
    }

    /**
     * @return minimum PROBE_RTT duration in ns; 0 means PROBE_RTT is disabled.
     */
    public long probeRttDurationNs()
    {
        return probeRttDurationNs;
    }

    /**
     * @return ACK-aggregation credit gain; 0 disables the credit.
     */
    public double extraAckedGain()
    {
        return extraAckedGain;
    }

    /**
     * @return true if long-term (policer) bandwidth estimation is on.
     */
    public boolean isLongTermBandwidthEnabled()
    {
        return isLongTermBandwidthEnabled;
    }

    /**
     * @return the pacing margin in percent.
     */
    public double pacingMarginPercent()
    {
        return pacingMarginPercent;
    }

    /**
     * @return the pacing rate cap in bytes per second.
     */
    public long maxPacingRateBytesPerSecond()
    {
        return maxPacingRateBytesPerSecond;
    }
}
