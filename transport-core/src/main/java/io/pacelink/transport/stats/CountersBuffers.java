package io.pacelink.transport.stats;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.ConcurrentCountersManager;
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
     * @return a counters manager safe for allocation from any thread (connections are opened on application
     * threads).
     */
    public static ConcurrentCountersManager newManager(final int valuesBufferBytes)
    {
        final int metadataBufferBytes =
            valuesBufferBytes * (CountersReader.METADATA_LENGTH / CountersReader.COUNTER_LENGTH);
        return new ConcurrentCountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(metadataBufferBytes)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(valuesBufferBytes)));
    }
}
