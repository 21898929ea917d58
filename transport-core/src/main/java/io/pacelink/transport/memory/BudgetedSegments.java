package io.pacelink.transport.memory;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A {@link SegmentSource} any thread may use: each segment is a new heap array charged to the {@link MemoryBudget},
 * and one given back is credited and left to the garbage collector. For send buffers, whose segments the
 * application's thread commits inside {@code offer}; a send log reuses the segments its peer acknowledged and keeps
 * them until the connection closes, so this allocates only while the data a buffer holds grows.
 * <p>
 * Segments are heap arrays, or direct memory (cache-line aligned) where the endpoint's port sends a packet's payload
 * from the send log in place ({@code DatagramPort.sendsGathered()}): the kernel can copy only from memory that does
 * not move. A direct segment is freed, like a heap one, when the collector takes its buffer, so a thread still
 * writing into a segment of a closed log never writes freed memory. If direct memory runs out
 * ({@code -XX:MaxDirectMemorySize}), a segment is a heap array after all: its packets are then copied.
 */
public final class BudgetedSegments implements SegmentSource
{
    private final MemoryBudget budget;
    private final int segmentBytes;
    private final boolean direct;

    /**
     * Heap segments.
     *
     * @param budget       charged for every segment.
     * @param segmentBytes size of each segment.
     */
    public BudgetedSegments(final MemoryBudget budget, final int segmentBytes)
    {
        this(budget, segmentBytes, false);
    }

    /**
     * @param budget       charged for every segment.
     * @param segmentBytes size of each segment.
     * @param direct       true for segments in direct memory, false for heap arrays.
     */
    public BudgetedSegments(final MemoryBudget budget, final int segmentBytes, final boolean direct)
    {
        if (segmentBytes <= 0)
        {
            throw new IllegalArgumentException("segmentBytes must be positive: " + segmentBytes);
        }
        this.budget = budget;
        this.segmentBytes = segmentBytes;
        this.direct = direct;
    }

    /**
     * @return true if segments are made in direct memory.
     */
    public boolean isDirect()
    {
        return direct;
    }

    public int segmentBytes()
    {
        return segmentBytes;
    }

    public UnsafeBuffer acquire()
    {
        if (!budget.tryCommit(segmentBytes))
        {
            return null;
        }
        if (direct)
        {
            try
            {
                return new UnsafeBuffer(BufferUtil.allocateDirectAligned(segmentBytes, BitUtil.CACHE_LINE_LENGTH));
            }
            catch (final OutOfMemoryError ex)
            {
                // The JVM's direct memory limit ("Cannot reserve direct buffer memory", after the collector was
                // asked to free some): the heap may still have room.
            }
        }
        return new UnsafeBuffer(new byte[segmentBytes]);
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
