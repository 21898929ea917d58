package io.pacelink.link;

import org.HdrHistogram.Histogram;

/**
 * What happened on one link direction: packets offered, lost at random, dropped by the policer or the queue, marked
 * CE by the queue (counted apart from drops: a mark delivers the packet), ECN-rewritten, duplicated, corrupted,
 * served by the bottleneck, delivered and reordered, and the queueing delay each served packet saw.
 * Written by the link's single thread; read it from that thread (the relay publishes copies for other threads).
 */
public final class LinkCounters
{
    /**
     * Largest queueing delay the histogram tracks: 100 s.
     */
    public static final long MAX_TRACKED_DELAY_NS = 100_000_000_000L;

    private static final long LOWEST_DISCERNIBLE_DELAY_NS = 1_000L;

    long offeredPackets;
    long offeredBytes;
    long randomLossPackets;
    long duplicatedPackets;
    long corruptedPackets;
    long policedPackets;
    long queueDropPackets;
    long queueMarkPackets;
    long ecnRewrittenPackets;
    long servedPackets;
    long servedBytes;
    long deliveredPackets;
    long deliveredBytes;
    long reorderedPackets;
    long maxReorderDistance;
    private final Histogram queueDelayNs = new Histogram(LOWEST_DISCERNIBLE_DELAY_NS, MAX_TRACKED_DELAY_NS, 3);

    /**
     * @return packets handed to the link, before loss and duplication.
     */
    public long offeredPackets()
    {
        return offeredPackets;
    }

    /**
     * @return bytes handed to the link.
     */
    public long offeredBytes()
    {
        return offeredBytes;
    }

    /**
     * @return packets dropped by the random loss model.
     */
    public long randomLossPackets()
    {
        return randomLossPackets;
    }

    /**
     * @return extra copies made by duplication.
     */
    public long duplicatedPackets()
    {
        return duplicatedPackets;
    }

    /**
     * @return packets with a flipped bit.
     */
    public long corruptedPackets()
    {
        return corruptedPackets;
    }

    /**
     * @return packets the token-bucket policer dropped (they exceeded its rate and bucket).
     */
    public long policedPackets()
    {
        return policedPackets;
    }

    /**
     * @return packets dropped by the bottleneck queue (full on arrival, or by its AQM).
     */
    public long queueDropPackets()
    {
        return queueDropPackets;
    }

    /**
     * @return packets the bottleneck queue marked CE instead of dropping (RED or CoDel with ECN, a step threshold).
     */
    public long queueMarkPackets()
    {
        return queueMarkPackets;
    }

    /**
     * @return packets whose ECN field the path rewrote on arrival ({@code ecn_rewrite=}).
     */
    public long ecnRewrittenPackets()
    {
        return ecnRewrittenPackets;
    }

    /**
     * @return packets the bottleneck has finished serializing.
     */
    public long servedPackets()
    {
        return servedPackets;
    }

    /**
     * @return bytes the bottleneck has finished serializing: the numerator of utilisation.
     */
    public long servedBytes()
    {
        return servedBytes;
    }

    /**
     * @return packets delivered at the far end.
     */
    public long deliveredPackets()
    {
        return deliveredPackets;
    }

    /**
     * @return bytes delivered at the far end.
     */
    public long deliveredBytes()
    {
        return deliveredBytes;
    }

    /**
     * @return packets delivered after a packet that left the bottleneck later (overtaken because of jitter).
     */
    public long reorderedPackets()
    {
        return reorderedPackets;
    }

    /**
     * @return the largest reordering distance seen: for an overtaken packet, how many departures after it the
     * latest-departed packet delivered before it left (a receiver's {@code largest - pn} if packet numbers followed
     * the departures).
     */
    public long maxReorderDistance()
    {
        return maxReorderDistance;
    }

    /**
     * @return the time each served packet waited in the queue, in ns (1 µs resolution); do not modify.
     */
    public Histogram queueDelayNs()
    {
        return queueDelayNs;
    }

    void recordQueueDelay(final long delayNs)
    {
        queueDelayNs.recordValue(Math.min(delayNs, MAX_TRACKED_DELAY_NS));
    }
}
