package io.pacelink.transport.engine;

import io.pacelink.transport.recovery.AckRanges;
import io.pacelink.transport.wire.AckFrameFlyweight;
import io.pacelink.transport.wire.PacketDecoder;

/**
 * Decodes an ACK frame's gap/length encoding (RFC 9000 section 19.3.1) into absolute packet-number ranges, largest
 * first, so loss recovery can walk them by index, with the frame's ECN counts if it carries them (RFC 9000 section
 * 19.3.2). Reused for every ACK frame.
 */
final class AckFrameRanges implements AckRanges
{
    private final long[] smallest = new long[PacketDecoder.MAX_ACK_RANGES + 1];
    private final long[] largest = new long[PacketDecoder.MAX_ACK_RANGES + 1];
    private int count;
    private boolean hasEcnCounts;
    private long ect0Count;
    private long ect1Count;
    private long ceCount;

    /**
     * @param ack a validated ACK frame (the decoder checked that no range underflows packet number 0).
     * @return this.
     */
    AckFrameRanges wrap(final AckFrameFlyweight ack)
    {
        long rangeLargest = ack.largestAcked();
        long rangeSmallest = rangeLargest - ack.firstRange();
        largest[0] = rangeLargest;
        smallest[0] = rangeSmallest;
        count = 1;

        final int additionalRanges = ack.rangeCount();
        for (int i = 0; i < additionalRanges; i++)
        {
            // RFC 9000 19.3.1: largest = previous smallest - gap - 2; smallest = largest - length.
            rangeLargest = rangeSmallest - ack.gap(i) - 2;
            rangeSmallest = rangeLargest - ack.rangeLength(i);
            largest[count] = rangeLargest;
            smallest[count] = rangeSmallest;
            count++;
        }
        hasEcnCounts = ack.hasEcnCounts();
        ect0Count = hasEcnCounts ? ack.ect0Count() : 0;
        ect1Count = hasEcnCounts ? ack.ect1Count() : 0;
        ceCount = hasEcnCounts ? ack.ceCount() : 0;
        return this;
    }

    public long largestAcked()
    {
        return largest[0];
    }

    public int rangeCount()
    {
        return count;
    }

    public long rangeSmallest(final int index)
    {
        return smallest[index];
    }

    public long rangeLargest(final int index)
    {
        return largest[index];
    }

    public boolean hasEcnCounts()
    {
        return hasEcnCounts;
    }

    public long ect0Count()
    {
        return ect0Count;
    }

    public long ect1Count()
    {
        return ect1Count;
    }

    public long ceCount()
    {
        return ceCount;
    }
}
