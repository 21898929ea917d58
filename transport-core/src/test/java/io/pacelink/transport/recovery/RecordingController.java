package io.pacelink.transport.recovery;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.LostPacket;
import io.pacelink.transport.cc.RttStats;

import java.util.ArrayList;
import java.util.List;

/**
 * A scripted controller with a fixed window that records every call, with copies of the reused views' values taken
 * during the call.
 */
final class RecordingController implements CongestionController
{
    record Ack(
        long nowNs,
        long newlyAckedBytes,
        long newlyLostBytes,
        long priorBytesInFlightBytes,
        long bytesInFlightBytes,
        long largestAckedSentTimeNs,
        long latestRttNs,
        boolean isCwndLimited,
        long totalDeliveredBytes,
        long totalLostBytes,
        boolean hasRateSample,
        long deliveryRateBytesPerSecond,
        long sampleDeliveredBytes,
        long sampleIntervalNs,
        long samplePriorDeliveredBytes,
        long sampleTxInFlightBytes,
        long sampleLostBytes,
        boolean isSampleAppLimited)
    {
    }

    record Lost(
        long nowNs,
        long packetNumber,
        int sizeBytes,
        long sentTimeNs,
        long deliveredAtSendBytes,
        long txInFlightBytes,
        long lostAtSendBytes,
        long totalLostBytes,
        long totalDeliveredBytes,
        long bytesInFlightBytes,
        long rttLatestNsDuringCall)
    {
    }

    record Congestion(
        long nowNs, long newestLostSentTimeNs, long lostBytes, long bytesInFlightBytes, boolean isPersistentCongestion)
    {
    }

    final List<String> log;
    final List<Ack> acks = new ArrayList<>();
    final List<Lost> losses = new ArrayList<>();
    final List<Congestion> congestionEvents = new ArrayList<>();
    final List<Long> idleRestartsNs = new ArrayList<>();
    int spuriousLosses;
    int packetsSent;
    long congestionWindowBytes = 12_000;
    RttStats rttStats;

    RecordingController(final List<String> log)
    {
        this.log = log;
    }

    public void onPacketSent(
        final long nowNs,
        final long packetNumber,
        final int sizeBytes,
        final long bytesInFlightBytes,
        final boolean isRetransmission)
    {
        packetsSent++;
    }

    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
        log.add("cc.idleRestart " + idleNs);
        idleRestartsNs.add(idleNs);
    }

    public void onAck(final AckEvent ack)
    {
        log.add("cc.ack");
        acks.add(new Ack(
            ack.nowNs(),
            ack.newlyAckedBytes(),
            ack.newlyLostBytes(),
            ack.priorBytesInFlightBytes(),
            ack.bytesInFlightBytes(),
            ack.largestAckedSentTimeNs(),
            ack.latestRttNs(),
            ack.isCwndLimited(),
            ack.totalDeliveredBytes(),
            ack.totalLostBytes(),
            ack.hasRateSample(),
            ack.deliveryRateBytesPerSecond(),
            ack.sampleDeliveredBytes(),
            ack.sampleIntervalNs(),
            ack.samplePriorDeliveredBytes(),
            ack.sampleTxInFlightBytes(),
            ack.sampleLostBytes(),
            ack.isSampleAppLimited()));
    }

    public void onPacketLost(final LostPacket lost)
    {
        log.add("cc.lost " + lost.packetNumber());
        losses.add(new Lost(
            lost.nowNs(),
            lost.packetNumber(),
            lost.sizeBytes(),
            lost.sentTimeNs(),
            lost.deliveredAtSendBytes(),
            lost.txInFlightBytes(),
            lost.lostAtSendBytes(),
            lost.totalLostBytes(),
            lost.totalDeliveredBytes(),
            lost.bytesInFlightBytes(),
            null == rttStats ? -1 : rttStats.latestRttNs()));
    }

    public void onCongestionEvent(final CongestionEvent event)
    {
        log.add("cc.congestion" + (event.isPersistentCongestion() ? " persistent" : ""));
        congestionEvents.add(new Congestion(
            event.nowNs(),
            event.newestLostSentTimeNs(),
            event.lostBytes(),
            event.bytesInFlightBytes(),
            event.isPersistentCongestion()));
    }

    public void onSpuriousLoss(final long nowNs)
    {
        log.add("cc.spurious");
        spuriousLosses++;
    }

    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        log.add("cc.mtu " + maxDatagramSizeBytes);
    }

    public long congestionWindowBytes()
    {
        return congestionWindowBytes;
    }

    public long pacingRateBytesPerSecond()
    {
        return 0;
    }

    public int sendQuantumBytes()
    {
        return 0;
    }

    public String stateName()
    {
        return "RECORDING";
    }

    public List<String> stateNames()
    {
        return List.of("RECORDING");
    }

    long persistentCongestionCount()
    {
        return congestionEvents.stream().filter(Congestion::isPersistentCongestion).count();
    }

    List<Long> lostPacketNumbers()
    {
        return losses.stream().map(Lost::packetNumber).toList();
    }
}
