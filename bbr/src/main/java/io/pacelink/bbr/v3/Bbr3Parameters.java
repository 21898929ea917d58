package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.ControllerParameters;

import java.util.List;

/**
 * The constants of a {@link Bbr3Controller}, read once from the named controller parameters: {@code bbr3.*} for BBRv3,
 * {@code bbr2.*} for BBRv2 alpha (the names below follow the variant's name and a dot). BBRv3's defaults follow
 * draft-ietf-ccwg-bbr-06; where Google's Linux v3 differs, the Linux value is one parameter away:
 * <ul>
 *     <li>{@code bbr3.drainPacingGain=0.347} (Linux {@code bbr_drain_gain = 1/2.885}; draft 0.5),</li>
 *     <li>{@code bbr3.downPacingGain=0.91} (Linux {@code bbr_pacing_gain[BBR_BW_PROBE_DOWN]}; draft 0.90),</li>
 *     <li>{@code bbr3.drainRoundsTimeout=0} (Linux exits Drain on inflight only; the draft also after 3 rounds).</li>
 * </ul>
 * BBRv2 alpha's defaults are {@code tcp_bbr2.c}'s (v2alpha branch of {@code github.com/google/bbr}), in its 8-bit
 * fixed point where it has one ({@code x / 256}).
 */
public final class Bbr3Parameters
{
    /**
     * Startup pacing gain: 4 ln 2, the smallest gain that doubles the sending rate each round (draft
     * {@code BBR.StartupPacingGain}).
     */
    public static final String STARTUP_PACING_GAIN = "startupPacingGain";

    /**
     * cwnd gain in ProbeBW other than UP (draft {@code BBR.DefaultCwndGain} = 2; v2 {@code bbr_cwnd_gain} = 2).
     */
    public static final String CWND_GAIN = "cwndGain";

    /**
     * cwnd gain in Startup and Drain (draft: {@code BBR.DefaultCwndGain} = 2; v2 {@code bbr_startup_cwnd_gain} =
     * 739/256 = 2.887).
     */
    public static final String STARTUP_CWND_GAIN = "startupCwndGain";

    /**
     * Drain pacing gain (draft {@code BBR.DrainPacingGain} = 0.5; Linux 1/2.885).
     */
    public static final String DRAIN_PACING_GAIN = "drainPacingGain";

    /**
     * Rounds after which Drain ends even if inflight is still above the BDP (draft {@code CheckDrainDone}: 3);
     * 0 disables the timeout (Linux).
     */
    public static final String DRAIN_ROUNDS_TIMEOUT = "drainRoundsTimeout";

    /**
     * ProbeBW_DOWN pacing gain (draft 0.90; Linux 0.91).
     */
    public static final String DOWN_PACING_GAIN = "downPacingGain";

    /**
     * ProbeBW_UP pacing gain (draft 1.25).
     */
    public static final String UP_PACING_GAIN = "upPacingGain";

    /**
     * ProbeBW_UP cwnd gain (draft 2.25; Linux {@code cwnd_gain + bw_probe_cwnd_gain/4}).
     */
    public static final String UP_CWND_GAIN = "upCwndGain";

    /**
     * Highest loss rate per round tolerated while probing (draft {@code BBR.LossThresh} = 2 %).
     */
    public static final String LOSS_THRESHOLD = "lossThreshold";

    /**
     * Multiplicative decrease per lossy round (draft {@code BBR.Beta} = 0.7).
     */
    public static final String BETA = "beta";

    /**
     * Fraction of inflight_longterm left free for other flows (draft {@code BBR.Headroom} = 0.15).
     */
    public static final String HEADROOM = "headroom";

    /**
     * Time without a lower RTT sample after which ProbeRTT is entered (draft {@code BBR.ProbeRTTInterval} = 5 s).
     */
    public static final String PROBE_RTT_INTERVAL_MS = "probeRttIntervalMs";

    /**
     * Minimum time ProbeRTT holds inflight down (draft {@code BBR.ProbeRTTDuration} = 200 ms).
     */
    public static final String PROBE_RTT_DURATION_MS = "probeRttDurationMs";

    /**
     * ProbeRTT cwnd as a multiple of the BDP (draft {@code BBR.ProbeRTTCwndGain} = 0.5).
     */
    public static final String PROBE_RTT_CWND_GAIN = "probeRttCwndGain";

    /**
     * Window of the min_rtt filter (draft {@code BBR.MinRTTFilterLen} = 10 s).
     */
    public static final String MIN_RTT_FILTER_LENGTH_MS = "minRttFilterLengthMs";

    /**
     * Fixed part of the wall-clock wait between bandwidth probes (draft {@code PickProbeWait}: 2 s).
     */
    public static final String PROBE_WAIT_BASE_MS = "probeWaitBaseMs";

    /**
     * Random part of the wall-clock wait between bandwidth probes, uniform in [0, this) (draft: 1 s).
     */
    public static final String PROBE_WAIT_RANDOM_MS = "probeWaitRandomMs";

    /**
     * Upper bound of the Reno-coexistence wait in rounds (draft {@code IsRenoCoexistenceProbeTime}: 63).
     */
    public static final String PROBE_MAX_ROUNDS = "probeMaxRounds";

    /**
     * Discontiguous lost ranges in one round needed for the Startup loss exit (draft
     * {@code BBRStartupFullLossCnt} = 6).
     */
    public static final String STARTUP_FULL_LOSS_COUNT = "startupFullLossCount";

    /**
     * How far below the bandwidth estimate to pace, in percent (draft {@code BBR.PacingMarginPercent} = 1).
     */
    public static final String PACING_MARGIN_PERCENT = "pacingMarginPercent";

    /**
     * End ProbeBW_UP as BBRv2 alpha does, after one min_rtt once inflight reached 1.25 BDP, instead of the draft's
     * bandwidth plateau ({@code BBRIsTimeToGoDown}: three rounds without 25 % growth). Off by default for bbr3, on for
     * bbr2. With many flows each holding a few packets of the BDP, the draft's rule keeps UP probing until a loss
     * ends it and costs about 5 % loss where this one costs 0.3 % (docs/bbr.md, "BBRv3 with many flows").
     */
    public static final String PROBE_UP_ENDED_BY_INFLIGHT = "probeUpEndedByInflight";

    /**
     * Whether to read ECN marks as Linux BBRv3 does on a route marked {@code ecn_low} ({@code bbr_can_use_ecn}:
     * CE marks come from a shallow-threshold queue): true by default, since the transport reports marks only once
     * ECN validation found the path honest, and has no route table to carry the flag. Linux BBRv2 alpha shipped the
     * same rules switched off ({@code bbr_ecn_enable = false}): {@code bbr2.ecn=false} gives that.
     */
    public static final String ECN = "ecn";

    /**
     * Largest min_rtt at which ECN is used, in µs; 0 for any (Linux {@code bbr_ecn_max_rtt_us} = 5000).
     */
    public static final String ECN_MAX_RTT_US = "ecnMaxRttUs";

    /**
     * Gain of the EWMA of the CE-marked fraction of delivered data (Linux {@code bbr_ecn_alpha_gain} = 1/16).
     */
    public static final String ECN_ALPHA_GAIN = "ecnAlphaGain";

    /**
     * Starting value of that EWMA (Linux {@code bbr_ecn_alpha_init} = 1: respond at once to a path already congested).
     */
    public static final String ECN_ALPHA_INIT = "ecnAlphaInit";

    /**
     * On a round with marks, inflight_shortterm is cut to {@code 1 - ecnFactor * alpha} of itself (Linux
     * {@code bbr_ecn_factor} = 1/3); 0 disables the cut.
     */
    public static final String ECN_FACTOR = "ecnFactor";

    /**
     * A sample whose CE-marked fraction exceeds this has inflight too high (Linux {@code bbr_ecn_thresh} = 1/2).
     */
    public static final String ECN_THRESHOLD = "ecnThreshold";

    /**
     * Consecutive Startup rounds with a CE fraction at or above {@link #ECN_THRESHOLD} that end Startup (Linux
     * {@code bbr_full_ecn_cnt} = 2).
     */
    public static final String STARTUP_FULL_ECN_COUNT = "startupFullEcnCount";

    /**
     * After a cycle with marks but no loss, the first probe raises inflight_longterm by this fraction of it at once
     * (Linux {@code bbr_ecn_reprobe_gain} = 1/2); 0 disables the quick re-probe.
     */
    public static final String ECN_REPROBE_GAIN = "ecnReprobeGain";

    /**
     * Every parameter name the controller reads, after the variant's prefix.
     */
    public static final List<String> NAMES = List.of(
        STARTUP_PACING_GAIN, CWND_GAIN, STARTUP_CWND_GAIN, DRAIN_PACING_GAIN, DRAIN_ROUNDS_TIMEOUT, DOWN_PACING_GAIN,
        UP_PACING_GAIN, UP_CWND_GAIN, LOSS_THRESHOLD, BETA, HEADROOM, PROBE_RTT_INTERVAL_MS, PROBE_RTT_DURATION_MS,
        PROBE_RTT_CWND_GAIN, MIN_RTT_FILTER_LENGTH_MS, PROBE_WAIT_BASE_MS, PROBE_WAIT_RANDOM_MS, PROBE_MAX_ROUNDS,
        STARTUP_FULL_LOSS_COUNT, PACING_MARGIN_PERCENT, PROBE_UP_ENDED_BY_INFLIGHT, ECN, ECN_MAX_RTT_US, ECN_ALPHA_GAIN,
        ECN_ALPHA_INIT, ECN_FACTOR, ECN_THRESHOLD, STARTUP_FULL_ECN_COUNT, ECN_REPROBE_GAIN);

    private static final long NANOS_PER_MILLISECOND = 1_000_000L;

    final Bbr3Variant variant;
    final double startupPacingGain;
    final double cwndGain;
    final double startupCwndGain;
    final double drainPacingGain;
    final long drainRoundsTimeout;
    final double downPacingGain;
    final double upPacingGain;
    final double upCwndGain;
    final double lossThreshold;
    final double beta;
    final double headroom;
    final long probeRttIntervalNs;
    final long probeRttDurationNs;
    final double probeRttCwndGain;
    final long minRttFilterLengthNs;
    final long probeWaitBaseNs;
    final long probeWaitRandomNs;
    final long probeMaxRounds;
    final long startupFullLossCount;
    final long pacingMarginPercent;
    final boolean isProbeUpEndedByInflight;
    final boolean ecn;
    final long ecnMaxRttNs;
    final double ecnAlphaGain;
    final double ecnAlphaInit;
    final double ecnFactor;
    final double ecnThreshold;
    final long startupFullEcnCount;
    final double ecnReprobeGain;

    private Bbr3Parameters(final ControllerParameters parameters, final Bbr3Variant variant)
    {
        this.variant = variant;
        final String prefix = variant.controllerName() + ".";
        parameters.rejectUnknownAfterPrefix(prefix, NAMES);

        final boolean isV2 = Bbr3Variant.V2_ALPHA == variant;
        // v2 bbr_high_gain = bbr_startup_cwnd_gain = 256 * 2885 / 1000 + 1 = 739, bbr_drain_gain = 256 * 1000 / 2885
        // = 88; the draft's 4 ln 2 and 0.5.
        final double v2HighGain = 739.0 / 256.0;
        startupPacingGain =
            parameters.getDouble(prefix + STARTUP_PACING_GAIN, isV2 ? v2HighGain : 4.0 * Math.log(2.0), 1.0, 4.0);
        cwndGain = parameters.getDouble(prefix + CWND_GAIN, 2.0, 1.0, 4.0);
        startupCwndGain = parameters.getDouble(prefix + STARTUP_CWND_GAIN, isV2 ? v2HighGain : 2.0, 1.0, 4.0);
        drainPacingGain = parameters.getDouble(prefix + DRAIN_PACING_GAIN, isV2 ? 88.0 / 256.0 : 0.5, 0.1, 1.0);
        // v2 bbr2_check_drain: inflight only; the draft also gives up after 3 rounds.
        drainRoundsTimeout = parameters.getLong(prefix + DRAIN_ROUNDS_TIMEOUT, isV2 ? 0 : 3, 0, 1_000);
        // v2 bbr_pacing_gain[BBR_BW_PROBE_DOWN] = 3/4, as v1's drain phase; the draft 0.90.
        downPacingGain = parameters.getDouble(prefix + DOWN_PACING_GAIN, isV2 ? 0.75 : 0.90, 0.5, 1.0);
        upPacingGain = parameters.getDouble(prefix + UP_PACING_GAIN, 1.25, 1.0, 2.0);
        // v2 bbr_update_gains: bbr_cwnd_gain (2) in every ProbeBW phase; v3 adds 0.25 in UP.
        upCwndGain = parameters.getDouble(prefix + UP_CWND_GAIN, isV2 ? 2.0 : 2.25, 1.0, 4.0);
        // v2 bbr_loss_thresh = 256 * 2 / 100 = 5, bbr_beta = 256 * 30 / 100 = 76 (a cut to 180/256),
        // bbr_inflight_headroom = 256 * 15 / 100 = 38.
        lossThreshold = parameters.getDouble(prefix + LOSS_THRESHOLD, isV2 ? 5.0 / 256.0 : 0.02, 0.001, 0.5);
        beta = parameters.getDouble(prefix + BETA, isV2 ? 180.0 / 256.0 : 0.7, 0.1, 0.99);
        headroom = parameters.getDouble(prefix + HEADROOM, isV2 ? 38.0 / 256.0 : 0.15, 0.0, 0.5);
        probeRttIntervalNs =
            NANOS_PER_MILLISECOND * parameters.getLong(prefix + PROBE_RTT_INTERVAL_MS, 5_000, 100, 600_000);
        probeRttDurationNs =
            NANOS_PER_MILLISECOND * parameters.getLong(prefix + PROBE_RTT_DURATION_MS, 200, 1, 10_000);
        probeRttCwndGain = parameters.getDouble(prefix + PROBE_RTT_CWND_GAIN, 0.5, 0.1, 1.0);
        minRttFilterLengthNs =
            NANOS_PER_MILLISECOND * parameters.getLong(prefix + MIN_RTT_FILTER_LENGTH_MS, 10_000, 100, 600_000);
        probeWaitBaseNs =
            NANOS_PER_MILLISECOND * parameters.getLong(prefix + PROBE_WAIT_BASE_MS, 2_000, 0, 600_000);
        probeWaitRandomNs =
            NANOS_PER_MILLISECOND * parameters.getLong(prefix + PROBE_WAIT_RANDOM_MS, 1_000, 0, 600_000);
        probeMaxRounds = parameters.getLong(prefix + PROBE_MAX_ROUNDS, 63, 1, 10_000);
        // v2 bbr_full_loss_cnt = 8 loss events; the draft 6 lost ranges.
        startupFullLossCount = parameters.getLong(prefix + STARTUP_FULL_LOSS_COUNT, isV2 ? 8 : 6, 1, 1_000);
        pacingMarginPercent = parameters.getLong(prefix + PACING_MARGIN_PERCENT, 1, 0, 50);
        isProbeUpEndedByInflight =
            parameters.getBoolean(prefix + PROBE_UP_ENDED_BY_INFLIGHT, variant.isProbeUpEndedByInflight());
        // Linux BBRv3's ECN block (tcp_bbr.c), the same constants in BBRv2 alpha's tcp_bbr2.c.
        ecn = parameters.getBoolean(prefix + ECN, true);
        ecnMaxRttNs = 1_000L * parameters.getLong(prefix + ECN_MAX_RTT_US, 5_000, 0, 10_000_000);
        ecnAlphaGain = parameters.getDouble(prefix + ECN_ALPHA_GAIN, 1.0 / 16.0, 0.001, 1.0);
        ecnAlphaInit = parameters.getDouble(prefix + ECN_ALPHA_INIT, 1.0, 0.0, 1.0);
        ecnFactor = parameters.getDouble(prefix + ECN_FACTOR, 1.0 / 3.0, 0.0, 1.0);
        ecnThreshold = parameters.getDouble(prefix + ECN_THRESHOLD, 0.5, 0.01, 1.0);
        startupFullEcnCount = parameters.getLong(prefix + STARTUP_FULL_ECN_COUNT, 2, 0, 1_000);
        ecnReprobeGain = parameters.getDouble(prefix + ECN_REPROBE_GAIN, 0.5, 0.0, 1.0);

        // The min_rtt filter must cover a whole ProbeRTT interval so that ProbeRTT sizes its cwnd from the RTT it
        // measured last time (draft "ProbeRTT Overview"; Linux: probe_rtt_win_ms <= min_rtt_win_sec * 1000).
        if (probeRttIntervalNs > minRttFilterLengthNs)
        {
            throw new IllegalArgumentException(
                "controller parameter " + prefix + PROBE_RTT_INTERVAL_MS + " (" +
                probeRttIntervalNs / NANOS_PER_MILLISECOND + ") must not exceed " + prefix + MIN_RTT_FILTER_LENGTH_MS +
                " (" +
                minRttFilterLengthNs / NANOS_PER_MILLISECOND + ")");
        }
    }

    /**
     * @param parameters the connection's controller parameters.
     * @return the BBRv3 configuration.
     * @throws IllegalArgumentException naming the parameter if a {@code bbr3.*} parameter is unknown, malformed or
     *                                  out of range.
     */
    public static Bbr3Parameters from(final ControllerParameters parameters)
    {
        return from(parameters, Bbr3Variant.V3);
    }

    /**
     * @param parameters the connection's controller parameters.
     * @param variant    the BBR the controller runs; its name is the parameters' prefix.
     * @return the configuration, the variant's defaults where a parameter is not given.
     * @throws IllegalArgumentException naming the parameter if one with the variant's prefix is unknown, malformed
     *                                  or out of range.
     */
    public static Bbr3Parameters from(final ControllerParameters parameters, final Bbr3Variant variant)
    {
        return new Bbr3Parameters(parameters, variant);
    }
}
