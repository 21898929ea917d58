package io.pacelink.sim.results;

import io.pacelink.link.LinkCounters;
import io.pacelink.link.LinkDirection;

/**
 * What a bottleneck did over a run: utilisation, drops and (apart from them) CE marks, the queueing delay packets saw
 * and the reordering jitter caused. A link without a rate has no capacity, so its utilisation is not a number
 * ({@link #hasCapacity()} false).
 *
 * @param servedBytes     bytes the bottleneck serialized.
 * @param capacityBits    bits it could have serialized over the run.
 * @param utilisation     served bits / capacity ({@link Double#NaN} for a link without a rate).
 * @param randomLossPackets packets lost at random.
 * @param policedPackets    packets the token-bucket policer dropped.
 * @param queueDropPackets  packets the queue dropped.
 * @param queueDelay      queueing delay of the served packets.
 * @param reorderedPackets   packets overtaken by a packet that left the bottleneck after them.
 * @param maxReorderDistance largest reordering distance, in departures (see {@link LinkCounters#maxReorderDistance()}).
 * @param offeredPackets     packets offered to the link.
 * @param queueMarkPackets   packets the queue marked CE instead of dropping.
 */
public record LinkReport(
    long servedBytes,
    double capacityBits,
    double utilisation,
    long randomLossPackets,
    long policedPackets,
    long queueDropPackets,
    LatencySummary queueDelay,
    long reorderedPackets,
    long maxReorderDistance,
    long offeredPackets,
    long queueMarkPackets)
{
    /**
     * A report without the offered and marked counts, as before ECN.
     *
     * @param servedBytes        bytes the bottleneck serialized.
     * @param capacityBits       bits it could have serialized over the run.
     * @param utilisation        served bits / capacity.
     * @param randomLossPackets  packets lost at random.
     * @param policedPackets     packets the policer dropped.
     * @param queueDropPackets   packets the queue dropped.
     * @param queueDelay         queueing delay of the served packets.
     * @param reorderedPackets   packets overtaken.
     * @param maxReorderDistance largest reordering distance.
     * @deprecated use the canonical constructor or {@link #of}; to be removed in the next minor version.
     */
    @Deprecated
    public LinkReport(
        final long servedBytes,
        final double capacityBits,
        final double utilisation,
        final long randomLossPackets,
        final long policedPackets,
        final long queueDropPackets,
        final LatencySummary queueDelay,
        final long reorderedPackets,
        final long maxReorderDistance)
    {
        this(servedBytes, capacityBits, utilisation, randomLossPackets, policedPackets, queueDropPackets, queueDelay,
            reorderedPackets, maxReorderDistance, 0, 0);
    }

    /**
     * @param link       the link direction.
     * @param durationNs how long the run was, from time zero.
     * @return the report.
     */
    public static LinkReport of(final LinkDirection link, final long durationNs)
    {
        final LinkCounters counters = link.counters();
        final double capacityBits = link.spec().rate().capacityBits(0, durationNs);
        final double utilisation = Double.isInfinite(capacityBits) ? Double.NaN :
            capacityBits == 0 ? 0 : counters.servedBytes() * 8.0 / capacityBits;
        return new LinkReport(
            counters.servedBytes(),
            capacityBits,
            utilisation,
            counters.randomLossPackets(),
            counters.policedPackets(),
            counters.queueDropPackets(),
            LatencySummary.of(counters.queueDelayNs()),
            counters.reorderedPackets(),
            counters.maxReorderDistance(),
            counters.offeredPackets(),
            counters.queueMarkPackets());
    }

    /**
     * @return true if the link has a rate, and so a capacity and a utilisation.
     */
    public boolean hasCapacity()
    {
        return !Double.isInfinite(capacityBits);
    }
}
