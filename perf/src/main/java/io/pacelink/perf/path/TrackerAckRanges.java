package io.pacelink.perf.path;

import io.pacelink.transport.ack.ReceivedPacketTracker;
import io.pacelink.transport.recovery.AckRanges;

/**
 * The ranges a {@link ReceivedPacketTracker} holds, read as the ACK frame it is about to write: newest range first,
 * at most {@link ReceivedPacketTracker#DEFAULT_MAX_RANGES} of them, so {@link PathDriver} can hand the receiver's
 * acknowledgement to the sender's loss recovery without encoding and decoding it.
 */
final class TrackerAckRanges implements AckRanges
{
    private final ReceivedPacketTracker tracker;

    TrackerAckRanges(final ReceivedPacketTracker tracker)
    {
        this.tracker = tracker;
    }

    public long largestAcked()
    {
        return tracker.rangeLargest(0);
    }

    public int rangeCount()
    {
        return tracker.rangeCount();
    }

    public long rangeSmallest(final int i)
    {
        return tracker.rangeSmallest(i);
    }

    public long rangeLargest(final int i)
    {
        return tracker.rangeLargest(i);
    }
}
