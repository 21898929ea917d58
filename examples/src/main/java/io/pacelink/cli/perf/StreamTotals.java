package io.pacelink.cli.perf;

/**
 * One end of one stream over the whole test: what the sender offered or the receiver received, and when.
 *
 * @param id           the stream's id in that end's report.
 * @param sender       true for the sending end's totals.
 * @param startSeconds when the measured part began: 0, the test's start at that end, or the end of its omitted
 *                     seconds ({@code --omit}).
 * @param endSeconds   when the sender offered its last byte (or the time ran out), or when the receiver received
 *                     its last byte.
 * @param bytes        message bytes offered, or received, from {@code startSeconds} on.
 * @param senderTotals the sending connection's figures, or null at a receiver.
 * @param ecn          this end's ECN figures (null from a peer that does not send them).
 * @param omittedBytes message bytes offered, or received, in the omitted seconds before {@code startSeconds} (0 from
 *                     a peer that predates {@code --omit}).
 */
public record StreamTotals(
    int id, boolean sender, double startSeconds, double endSeconds, long bytes, SenderTotals senderTotals,
    EcnTotals ecn,
    long omittedBytes)
{
    /**
     * @return every message byte offered, or received, omitted seconds included: what a receiver must get.
     */
    public long allBytes()
    {
        return omittedBytes + bytes;
    }

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
