package io.pacelink.bbr.v1;

/**
 * Which {@code tcp_bbr.c} a {@link Bbr1Controller} follows: mainline Linux, or BBRplus, a widely deployed modification
 * of it. Both share every rule of {@link Bbr1Controller} except the ones this enum switches; each switch cites the
 * BBRplus source it comes from. Sources read: {@code tcp_bbrplus.c} as distributed by
 * {@code github.com/Yuk1n0/Shadowsocks-Install} (commit 7e934cc) and {@code github.com/hrimfaxi/tcp_bbr_modules}
 * (commit 3027ae8), and the patch that turns Linux 4.14's {@code tcp_bbr.c} into it,
 * {@code github.com/UJX6N/bbrplus} {@code convert_official_linux_4.14_src_to_bbrplus.patch} (commit 4023846), which
 * shows which lines BBRplus itself changed. docs/bbr.md lists every difference and which were adopted.
 */
public enum Bbr1Variant
{
    /**
     * Mainline Linux {@code net/ipv4/tcp_bbr.c}: {@code bbr}.
     */
    LINUX("bbr", 5, 1.0),

    /**
     * BBRplus ({@code tcp_bbrplus.c}, by dog250 and cx9208, on Linux 4.14): {@code bbrplus}.
     */
    BBRPLUS("bbrplus", 10, 0.0);

    private final String name;
    private final int extraAckedWindowRounds;
    private final double defaultPacingMarginPercent;

    Bbr1Variant(final String name, final int extraAckedWindowRounds, final double defaultPacingMarginPercent)
    {
        this.name = name;
        this.extraAckedWindowRounds = extraAckedWindowRounds;
        this.defaultPacingMarginPercent = defaultPacingMarginPercent;
    }

    /**
     * @return the name users select the controller by, also the prefix of its parameters ({@code bbr.cwndGain}) and
     * counters ({@code bbr-state}).
     */
    public String controllerName()
    {
        return name;
    }

    /**
     * @return rounds per bucket of the ACK-aggregation maximum ({@code bbr_extra_acked_win_rtts}): 5 in Linux, 10
     * in BBRplus, whose {@code bbrplus_extra_acked_win_rtts = 10} keeps the excess for 10 to 20 rounds.
     */
    public int extraAckedWindowRounds()
    {
        return extraAckedWindowRounds;
    }

    /**
     * @return the default pacing margin: Linux paces 1 % below the estimate ({@code bbr_pacing_margin_percent}, since
     * 4.20); BBRplus, built on 4.14, paces at the estimate ({@code bbr_rate_bytes_per_sec} without a margin, "the
     * ~1% lower pacing rate is achieved implicitly by not including link-layer headers").
     */
    public double defaultPacingMarginPercent()
    {
        return defaultPacingMarginPercent;
    }

    /**
     * @return true if PROBE_BW runs BBRplus's {@code bbr_drain_to_target_cycling} ({@code bbr_drain_to_target =
     * true}): cycles of a random 2 to 8 min_rtts that start in the 5/4 phase and hold 3/4 until inflight is down to
     * the BDP; false for Linux's eight phases of one min_rtt each ({@code bbr_is_next_cycle_phase}).
     */
    public boolean isDrainToTargetCycling()
    {
        return this == BBRPLUS;
    }

    /**
     * @return true if {@code bbr_quantization_budget} rounds up to an even number of packets and adds 2 packets in the
     * 5/4 phase (Linux); BBRplus deleted both lines and only adds the three send quanta.
     */
    public boolean hasEvenAndProbeUpQuantization()
    {
        return this == LINUX;
    }

    /**
     * @return true if an undo ({@code bbr_undo_cwnd}) restarts full-pipe detection and long-term sampling (Linux);
     * BBRplus's {@code bbr_undo_cwnd} only returns cwnd (its full-pipe flag is {@code full_bw_cnt} itself).
     */
    public boolean isUndoResettingEstimators()
    {
        return this == LINUX;
    }
}
