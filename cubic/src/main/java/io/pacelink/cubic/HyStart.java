package io.pacelink.cubic;

import io.pacelink.transport.cc.ControllerCounters;

/**
 * Ends CUBIC's slow start before a loss does, when the RTT or the ACK clock shows that the bottleneck is full:
 * HyStart++ (RFC 9406, {@code cubic.hystart=rfc9406}, the default), Linux's HyStart ({@code tcp_cubic.c},
 * {@code linux}) or nothing ({@code off}). {@link CubicController} feeds it every packet sent and every ACK frame
 * outside recovery, and tells it about congestion events.
 */
interface HyStart
{
    /**
     * @param mode     the {@code cubic.hystart} choice.
     * @param counters where a variant registers its counters.
     * @return the variant.
     */
    static HyStart of(final CubicParameters.HyStartMode mode, final ControllerCounters counters)
    {
        return switch (mode)
        {
            case RFC9406 -> new HyStartPlusPlus(true);
            case LINUX -> new LinuxHyStart(counters);
            case OFF -> new HyStartPlusPlus(false);
        };
    }

    /**
     * @param packetNumber number of a packet that counts towards bytes in flight, just sent.
     */
    void onPacketSent(long packetNumber);

    /**
     * One ACK frame received outside recovery.
     *
     * @param nowNs                    when it was processed.
     * @param largestAckedPacketNumber number of the largest newly acknowledged packet, negative if none.
     * @param latestRttNs              the frame's RTT sample (of its newest newly acknowledged packet), negative if
     *                                 none.
     * @param isInSlowStart            true if cwnd is below ssthresh.
     * @param congestionWindowPackets  cwnd in whole datagrams, before this frame's growth.
     * @param pacingRateBytesPerSecond the pacing rate before this frame's growth.
     * @return true if slow start ends now: the caller enters congestion avoidance with ssthresh = cwnd.
     */
    boolean onAck(
        long nowNs,
        long largestAckedPacketNumber,
        long latestRttNs,
        boolean isInSlowStart,
        long congestionWindowPackets,
        long pacingRateBytesPerSecond);

    /**
     * A congestion event reduced the window.
     */
    void onCongestionEvent();

    /**
     * The congestion event last reported was spurious and its reduction has been undone.
     */
    void onCongestionEventUndone();

    /**
     * Persistent congestion (RFC 9002 section 7.6) collapsed the window: what Linux handles as a retransmission
     * timeout.
     */
    void onPersistentCongestion();

    /**
     * @return true while in HyStart++'s Conservative Slow Start.
     */
    boolean isInConservativeSlowStart();
}
