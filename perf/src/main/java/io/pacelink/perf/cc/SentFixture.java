package io.pacelink.perf.cc;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.testing.RecordingController;

/**
 * A recorded {@link CongestionController#onPacketSent} call.
 */
final class SentFixture extends TraceEvent
{
    private final long nowNs;
    private final long packetNumber;
    private final int sizeBytes;
    private final long bytesInFlight;
    private final boolean isRetransmission;

    SentFixture(final RecordingController.Sent sent, final ReplayAdjuster adjuster)
    {
        super(sent.rtt(), adjuster);
        this.nowNs = sent.nowNs();
        this.packetNumber = sent.packetNumber();
        this.sizeBytes = sent.sizeBytes();
        this.bytesInFlight = sent.bytesInFlight();
        this.isRetransmission = sent.isRetransmission();
    }

    void replay(final CongestionController controller)
    {
        controller.onPacketSent(
            adjuster.timeNs(nowNs),
            adjuster.packetNumber(packetNumber),
            sizeBytes,
            adjuster.inFlightBytes(bytesInFlight),
            isRetransmission);
    }
}
