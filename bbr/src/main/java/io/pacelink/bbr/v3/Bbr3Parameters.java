package io.pacelink.bbr.v3;

import io.pacelink.transport.cc.ControllerParameters;

import java.util.Set;

/**
 * BBRv3 constants, read once from the named {@code bbr3.*} controller parameters. Defaults follow
 * draft-ietf-ccwg-bbr-06; where Google's Linux v3 differs, the Linux value is one parameter away:
 * <ul>
 *     <li>{@code bbr3.drainPacingGain=0.347} (Linux {@code bbr_drain_gain = 1/2.885}; draft 0.5),</li>
 *     <li>{@code bbr3.downPacingGain=0.91} (Linux {@code bbr_pacing_gain[BBR_BW_PROBE_DOWN]}; draft 0.90),</li>
 *     <li>{@code bbr3.drainRoundsTimeout=0} (Linux exits Drain on inflight only; the draft also after 3 rounds).</li>
 * </ul>
 */
public final class Bbr3Parameters
{
    /**
     * Prefix of every BBRv3 parameter name.
     */
    public static final String PREFIX = "bbr3.";

    /**
     * Startup pacing gain: 4 ln 2, the smallest gain that doubles the sending rate each round (draft
     * {@code BBR.StartupPacingGain}).
     */
    public static final String STARTUP_PACING_GAIN = PREFIX + "startupPacingGain";

    /**
     * cwnd gain in Startup, Drain and ProbeBW other than UP (draft {@code BBR.DefaultCwndGain} = 2).
     */
    public static final String CWND_GAIN = PREFIX + "cwndGain";

    /**
     * Drain pacing gain (draft {@code BBR.DrainPacingGain} = 0.5; Linux 1/2.885).
     */
    public static final String DRAIN_PACING_GAIN = PREFIX + "drainPacingGain";

    /**
     * Rounds after which Drain ends even if inflight is still above the BDP (draft {@code CheckDrainDone}: 3);
     * 0 disables the timeout (Linux).
     */
    public static final String DRAIN_ROUNDS_TIMEOUT = PREFIX + "drainRoundsTimeout";

    /**
     * ProbeBW_DOWN pacing gain (draft 0.90; Linux 0.91).
     */
    public static final String DOWN_PACING_GAIN = PREFIX + "downPacingGain";

    /**
     * ProbeBW_UP pacing gain (draft 1.25).
     */
    public static final String UP_PACING_GAIN = PREFIX + "upPacingGain";

    /**
     * ProbeBW_UP cwnd gain (draft 2.25; Linux {@code cwnd_gain + bw_probe_cwnd_gain/4}).
     */
    public static final String UP_CWND_GAIN = PREFIX + "upCwndGain";

    /**
     * Highest loss rate per round tolerated while probing (draft {@code BBR.LossThresh} = 2 %).
     */
    public static final String LOSS_THRESHOLD = PREFIX + "lossThreshold";

    /**
     * Multiplicative decrease per lossy round (draft {@code BBR.Beta} = 0.7).
     */
    public static final String BETA = PREFIX + "beta";

    /**
     * Fraction of inflight_longterm left free for other flows (draft {@code BBR.Headroom} = 0.15).
     */
    public static final String HEADROOM = PREFIX + "headroom";

    /**
     * Time without a lower RTT sample after which ProbeRTT is entered (draft {@code BBR.ProbeRTTInterval} = 5 s).
     */
    public static final String PROBE_RTT_INTERVAL_MS = PREFIX + "probeRttIntervalMs";

    /**
     * Minimum time ProbeRTT holds inflight down (draft {@code BBR.ProbeRTTDuration} = 200 ms).
     */
    public static final String PROBE_RTT_DURATION_MS = PREFIX + "probeRttDurationMs";

    /**
     * ProbeRTT cwnd as a multiple of the BDP (draft {@code BBR.ProbeRTTCwndGain} = 0.5).
     */
    public static final String PROBE_RTT_CWND_GAIN = PREFIX + "probeRttCwndGain";

    /**
     * Window of the min_rtt filter (draft {@code BBR.MinRTTFilterLen} = 10 s).
     */
    public static final String MIN_RTT_FILTER_LENGTH_MS = PREFIX + "minRttFilterLengthMs";

    /**
     * Fixed part of the wall-clock wait between bandwidth probes (draft {@code PickProbeWait}: 2 s).
     */
    public static final String PROBE_WAIT_BASE_MS = PREFIX + "probeWaitBaseMs";

    /**
     * Random part of the wall-clock wait between bandwidth probes, uniform in [0, this) (draft: 1 s).
     */
    public static final String PROBE_WAIT_RANDOM_MS = PREFIX + "probeWaitRandomMs";

    /**
     * Upper bound of the Reno-coexistence wait in rounds (draft {@code IsRenoCoexistenceProbeTime}: 63).
     */
    public static final String PROBE_MAX_ROUNDS = PREFIX + "probeMaxRounds";

    /**
     * Discontiguous lost ranges in one round needed for the Startup loss exit (draft
     * {@code BBRStartupFullLossCnt} = 6).
     */
    public static final String STARTUP_FULL_LOSS_COUNT = PREFIX + "startupFullLossCount";

    /**
     * How far below the bandwidth estimate to pace, in percent (draft {@code BBR.PacingMarginPercent} = 1).
     */
    public static final String PACING_MARGIN_PERCENT = PREFIX + "pacingMarginPercent";

    /**
     * Every parameter name BBRv3 reads.
     */
    public static final Set<String> NAMES = Set.of(
        STARTUP_PACING_GAIN, CWND_GAIN, DRAIN_PACING_GAIN, DRAIN_ROUNDS_TIMEOUT, DOWN_PACING_GAIN, UP_PACING_GAIN,
        UP_CWND_GAIN, LOSS_THRESHOLD, BETA, HEADROOM, PROBE_RTT_INTERVAL_MS, PROBE_RTT_DURATION_MS,
        PROBE_RTT_CWND_GAIN, MIN_RTT_FILTER_LENGTH_MS, PROBE_WAIT_BASE_MS, PROBE_WAIT_RANDOM_MS, PROBE_MAX_ROUNDS,
        STARTUP_FULL_LOSS_COUNT, PACING_MARGIN_PERCENT);

    private static final long NANOS_PER_MILLISECOND = 1_000_000L;

    final double startupPacingGain;
    final double cwndGain;
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

    private Bbr3Parameters(final ControllerParameters parameters)
    {
        parameters.rejectUnknown(PREFIX, NAMES);

        startupPacingGain = parameters.getDouble(STARTUP_PACING_GAIN, 4.0 * Math.log(2.0), 1.0, 4.0);
        cwndGain = parameters.getDouble(CWND_GAIN, 2.0, 1.0, 4.0);
        drainPacingGain = parameters.getDouble(DRAIN_PACING_GAIN, 0.5, 0.1, 1.0);
        drainRoundsTimeout = parameters.getLong(DRAIN_ROUNDS_TIMEOUT, 3, 0, 1_000);
        downPacingGain = parameters.getDouble(DOWN_PACING_GAIN, 0.90, 0.5, 1.0);
        upPacingGain = parameters.getDouble(UP_PACING_GAIN, 1.25, 1.0, 2.0);
        upCwndGain = parameters.getDouble(UP_CWND_GAIN, 2.25, 1.0, 4.0);
        lossThreshold = parameters.getDouble(LOSS_THRESHOLD, 0.02, 0.001, 0.5);
        beta = parameters.getDouble(BETA, 0.7, 0.1, 0.99);
        headroom = parameters.getDouble(HEADROOM, 0.15, 0.0, 0.5);
        probeRttIntervalNs = NANOS_PER_MILLISECOND * parameters.getLong(PROBE_RTT_INTERVAL_MS, 5_000, 100, 600_000);
        probeRttDurationNs = NANOS_PER_MILLISECOND * parameters.getLong(PROBE_RTT_DURATION_MS, 200, 1, 10_000);
        probeRttCwndGain = parameters.getDouble(PROBE_RTT_CWND_GAIN, 0.5, 0.1, 1.0);
        minRttFilterLengthNs =
            NANOS_PER_MILLISECOND * parameters.getLong(MIN_RTT_FILTER_LENGTH_MS, 10_000, 100, 600_000);
        probeWaitBaseNs = NANOS_PER_MILLISECOND * parameters.getLong(PROBE_WAIT_BASE_MS, 2_000, 0, 600_000);
        probeWaitRandomNs = NANOS_PER_MILLISECOND * parameters.getLong(PROBE_WAIT_RANDOM_MS, 1_000, 0, 600_000);
        probeMaxRounds = parameters.getLong(PROBE_MAX_ROUNDS, 63, 1, 10_000);
        startupFullLossCount = parameters.getLong(STARTUP_FULL_LOSS_COUNT, 6, 1, 1_000);
        pacingMarginPercent = parameters.getLong(PACING_MARGIN_PERCENT, 1, 0, 50);

        // The min_rtt filter must cover a whole ProbeRTT interval so that ProbeRTT sizes its cwnd from the RTT it
        // measured last time (draft "ProbeRTT Overview"; Linux: probe_rtt_win_ms <= min_rtt_win_sec * 1000).
        if (probeRttIntervalNs > minRttFilterLengthNs)
        {
            throw new IllegalArgumentException(
                "controller parameter " + PROBE_RTT_INTERVAL_MS + " (" + probeRttIntervalNs / NANOS_PER_MILLISECOND +
                ") must not exceed " + MIN_RTT_FILTER_LENGTH_MS + " (" +
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
        return new Bbr3Parameters(parameters);
    }
}
