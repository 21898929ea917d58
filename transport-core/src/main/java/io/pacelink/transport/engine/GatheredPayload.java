package io.pacelink.transport.engine;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The DATA payload of the packet being built, left in its connection's send log for the port to send from there
 * ({@code DatagramPort.sendsGathered()}; docs/io.md, "With GSO off, the payload from the send log, in place"): the
 * packet's other bytes are written into the send batch, and this says where the payload lies. One per endpoint,
 * filled by the assembler and read by the send path for one packet at a time. Agent thread only.
 */
final class GatheredPayload
{
    private UnsafeBuffer segment;
    private int index;
    private int length;

    /**
     * Forget the last packet's payload: the next packet's is copied unless {@link #set} is called.
     */
    void clear()
    {
        segment = null;
        length = 0;
    }

    /**
     * @param segment the send log's segment (direct memory) holding the payload.
     * @param index   where the payload starts in it.
     * @param length  its length, positive.
     */
    void set(final UnsafeBuffer segment, final int index, final int length)
    {
        this.segment = segment;
        this.index = index;
        this.length = length;
    }

    /**
     * @return true if the packet's payload was left in place.
     */
    boolean isSet()
    {
        return null != segment;
    }

    UnsafeBuffer segment()
    {
        return segment;
    }

    int index()
    {
        return index;
    }

    int length()
    {
        return length;
    }
}
