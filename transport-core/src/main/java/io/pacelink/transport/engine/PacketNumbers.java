package io.pacelink.transport.engine;

import io.pacelink.transport.recovery.LossRecovery;

/**
 * A connection's packet numbers: never reused (RFC 9000 section 12.3), and now and then one skipped at random
 * (RFC 9000 section 21.4): a peer that acknowledges the skipped number acknowledges a packet it cannot have received,
 * and is closed for it.
 */
final class PacketNumbers
{
    /**
     * Packets between two deliberately skipped packet numbers are drawn uniformly from [1, this): one skip every
     * 256 packets on average. Each skip opens a gap the peer acknowledges around until it learns, from an
     * acknowledgement of its ACK, that the gap was seen (RFC 9000 section 13.2.4).
     */
    private static final int MAX_PACKETS_BETWEEN_SKIPS = 512;

    private final SeededRandom random;
    private long nextPacketNumber;
    private long nextSkippedPacketNumber;

    /**
     * @param random     draws the skips; the first is drawn here.
     * @param isSkipping false to never skip ({@code PacelinkContext.packetNumberSkipping}, simulated endpoints only).
     */
    PacketNumbers(final SeededRandom random, final boolean isSkipping)
    {
        this.random = random;
        // Drawn either way, so switching skips off leaves every other draw as it was.
        final long firstSkippedPacketNumber = 1 + random.nextInt(MAX_PACKETS_BETWEEN_SKIPS);
        this.nextSkippedPacketNumber = isSkipping ? firstSkippedPacketNumber : Long.MAX_VALUE;
    }

    /**
     * @param lossRecovery whose ring must be able to track a skipped number too.
     * @return the number of the next tracked packet, one skipped before it now and then.
     */
    long take(final LossRecovery lossRecovery)
    {
        long packetNumber = nextPacketNumber;
        if (packetNumber >= nextSkippedPacketNumber)
        {
            if (lossRecovery.canSend(packetNumber + 1))
            {
                packetNumber++;
            }
            nextSkippedPacketNumber = packetNumber + 1 + random.nextInt(MAX_PACKETS_BETWEEN_SKIPS);
        }
        nextPacketNumber = packetNumber + 1;
        return packetNumber;
    }

    /**
     * @return the next number, never skipping: for a CLOSE, which is not tracked.
     */
    long takeUntracked()
    {
        return nextPacketNumber++;
    }
}
