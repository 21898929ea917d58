package io.pacelink.transport.stats;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.ConcurrentCountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.nio.ByteBuffer;

/**
 * Creates the in-memory counters store of an endpoint: direct buffers (so the values are 8-byte aligned for atomic
 * access) sized from the values buffer, with the metadata buffer Agrona requires beside it. {@link CountersFile}
 * is the memory-mapped alternative that other processes can read.
 */
public final class CountersBuffers
{
    private CountersBuffers()
    {
    }

    /**
     * @param valuesBufferBytes size of the values buffer, a multiple of {@link CountersReader#COUNTER_LENGTH}.
     * @return a counters manager safe for allocation from any thread (connections are opened on application
     * threads).
     */
    public static ConcurrentCountersManager newManager(final int valuesBufferBytes)
    {
        return new ConcurrentCountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(metadataBufferBytes(valuesBufferBytes))),
            new UnsafeBuffer(ByteBuffer.allocateDirect(valuesBufferBytes)));
    }

    /**
     * @param valuesBufferBytes size of the values buffer.
     * @return the size of the metadata buffer Agrona needs beside it (one metadata record per counter).
     */
    public static int metadataBufferBytes(final int valuesBufferBytes)
    {
        return valuesBufferBytes * (CountersReader.METADATA_LENGTH / CountersReader.COUNTER_LENGTH);
    }
}
