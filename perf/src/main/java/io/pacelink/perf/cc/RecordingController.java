package io.pacelink.perf.cc;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.LostPacket;
import io.pacelink.transport.cc.RttStats;

import java.util.ArrayList;
import java.util.List;

/**
 * Wraps the controller that drives the recording path and, while recording, copies every callback into an immutable
 * {@link TraceEvent} together with the RTT statistics of that moment. Used only while a trace is made, so it may
 * allocate.
 */
final class RecordingController implements CongestionController
{
    private final CongestionController delegate;
    private final RttStats rttStats;
    private final ReplayAdjuster adjuster;
    private final List<TraceEvent> events = new ArrayList<>();

    private boolean recording;
    private RttSnapshot lastSnapshot;
    private LostFixture openBatchLast;
    private int ackCount;
    private int sentCount;
    private int lostCount;

    RecordingController(
        final CongestionController delegate, final RttStats rttStats, final ReplayAdjuster adjuster)
    {
        this.delegate = delegate;
        this.rttStats = rttStats;
        this.adjuster = adjuster;
    }

    void recording(final boolean recording)
    {
        this.recording = recording;
    }

    List<TraceEvent> events()
    {
        return events;
    }

    int ackCount()
    {
        return ackCount;
    }

    int sentCount()
    {
        return sentCount;
    }

    int lostCount()
    {
        return lostCount;
    }

    public void onPacketSent(
        final long nowNs,
        final long packetNumber,
        final int sizeBytes,
        final long bytesInFlightBytes,
        final boolean isRetransmission)
    {
        if (recording)
        {
            events.add(new SentFixture(
                snapshot(), adjuster, nowNs, packetNumber, sizeBytes, bytesInFlightBytes, isRetransmission));
            sentCount++;
        }
        delegate.onPacketSent(nowNs, packetNumber, sizeBytes, bytesInFlightBytes, isRetransmission);
    }

    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
        rejectWhileRecording("onTransmitStartAfterIdle");
        delegate.onTransmitStartAfterIdle(nowNs, idleNs);
    }

    public void onAck(final AckEvent ack)
    {
        if (recording)
        {
            events.add(new AckFixture(snapshot(), adjuster, ack));
            ackCount++;
        }
        delegate.onAck(ack);
    }

    public void onPacketLost(final LostPacket lost)
    {
        if (recording)
        {
            openBatchLast = new LostFixture(snapshot(), adjuster, lost);
            events.add(openBatchLast);
            lostCount++;
        }
        delegate.onPacketLost(lost);
    }

    public void onCongestionEvent(final CongestionEvent event)
    {
        if (recording && null != openBatchLast)
        {
            openBatchLast.batchEnd(new CongestionFixture(adjuster, event));
            openBatchLast = null;
        }
        delegate.onCongestionEvent(event);
    }

    public void onSpuriousLoss(final long nowNs)
    {
        rejectWhileRecording("onSpuriousLoss");
        delegate.onSpuriousLoss(nowNs);
    }

    public void onMtuChanged(final int maxDatagramSizeBytes)
    {
        rejectWhileRecording("onMtuChanged");
        delegate.onMtuChanged(maxDatagramSizeBytes);
    }

    public long congestionWindowBytes()
    {
        return delegate.congestionWindowBytes();
    }

    public long pacingRateBytesPerSecond()
    {
        return delegate.pacingRateBytesPerSecond();
    }

    public int sendQuantumBytes()
    {
        return delegate.sendQuantumBytes();
    }

    public String stateName()
    {
        return delegate.stateName();
    }

    public List<String> stateNames()
    {
        return delegate.stateNames();
    }

    private RttSnapshot snapshot()
    {
        if (null == lastSnapshot || !lastSnapshot.matches(rttStats))
        {
            lastSnapshot = RttSnapshot.of(rttStats);
        }
        return lastSnapshot;
    }

    /**
     * The recording path (backlogged sender, FIFO bottleneck without reordering, fixed MTU) never produces these; if
     * it ever did, a replay without them would misrepresent the controller, so fail instead of recording less.
     */
    private void rejectWhileRecording(final String callback)
    {
        if (recording)
        {
            throw new IllegalStateException(callback + " during trace recording: the trace format does not keep it");
        }
    }
}
