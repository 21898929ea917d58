package io.pacelink.perf.cc;

import io.pacelink.transport.cc.CongestionController;

/**
 * A recorded {@link CongestionController#onPacketSent} call.
 */
final class SentFixture extends TraceEvent
{
    private final long nowNs;
    private final long packetNumber;
    private final int sizeBytes;
    private final long bytesInFlightBytes;
    private final boolean isRetransmission;

    SentFixture(
        final RttSnapshot rtt,
        final ReplayAdjuster adjuster,
        final long nowNs,
        final long packetNumber,
        final int sizeBytes,
        final long bytesInFlightBytes,
        final boolean isRetransmission)
    {
        super(rtt, adjuster);
        this.nowNs = nowNs;
        this.packetNumber = packetNumber;
        this.sizeBytes = sizeBytes;
        this.bytesInFlightBytes = bytesInFlightBytes;
        this.isRetransmission = isRetransmission;
    }

    void replay(final CongestionController controller)
    {
        controller.onPacketSent(
            adjuster.timeNs(nowNs),
            adjuster.packetNumber(packetNumber),
            sizeBytes,
            adjuster.inFlightBytes(bytesInFlightBytes),
            isRetransmission);
    }
}
