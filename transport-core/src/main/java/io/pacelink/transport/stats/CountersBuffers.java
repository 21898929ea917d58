package io.pacelink.transport.stats;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

import java.nio.ByteBuffer;

/**
 * Creates the counters store of an endpoint: direct buffers (so the values are 8-byte aligned for atomic access and
 * could be memory-mapped for a reader in another process) sized from the values buffer, with the metadata buffer
 * Agrona requires beside it.
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
        final int metadataBufferBytes =
            valuesBufferBytes * (CountersReader.METADATA_LENGTH / CountersReader.COUNTER_LENGTH);
        return new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(metadataBufferBytes)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(valuesBufferBytes)));
    }
}
