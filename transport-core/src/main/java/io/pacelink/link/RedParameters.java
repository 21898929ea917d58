package io.pacelink.link;

/**
 * RED's parameters for one queue or one flow (Floyd and Jacobson, "Random Early Detection Gateways for Congestion
 * Avoidance", 1993; Linux {@code include/net/red.h}), resolved from a path spec's {@link AqmSpec} as tc resolves them
 * ({@code tc/q_red.c}, {@code q_sfq.c}, {@code tc_red.c}): {@code max} defaults to a quarter of the limit,
 * {@code min} to a third of {@code max}, the burst the average absorbs to {@code (2 min + max) / (3 avpkt)} packets,
 * and the EWMA weight to the largest power of two below 1 that lets such a burst through
 * ({@code tc_red_eval_ewma}: {@code burst + 1 - min / avpkt <= (1 - (1 - W)^burst) / W}).
 *
 * @param minBytes        average backlog where marking starts.
 * @param maxBytes        average backlog from which every packet is marked (or dropped).
 * @param maxProbability  marking probability reached at {@code max} (RED's {@code max_p}).
 * @param weight          the EWMA's weight W, a power of two ({@code 2^-Wlog}).
 * @param idlePacketNs    time to send one {@code avpkt} at the link rate: an idle spell of that long decays the average
 *                        as one empty arrival would (Floyd and Jacobson section 4; 0 for no decay).
 */
public record RedParameters(long minBytes, long maxBytes, double maxProbability, double weight, long idlePacketNs)
{
    /**
     * @param aqm                the spec's RED settings.
     * @param limitBytes         the hard limit the thresholds derive from (RED's {@code limit}, SFQ-RED's
     *                           {@code redflowlimit}).
     * @param rateBitsPerSecond  the link's rate, for the idle decay; {@link RateSchedule#UNLIMITED_BITS_PER_SECOND}
     *                           for none.
     * @return the resolved parameters.
     * @throws IllegalArgumentException if {@code max} exceeds the limit, {@code min} is not below {@code max}, or no
     *                                  EWMA weight fits the burst (tc's own checks).
     */
    public static RedParameters from(final AqmSpec aqm, final long limitBytes, final long rateBitsPerSecond)
    {
        final long maxBytes = 0 != aqm.maxBytes() ? aqm.maxBytes() : limitBytes / 4;
        final long minBytes = 0 != aqm.minBytes() ? aqm.minBytes() : maxBytes / 3;
        if (maxBytes > limitBytes)
        {
            throw new IllegalArgumentException("max (" + maxBytes + " bytes) is larger than the limit (" + limitBytes +
                " bytes)");
        }
        if (minBytes >= maxBytes || minBytes <= 0)
        {
            throw new IllegalArgumentException("min (" + minBytes + " bytes) must be positive and below max (" +
                maxBytes + " bytes); give larger thresholds or a larger limit");
        }
        final int avpktBytes = aqm.avpktBytes();
        final long burstPackets = (2 * minBytes + maxBytes) / (3L * avpktBytes);
        final double weight = ewmaWeight(minBytes, burstPackets, avpktBytes);
        final boolean hasRate = RateSchedule.UNLIMITED_BITS_PER_SECOND != rateBitsPerSecond && rateBitsPerSecond > 0;
        final long idlePacketNs = hasRate ? (long)(avpktBytes * 8.0 * 1e9 / rateBitsPerSecond) : 0;
        return new RedParameters(minBytes, maxBytes, aqm.probability(), weight, idlePacketNs);
    }

    /**
     * tc's {@code tc_red_eval_ewma}: the largest W = 2^-n that still lets a burst of {@code burst} packets through
     * without the average reaching {@code min}.
     */
    private static double ewmaWeight(final long minBytes, final long burstPackets, final int avpktBytes)
    {
        final double a = burstPackets + 1 - (double)minBytes / avpktBytes;
        if (a < 1.0)
        {
            throw new IllegalArgumentException("the burst of " + burstPackets + " packets of avpkt " + avpktBytes +
                " bytes is too small for min " + minBytes + " bytes: lower avpkt or raise max");
        }
        double weight = 0.5;
        for (int wlog = 1; wlog < 32; wlog++, weight /= 2)
        {
            if (a <= (1 - Math.pow(1 - weight, burstPackets)) / weight)
            {
                return weight;
            }
        }
        throw new IllegalArgumentException("no EWMA weight fits a burst of " + burstPackets + " packets");
    }
}
