package io.pacelink.link;

/**
 * How fast a link's bottleneck serves bytes over time: a constant rate, rate steps at given times
 * ({@link StepRateSchedule}) or a mahimahi delivery-opportunity trace ({@link MahimahiTrace}). Immutable; each link
 * direction takes its own stateful {@link Server}.
 */
public interface RateSchedule
{
    /**
     * Rate of a link with no bottleneck: packets are never serialized, only delayed.
     */
    long UNLIMITED_BITS_PER_SECOND = Long.MAX_VALUE;

    /**
     * @return a new server that starts at time zero.
     */
    Server newServer();

    /**
     * The rate a {@code queue=Nbdp} limit is sized with: the first step's rate of a step schedule, the mean rate over
     * one period of a trace, or {@link #UNLIMITED_BITS_PER_SECOND}.
     *
     * @return the nominal rate in bits per second.
     */
    long nominalBitsPerSecond();

    /**
     * The bits the link could carry in [fromNs, toNs) if it were busy all the time: the denominator of link
     * utilisation.
     *
     * @param fromNs start of the interval.
     * @param toNs   end of the interval, exclusive.
     * @return the capacity in bits, {@link Double#POSITIVE_INFINITY} for an unlimited link.
     */
    double capacityBits(long fromNs, long toNs);

    /**
     * @return this schedule in path-spec form, e.g. {@code rate=100mbit} or {@code trace=cell.down}.
     */
    String toSpec();

    /**
     * The bottleneck of one link direction: it serves one packet at a time, and is told when each one starts.
     * Calls come with non-decreasing start times (a packet starts when the previous one completes, or later).
     */
    interface Server
    {
        /**
         * @param startNs     when the bottleneck starts serving the packet (it is idle from then on otherwise).
         * @param lengthBytes the packet's length.
         * @return when the packet's last bit has been serialized.
         */
        long serviceCompleteNs(long startNs, int lengthBytes);
    }
}
