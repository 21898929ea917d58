package io.pacelink.perf.wire;

import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.CloseFrameFlyweight;
import io.pacelink.transport.wire.DataFrameFlyweight;
import io.pacelink.transport.wire.FrameVisitor;
import io.pacelink.transport.wire.HandshakeFrameFlyweight;

/**
 * Reads what a receiver reads from each frame (every ACK range, the DATA frame's stream, offset and payload bounds)
 * and folds it into a checksum, so the decoding work cannot be optimised away. The payload bytes themselves are not
 * read: copying them out is the reassembly's cost, not the decoder's.
 */
public final class ChecksumFrameVisitor implements FrameVisitor
{
    private long checksum;

    /**
     * @return the fold of every field read so far.
     */
    public long checksum()
    {
        return checksum;
    }

    public void onAck(final AckFrameFlyweight ack)
    {
        long rangeSmallest = ack.largestAcked() - ack.firstRange();
        long sum = rangeSmallest + ack.ackDelayUs();
        for (int i = 0, count = ack.rangeCount(); i < count; i++)
        {
            final long rangeLargest = AckFrameFlyweight.nextRangeLargest(rangeSmallest, ack.gap(i));
            rangeSmallest = AckFrameFlyweight.rangeSmallest(rangeLargest, ack.rangeLength(i));
            sum += rangeLargest ^ rangeSmallest;
        }
        fold(sum);
    }

    public void onData(final DataFrameFlyweight data)
    {
        fold(data.streamId() + data.streamOffset() + data.payloadOffset() + data.payloadLength() +
            (data.fin() ? 1 : 0));
    }

    public void onMaxData(final long maximumDataBytes)
    {
        fold(maximumDataBytes);
    }

    public void onMaxStreamData(final int streamId, final long maximumStreamDataBytes)
    {
        fold(streamId + maximumStreamDataBytes);
    }

    public void onHandshake(final HandshakeFrameFlyweight handshake)
    {
        fold(handshake.sourceConnectionId());
    }

    public void onClose(final CloseFrameFlyweight close)
    {
        fold(close.errorCode());
    }

    public void onPing()
    {
        fold(1);
    }

    public void onUnknownFrame(final int frameType)
    {
        fold(frameType);
    }

    private void fold(final long value)
    {
        checksum = checksum * 31 + value;
    }
}
