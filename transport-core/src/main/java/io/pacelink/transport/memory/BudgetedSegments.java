package io.pacelink.transport.memory;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A {@link SegmentSource} any thread may use: each segment is a new heap array charged to the {@link MemoryBudget},
 * and one given back is credited and left to the garbage collector. For send buffers, whose segments the
 * application's thread commits inside {@code offer}; a send log reuses the segments its peer acknowledged and keeps
 * them until the connection closes, so this allocates only while the data a buffer holds grows.
 */
public final class BudgetedSegments implements SegmentSource
{
    private final MemoryBudget budget;
    private final int segmentBytes;

    /**
     * @param budget       charged for every segment.
     * @param segmentBytes size of each segment.
     */
    public BudgetedSegments(final MemoryBudget budget, final int segmentBytes)
    {
        if (segmentBytes <= 0)
        {
            throw new IllegalArgumentException("segmentBytes must be positive: " + segmentBytes);
        }
        this.budget = budget;
        this.segmentBytes = segmentBytes;
    }

    public int segmentBytes()
    {
        return segmentBytes;
    }

    public UnsafeBuffer acquire()
    {
        return budget.tryCommit(segmentBytes) ? new UnsafeBuffer(new byte[segmentBytes]) : null;
    }

    public void release(final UnsafeBuffer segment)
    {
        budget.release(segmentBytes);
    }

    /**
     * Credit segments whose user is gone (its buffer closed) without handing each one back.
     *
     * @param segments how many.
     */
    public void releaseSegments(final long segments)
    {
        budget.release(segments * segmentBytes);
    }

    /**
     * Charge one segment whatever the limit: it was credited by {@link #releaseSegments} before it was allocated.
     */
    public void chargeCredited()
    {
        budget.commit(segmentBytes);
    }
}
