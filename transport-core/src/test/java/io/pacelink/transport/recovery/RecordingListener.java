package io.pacelink.transport.recovery;

import java.util.ArrayList;
import java.util.List;

/**
 * Records packet outcomes in the shared call log and by kind.
 */
final class RecordingListener implements PacketOutcomeListener
{
    final List<String> log;
    final List<Long> acked = new ArrayList<>();
    final List<Long> lost = new ArrayList<>();
    final List<Long> lostStreamOffsets = new ArrayList<>();
    final List<Long> ackedAfterLoss = new ArrayList<>();

    RecordingListener(final List<String> log)
    {
        this.log = log;
    }

    public void onPacketAcked(
        final long packetNumber, final long streamOffset, final int streamLength, final boolean fin, final int flags)
    {
        log.add("acked " + packetNumber);
        acked.add(packetNumber);
    }

    public void onPacketLost(
        final long packetNumber, final long streamOffset, final int streamLength, final boolean fin, final int flags)
    {
        log.add("lost " + packetNumber);
        lost.add(packetNumber);
        lostStreamOffsets.add(streamOffset);
    }

    public void onPacketAckedAfterLoss(
        final long packetNumber, final long streamOffset, final int streamLength, final boolean fin, final int flags)
    {
        log.add("ackedAfterLoss " + packetNumber);
        ackedAfterLoss.add(packetNumber);
    }
}
