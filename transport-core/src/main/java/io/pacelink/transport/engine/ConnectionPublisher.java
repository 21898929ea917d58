package io.pacelink.transport.engine;

import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.recovery.EcnValidation;
import io.pacelink.transport.recovery.LossRecovery;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stream.ReceiveLog;
import io.pacelink.transport.stream.SendLog;

/**
 * Publishes a connection's figures to its counters, for the stats and {@code pacelink stat}: what the applications did
 * and what loss recovery and the controller see.
 */
final class ConnectionPublisher
{
    private final ConnectionCounters counters;
    private final SendLog sendLog;
    private final ReceiveLog receiveLog;
    private final DeliveryReceipts receipts;
    private final LossRecovery lossRecovery;

    ConnectionPublisher(
        final ConnectionCounters counters,
        final SendLog sendLog,
        final ReceiveLog receiveLog,
        final DeliveryReceipts receipts,
        final LossRecovery lossRecovery)
    {
        this.counters = counters;
        this.sendLog = sendLog;
        this.receiveLog = receiveLog;
        this.receipts = receipts;
        this.lossRecovery = lossRecovery;
    }

    /**
     * What the applications did: messages and their bytes offered here, read by the peer's application (its
     * receipts), and polled here; and the wire figure of stream bytes the peer acknowledged.
     */
    void publishApplication()
    {
        counters.set(ConnectionCounters.STREAM_BYTES_ACKED, sendLog.ackedHead());
        final long messagesOffered = sendLog.messagesOffered();
        counters.set(ConnectionCounters.MESSAGES_OFFERED, messagesOffered);
        counters.set(ConnectionCounters.APP_BYTES_OFFERED,
            SendLog.applicationBytes(sendLog.tailPosition(), messagesOffered));
        counters.set(ConnectionCounters.MESSAGES_DELIVERED, receipts.peerConsumedMessages());
        counters.set(ConnectionCounters.APP_BYTES_DELIVERED,
            SendLog.applicationBytes(receipts.peerConsumedPosition(), receipts.peerConsumedMessages()));
        final long messagesPolled = receiveLog.consumedMessages();
        counters.set(ConnectionCounters.MESSAGES_RECEIVED, messagesPolled);
        counters.set(ConnectionCounters.APP_BYTES_RECEIVED,
            SendLog.applicationBytes(receiveLog.consumedHead(), messagesPolled));
    }

    /**
     * What loss recovery and the controller see, after an ACK or a timeout.
     */
    void publishRecovery()
    {
        final CongestionController controller = lossRecovery.controller();
        counters.set(ConnectionCounters.CWND_BYTES, controller.congestionWindowBytes());
        counters.set(ConnectionCounters.PACING_RATE_BYTES_PER_SECOND, controller.pacingRateBytesPerSecond());
        counters.publishControllerState(controller.stateName());
        if (lossRecovery.rateSampler().hasSample())
        {
            counters.set(ConnectionCounters.DELIVERY_RATE_BYTES_PER_SECOND,
                lossRecovery.rateSampler().deliveryRateBytesPerSecond());
        }
        counters.set(ConnectionCounters.MIN_RTT_NS, lossRecovery.rttEstimator().minRttNs());
        counters.set(ConnectionCounters.SMOOTHED_RTT_NS, lossRecovery.rttEstimator().smoothedRttNs());
        counters.set(ConnectionCounters.LATEST_RTT_NS, lossRecovery.rttEstimator().latestRttNs());
        counters.set(ConnectionCounters.RTT_SAMPLES, lossRecovery.rttEstimator().sampleCount());
        counters.set(ConnectionCounters.BYTES_IN_FLIGHT, lossRecovery.bytesInFlight());
        counters.set(ConnectionCounters.PACKETS_LOST, lossRecovery.lostPackets());
        counters.set(ConnectionCounters.BYTES_LOST, lossRecovery.lostBytes());
        counters.set(ConnectionCounters.SPURIOUS_LOSSES, lossRecovery.spuriousLosses());
        counters.set(ConnectionCounters.PROBE_TIMEOUTS, lossRecovery.ptoExpirations());
        final EcnValidation ecn = lossRecovery.ecnValidation();
        counters.set(ConnectionCounters.ECN_STATE, ecn.state());
        counters.set(ConnectionCounters.ECN_FAILURE, ecn.failure());
        counters.set(ConnectionCounters.ECN_MARKED_SENT, ecn.markedPackets());
        counters.set(ConnectionCounters.ECN_CE_REPORTED, ecn.reportedCe());
        counters.set(ConnectionCounters.ECN_CE_REACTIONS, lossRecovery.ecnCeReactions());
    }

    /**
     * A packet was recorded as sent.
     */
    void publishSent(final int sizeBytes)
    {
        counters.add(ConnectionCounters.BYTES_SENT, sizeBytes);
        counters.increment(ConnectionCounters.PACKETS_SENT);
        counters.set(ConnectionCounters.BYTES_IN_FLIGHT, lossRecovery.bytesInFlight());
    }
}
