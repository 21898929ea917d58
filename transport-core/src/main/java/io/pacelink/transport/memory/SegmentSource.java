package io.pacelink.transport.memory;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Where a stream buffer gets its fixed-size segments and gives them back.
 */
public interface SegmentSource
{
    /**
     * @return the size of every segment.
     */
    int segmentBytes();

    /**
     * @return a segment, or null if the memory budget refuses one.
     */
    UnsafeBuffer acquire();

    /**
     * @param segment one {@link #acquire()} returned, no longer used.
     */
    void release(UnsafeBuffer segment);
}
