package io.pacelink.transport.memory;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Fixed-size heap segments for stream buffers, charged to a {@link MemoryBudget}. A segment given back is kept for
 * reuse up to a retention limit and otherwise dropped (its bytes credited to the budget, its memory left to the
 * garbage collector), so steady traffic recycles segments without allocating and a burst leaves no hoard behind.
 * <p>
 * Segments are heap arrays of {@link #DEFAULT_SEGMENT_BYTES}: far below the size at which a garbage collector treats
 * an object as humongous, and, unlike direct memory, never at risk of being written after being freed by a thread
 * that still reads it. Not thread safe: one pool per agent.
 */
public final class SegmentPool implements SegmentSource
{
    /**
     * Bytes of a stream buffer segment: the unit in which buffers grow.
     */
    public static final int DEFAULT_SEGMENT_BYTES = 64 * 1024;

    private final MemoryBudget budget;
    private final int segmentBytes;
    private final int retainedSegments;
    private UnsafeBuffer[] free = new UnsafeBuffer[16];
    private int freeCount;

    /**
     * @param budget         charged for every segment allocated, credited for every one dropped.
     * @param segmentBytes   size of each segment.
     * @param retainedBytes  the most bytes of free segments kept for reuse.
     */
    public SegmentPool(final MemoryBudget budget, final int segmentBytes, final long retainedBytes)
    {
        if (segmentBytes <= 0 || retainedBytes < 0)
        {
            throw new IllegalArgumentException("segmentBytes=" + segmentBytes + " retainedBytes=" + retainedBytes);
        }
        this.budget = budget;
        this.segmentBytes = segmentBytes;
        this.retainedSegments = (int)Math.min(Integer.MAX_VALUE, retainedBytes / segmentBytes);
    }

    /**
     * @return the size of every segment.
     */
    public int segmentBytes()
    {
        return segmentBytes;
    }

    /**
     * @return the budget segments are charged to.
     */
    public MemoryBudget budget()
    {
        return budget;
    }

    /**
     * @return a segment (contents undefined), or null if none is free and the budget refuses a new one.
     */
    public UnsafeBuffer acquire()
    {
        if (freeCount > 0)
        {
            final UnsafeBuffer segment = free[--freeCount];
            free[freeCount] = null;
            return segment;
        }
        return budget.tryCommit(segmentBytes) ? new UnsafeBuffer(new byte[segmentBytes]) : null;
    }

    /**
     * @param segment one {@link #acquire()} returned, no longer referenced by its user.
     */
    public void release(final UnsafeBuffer segment)
    {
        if (freeCount == retainedSegments)
        {
            budget.release(segmentBytes);
            return;
        }
        if (freeCount == free.length)
        {
            free = Arrays.copyOf(free, Math.min(retainedSegments, 2 * free.length));
        }
        free[freeCount++] = segment;
    }

    /**
     * @return free segments held for reuse.
     */
    public int freeSegments()
    {
        return freeCount;
    }
}
