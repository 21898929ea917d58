package io.pacelink.cli.perf;

/**
 * One end of one stream over the whole test: what the sender offered or the receiver received, and when.
 *
 * @param id           the stream's id in that end's report.
 * @param sender       true for the sending end's totals.
 * @param startSeconds 0: the test's start at that end.
 * @param endSeconds   when the sender offered its last byte (or the time ran out), or when the receiver received
 *                     its last byte.
 * @param bytes        message bytes offered, or received.
 * @param senderTotals the sending connection's figures, or null at a receiver.
 * @param ecn          this end's ECN figures (null from a peer that does not send them).
 */
public record StreamTotals(
    int id, boolean sender, double startSeconds, double endSeconds, long bytes, SenderTotals senderTotals,
    EcnTotals ecn)
{
    /**
     * @return the time the totals cover.
     */
    public double seconds()
    {
        return endSeconds - startSeconds;
    }

    /**
     * @return bytes per second in bits.
     */
    public double bitsPerSecond()
    {
        return Rates.bitsPerSecond(bytes, seconds());
    }
}
