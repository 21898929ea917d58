package io.pacelink.cli.perf;

/**
 * One stream over one reporting interval, as seen at one end.
 *
 * @param id           the stream's id in this end's report.
 * @param startSeconds the interval's start, from the test's start.
 * @param endSeconds   its end.
 * @param bytes        message bytes offered (by a sender) or received (by a receiver) in the interval.
 * @param sender       true if this end sends on the stream.
 * @param state        the sending connection's state at the interval's end (retransmits within the interval), or
 *                     null at a receiver.
 */
public record IntervalSample(
    int id, double startSeconds, double endSeconds, long bytes, boolean sender, SenderSample state)
{
    /**
     * @return the interval's length.
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
