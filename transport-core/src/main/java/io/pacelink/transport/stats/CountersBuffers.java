package io.pacelink.transport.stats;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
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
     * @return a counters manager for one writer, the endpoint's agent (any thread may read it).
     */
    public static CountersManager newManager(final int valuesBufferBytes)
    {
        return new CountersManager(
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
