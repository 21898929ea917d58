package io.pacelink.bbr;

/**
 * Constants BBRv1 (Linux {@code net/ipv4/tcp_bbr.c}) and BBRv3 (draft-ietf-ccwg-bbr-06) share with the same values and
 * meaning, kept in one place so the two versions cannot drift.
 */
public final class BbrConstants
{
    /**
     * Inflight floor in packets, also ProbeRTT's cwnd (Linux {@code bbr_cwnd_min_target}, draft
     * {@code BBR.MinPipeCwnd = 4 * SMSS}).
     */
    public static final int MIN_PIPE_CWND_PACKETS = 4;

    /**
     * STARTUP is over when max_bw grew by less than this factor (Linux {@code bbr_full_bw_thresh = 5/4}, draft
     * {@code BBRCheckFullBWReached}) ...
     */
    public static final double FULL_BANDWIDTH_GROWTH = 1.25;

    /**
     * ... for this many consecutive non-app-limited rounds (Linux {@code bbr_full_bw_cnt}, draft
     * {@code BBR.full_bw_count >= 3}).
     */
    public static final int FULL_BANDWIDTH_ROUNDS = 3;

    /**
     * RTT assumed for the initial pacing rate before any sample (Linux {@code bbr_init_pacing_rate_from_rtt}, draft
     * {@code BBRInitPacingRate}: {@code nominal_bandwidth = InitialCwnd / (SRTT ? SRTT : 1ms)}).
     */
    public static final long NOMINAL_RTT_NS = 1_000_000L;

    private BbrConstants()
    {
    }

    /**
     * @param maxDatagramSizeBytes the maximum datagram size.
     * @return {@link #MIN_PIPE_CWND_PACKETS} datagrams in bytes.
     */
    public static long minPipeCwndBytes(final int maxDatagramSizeBytes)
    {
        return (long)MIN_PIPE_CWND_PACKETS * maxDatagramSizeBytes;
    }
}
