package io.pacelink.perf.path;

import io.pacelink.transport.recovery.AckRanges;

/**
 * The ACK frame of a receiver that got every packet except one in every {@code lossPeriod} (numbers
 * {@code k * lossPeriod + lossPeriod - 1}): the ranges below a given largest, computed arithmetically so that
 * building an ACK costs next to nothing next to processing it. Reports at most {@code maxRanges} ranges, newest
 * first, as a receiver that caps its ACK frames does.
 */
public final class PeriodicLossAckRanges implements AckRanges
{
    private final long lossPeriod;
    private final long[] rangeSmallest;
    private final long[] rangeLargest;
    private int rangeCount;

    /**
     * @param lossPeriod one packet in this many is lost; at least 2.
     * @param maxRanges  most ranges reported.
     */
    public PeriodicLossAckRanges(final long lossPeriod, final int maxRanges)
    {
        if (lossPeriod < 2 || maxRanges < 1)
        {
            throw new IllegalArgumentException("lossPeriod=" + lossPeriod + " maxRanges=" + maxRanges);
        }
        this.lossPeriod = lossPeriod;
        this.rangeSmallest = new long[maxRanges];
        this.rangeLargest = new long[maxRanges];
    }

    /**
     * @param packetNumber a packet number.
     * @return true if the receiver never gets it.
     */
    public boolean isLost(final long packetNumber)
    {
        return lossPeriod - 1 == packetNumber % lossPeriod;
    }

    /**
     * Describe the ACK frame whose largest acknowledged packet is {@code largestAcked}.
     *
     * @param largestAcked a packet number the receiver got ({@link #isLost} false).
     * @return this.
     */
    public PeriodicLossAckRanges wrap(final long largestAcked)
    {
        int count = 0;
        long largest = largestAcked;
        while (count < rangeLargest.length && largest >= 0)
        {
            // The newest lost number below 'largest', or -1 if none.
            final long lost = largest < lossPeriod ? -1 : (largest - lossPeriod) / lossPeriod * lossPeriod +
                lossPeriod - 1;
            rangeLargest[count] = largest;
            rangeSmallest[count] = lost + 1;
            count++;
            largest = lost - 1;
        }
        rangeCount = count;
        return this;
    }

    public long largestAcked()
    {
        return rangeLargest[0];
    }

    public int rangeCount()
    {
        return rangeCount;
    }

    public long rangeSmallest(final int i)
    {
        return rangeSmallest[i];
    }

    public long rangeLargest(final int i)
    {
        return rangeLargest[i];
    }
}
