package io.pacelink.bbr;

/**
 * Unit-safe arithmetic on the quantities BBR models: bandwidth in bytes per second, time in nanoseconds, volumes in
 * bytes. {@code rate * interval} overflows a {@code long} above about 9.2e9 B·s, so products go through {@code double},
 * which is exact to 2^53 and far beyond any path's BDP.
 */
public final class BbrMath
{
    /**
     * Nanoseconds per second.
     */
    public static final long NANOS_PER_SECOND = 1_000_000_000L;

    /**
     * Upper bound of the send quantum: the size Linux caps a GSO/TSO burst at ({@code GSO_MAX_SIZE}).
     */
    public static final int MAX_SEND_QUANTUM_BYTES = 64 * 1024;

    /**
     * Pacing granularity the send quantum is sized for: about 1 ms of the pacing rate, as Linux's
     * {@code sk_pacing_shift = 10} does, so that timers of about 1 ms granularity still keep the rate.
     */
    public static final long SEND_QUANTUM_INTERVAL_NS = 1_000_000L;

    private BbrMath()
    {
    }

    /**
     * @param rateBytesPerSecond a rate.
     * @param intervalNs         an interval; negative counts as 0.
     * @return bytes delivered at that rate over the interval, rounded down.
     */
    public static long bytesInInterval(final long rateBytesPerSecond, final long intervalNs)
    {
        if (intervalNs <= 0 || rateBytesPerSecond <= 0)
        {
            return 0;
        }
        return (long)((double)rateBytesPerSecond * intervalNs / NANOS_PER_SECOND);
    }

    /**
     * @param bytes      a volume.
     * @param intervalNs the time it took, positive.
     * @return the rate in bytes per second, rounded down.
     */
    public static long rateBytesPerSecond(final long bytes, final long intervalNs)
    {
        return (long)((double)bytes * NANOS_PER_SECOND / intervalNs);
    }

    /**
     * Bandwidth-delay product with a gain, rounded up so the estimate cannot ratchet itself down (Linux
     * {@code bbr_bdp}: {@code ceil(bw * min_rtt * gain)}).
     *
     * @param bandwidthBytesPerSecond the bandwidth estimate.
     * @param rttNs                   the round-trip time.
     * @param gain                    the multiplier.
     * @return bytes.
     */
    public static long bdpBytes(final long bandwidthBytesPerSecond, final long rttNs, final double gain)
    {
        return (long)Math.ceil((double)bandwidthBytesPerSecond * rttNs * gain / NANOS_PER_SECOND);
    }

    /**
     * Send quantum for a pacing rate in user space: about 1 ms of the rate, at least two datagrams and at most 64 KB
     * (draft-ietf-ccwg-bbr {@code BBRSetSendQuantum}; the user-space analogue of Linux {@code bbr_tso_segs_goal}).
     *
     * @param pacingRateBytesPerSecond the pacing rate.
     * @param maxDatagramSizeBytes     the maximum datagram size.
     * @return bytes the pacer may release back to back.
     */
    public static int sendQuantumBytes(final long pacingRateBytesPerSecond, final int maxDatagramSizeBytes)
    {
        final long burstBytes = bytesInInterval(pacingRateBytesPerSecond, SEND_QUANTUM_INTERVAL_NS);
        return (int)Math.max(2L * maxDatagramSizeBytes, Math.min(MAX_SEND_QUANTUM_BYTES, burstBytes));
    }
}
