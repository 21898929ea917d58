package io.pacelink.transport.recovery;

/**
 * A reusable ACK frame for tests: ranges added highest first.
 */
final class TestAckRanges implements AckRanges
{
    private final long[] smallest = new long[64];
    private final long[] largest = new long[64];
    private int count;
    private boolean hasEcnCounts;
    private long ect0;
    private long ect1;
    private long ce;

    TestAckRanges clear()
    {
        count = 0;
        hasEcnCounts = false;
        return this;
    }

    /**
     * Give the frame ECN counts (after {@link #of}, which clears them).
     */
    TestAckRanges ecn(final long ect0Count, final long ect1Count, final long ceCount)
    {
        hasEcnCounts = true;
        ect0 = ect0Count;
        ect1 = ect1Count;
        ce = ceCount;
        return this;
    }

    TestAckRanges range(final long smallestAcked, final long largestAcked)
    {
        smallest[count] = smallestAcked;
        largest[count] = largestAcked;
        count++;
        return this;
    }

    /**
     * @param pairs smallest/largest pairs, highest range first.
     * @return this, holding exactly those ranges.
     */
    TestAckRanges of(final long... pairs)
    {
        clear();
        for (int i = 0; i < pairs.length; i += 2)
        {
            range(pairs[i], pairs[i + 1]);
        }
        return this;
    }

    public long largestAcked()
    {
        return largest[0];
    }

    public int rangeCount()
    {
        return count;
    }

    public long rangeSmallest(final int i)
    {
        return smallest[i];
    }

    public long rangeLargest(final int i)
    {
        return largest[i];
    }

    public boolean hasEcnCounts()
    {
        return hasEcnCounts;
    }

    public long ect0Count()
    {
        return ect0;
    }

    public long ect1Count()
    {
        return ect1;
    }

    public long ceCount()
    {
        return ce;
    }
}
