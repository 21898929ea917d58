package io.pacelink.transport.recovery;

/**
 * The acknowledged ranges of one ACK frame as {@link LossRecovery} reads them (RFC 9000 section 19.3.1 semantics),
 * so that recovery does not depend on the wire codec. Range 0 is the first ACK range, ending at the largest
 * acknowledged packet; the others follow in descending order, separated by gaps of unacknowledged numbers.
 */
public interface AckRanges
{
    /**
     * @return the largest packet number acknowledged by the frame.
     */
    long largestAcked();

    /**
     * @return the number of ranges, including the first.
     */
    int rangeCount();

    /**
     * @param i range index, 0 for the first (highest) range.
     * @return the smallest packet number of the range.
     */
    long rangeSmallest(int i);

    /**
     * @param i range index, 0 for the first (highest) range.
     * @return the largest packet number of the range.
     */
    long rangeLargest(int i);

    /**
     * @return true if the frame carries ECN counts (RFC 9000 section 19.3.2).
     */
    default boolean hasEcnCounts()
    {
        return false;
    }

    /**
     * @return the peer's ECT(0) count; only with {@link #hasEcnCounts()}.
     */
    default long ect0Count()
    {
        return 0;
    }

    /**
     * @return the peer's ECT(1) count; only with {@link #hasEcnCounts()}.
     */
    default long ect1Count()
    {
        return 0;
    }

    /**
     * @return the peer's ECN-CE count; only with {@link #hasEcnCounts()}.
     */
    default long ceCount()
    {
        return 0;
    }
}
