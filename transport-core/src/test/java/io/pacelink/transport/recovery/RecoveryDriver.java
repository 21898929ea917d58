package io.pacelink.transport.recovery;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.testing.RecordingController;

import java.util.ArrayList;
import java.util.List;

/**
 * Drives a {@link LossRecovery} with a hand-advanced clock in milliseconds or nanoseconds, a recording controller
 * and a recording listener. Every packet is 1200 bytes, ack-eliciting and counted in flight, and carries the stream
 * range {@code [pn * 1000, pn * 1000 + 1000)}.
 */
final class RecoveryDriver
{
    static final int PACKET_BYTES = 1200;
    static final long NS_PER_MS = 1_000_000L;

    final List<String> log = new ArrayList<>();
    final RecordingController controller = new RecordingController(log);
    final RecordingListener listener = new RecordingListener(log);
    final TestAckRanges ranges = new TestAckRanges();
    final PathParameters path;
    final LossRecovery lossRecovery;
    private final SentPacketDescriptor sent = new SentPacketDescriptor();

    /**
     * @param config            the recovery's configuration.
     * @param peerMaxAckDelayNs the peer's max_ack_delay.
     */
    RecoveryDriver(final RecoveryConfig config, final long peerMaxAckDelayNs)
    {
        path = new PathParameters(PACKET_BYTES, peerMaxAckDelayNs);
        lossRecovery = newRecovery(config, path, controller);
        controller.rttStats(lossRecovery.rttEstimator());
    }

    /**
     * @param config     the recovery's configuration.
     * @param path       the connection's path values.
     * @param controller its controller.
     * @return a loss recovery with a fresh RTT estimator built from the configuration.
     */
    static LossRecovery newRecovery(
        final RecoveryConfig config, final PathParameters path, final CongestionController controller)
    {
        return new LossRecovery(
            config, path, new RttEstimator(config.initialRttNs(), config.granularityNs()), controller);
    }

    static long ms(final long milliseconds)
    {
        return milliseconds * NS_PER_MS;
    }

    void sendAtMs(final long packetNumber, final long atMs)
    {
        sendAtNs(packetNumber, ms(atMs), false);
    }

    /**
     * Send packets {@code firstPn..lastPn}, one per millisecond from {@code firstMs}.
     */
    void sendOnePerMs(final long firstPn, final long lastPn, final long firstMs)
    {
        for (long pn = firstPn; pn <= lastPn; pn++)
        {
            sendAtMs(pn, firstMs + pn - firstPn);
        }
    }

    void sendAtNs(final long packetNumber, final long atNs, final boolean isRetransmission)
    {
        lossRecovery.onPacketSent(sent.reset(packetNumber, atNs)
            .sizeBytes(PACKET_BYTES)
            .ackEliciting(true)
            .streamRange(packetNumber * 1000, 1000, false, isRetransmission));
    }

    /**
     * @param atMs  ACK processing time.
     * @param pairs smallest/largest pairs, highest range first.
     * @return onAckReceived's result.
     */
    int ackAtMs(final long atMs, final long... pairs)
    {
        return lossRecovery.onAckReceived(ranges.of(pairs), 0, ms(atMs), listener);
    }

    int ackAtNs(final long atNs, final long... pairs)
    {
        return lossRecovery.onAckReceived(ranges.of(pairs), 0, atNs, listener);
    }

    /**
     * Packet 0 sent at 0 ms and acknowledged at 100 ms: smoothed and latest RTT 100 ms, rttvar 50 ms.
     */
    void establishRtt100Ms()
    {
        sendAtMs(0, 0);
        ackAtMs(100, 0, 0);
        log.clear();
    }
}
