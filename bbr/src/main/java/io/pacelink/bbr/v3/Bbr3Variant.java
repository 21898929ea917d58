package io.pacelink.bbr.v3;

/**
 * Which BBR a {@link Bbr3Controller} runs: BBRv3 as draft-ietf-ccwg-bbr specifies it, or BBRv2 alpha, its
 * predecessor, as Google released it in the {@code v2alpha} branch of {@code github.com/google/bbr}
 * ({@code net/ipv4/tcp_bbr2.c}, read at commit 8d11b540, the Linux 5.4-era release, and 0487ade5, a later rebase
 * with the same rules). Both share the state machine and every rule except the ones switched here; their constants
 * differ as {@link Bbr3Parameters} gives them. docs/bbr.md tabulates every difference with its source line.
 */
public enum Bbr3Variant
{
    /**
     * BBRv3, draft-ietf-ccwg-bbr: {@code bbr3}.
     */
    V3("bbr3"),

    /**
     * BBRv2 alpha, {@code tcp_bbr2.c}: {@code bbr2}.
     */
    V2_ALPHA("bbr2");

    private final String name;

    Bbr3Variant(final String name)
    {
        this.name = name;
    }

    /**
     * @return the name users select the controller by, also the prefix of its parameters ({@code bbr3.beta}) and
     * counters ({@code bbr3-state}).
     */
    public String controllerName()
    {
        return name;
    }

    /**
     * @return true if ProbeBW_UP ends, after at least one min_rtt in the phase, once inflight reaches
     * {@code bw_probe_pif_gain} (1.25) times the BDP (v2 {@code bbr2_update_cycle_phase}, "is_queuing"); false for
     * v3's bandwidth plateau (draft {@code IsTimeToGoDown}: three rounds without 25 % growth).
     */
    boolean isProbeUpEndedByInflight()
    {
        return this == V2_ALPHA;
    }

    /**
     * @return true if ProbeBW judges inflight before the ACK was processed ({@code rs->prior_in_flight}, v2
     * {@code bbr2_update_cycle_phase}) for ending UP and DOWN; false for the draft's {@code C.inflight} after it.
     */
    boolean isProbeBwJudgedOnPriorInflight()
    {
        return this == V2_ALPHA;
    }

    /**
     * @return true if the full-pipe estimator compares the windowed max_bw with {@code 1.25 * full_bw} (v2
     * {@code bbr_check_full_bw_reached}, which also runs in Startup only); false for the draft's latest
     * {@code RS.delivery_rate}.
     */
    boolean isFullBwJudgedOnMaxBw()
    {
        return this == V2_ALPHA;
    }

    /**
     * @return true if Startup grows cwnd by the acknowledged bytes while it is below twice the initial window, even
     * above its target (v2 {@code bbr_set_cwnd}: {@code cwnd < 2 * init_cwnd}); false for the draft's
     * {@code C.delivered < InitialCwnd}.
     */
    boolean isStartupGrowingToTwiceInitialCwnd()
    {
        return this == V2_ALPHA;
    }

    /**
     * @return true if the target inflight (for the cut on high loss and the Reno-coexistence wait) includes the
     * quantization budget (v2 {@code bbr2_target_inflight}: {@code bbr_inflight(bw, 1)}); false for the draft's BDP.
     */
    boolean isTargetInflightBudgeted()
    {
        return this == V2_ALPHA;
    }

    /**
     * @return true if the Startup loss exit counts ACKs that marked losses ({@code loss_events_in_round}, v2
     * {@code bbr2_check_loss_too_high_in_startup}); false for the draft's discontiguous lost ranges.
     */
    boolean isStartupLossCountingLossyAcks()
    {
        return this == V2_ALPHA;
    }

    /**
     * @return true if the Startup loss exit sets inflight_longterm to {@code Inflight(max_bw, 1.0)}, the BDP with its
     * quantization budget (v2 {@code bbr2_handle_queue_too_high_in_startup}); false for the draft's
     * {@code max(BDP, inflight_latest)}.
     */
    boolean isStartupLossBoundTheBdp()
    {
        return this == V2_ALPHA;
    }

    /**
     * @return true if an RTT sample equal to the ProbeRTT-interval minimum refreshes it, and that minimum refreshes
     * min_rtt when equal (v2 {@code bbr_update_min_rtt}: {@code <=} twice); false for the draft's strict
     * {@code <}.
     */
    boolean isMinRttRefreshedByEqualSamples()
    {
        return this == V2_ALPHA;
    }

    /**
     * @return true if the undo state is saved at the first loss of a round and an undo resumes the Startup or
     * ProbeBW_UP that a loss ended (draft {@code NoteLoss}, {@code HandleSpuriousLossDetection}); false for v2,
     * which saves it on entering recovery ({@code bbr2_ssthresh}) and whose undo ({@code bbr2_undo_cwnd}) restores
     * cwnd and the bounds only.
     */
    boolean isUndoResumingProbe()
    {
        return this == V3;
    }

    /**
     * @return true if entering ProbeBW_CRUISE bounds inflight_shortterm by inflight_longterm (v2
     * {@code bbr2_start_bw_probe_cruise}); the draft's {@code StartProbeBW_CRUISE} changes only the state.
     */
    boolean isCruiseBoundingShortTermByLongTerm()
    {
        return this == V2_ALPHA;
    }

    /**
     * @return true if ProbeBW_UP forgets the acknowledged bytes it counts toward raising inflight_longterm while it
     * is not cwnd-limited at inflight_longterm (v2 {@code bbr2_probe_inflight_hi_upward}: "don't accumulate unused
     * credits"); the draft keeps them.
     */
    boolean isProbeUpCreditForgottenWhenNotLimited()
    {
        return this == V2_ALPHA;
    }
}
