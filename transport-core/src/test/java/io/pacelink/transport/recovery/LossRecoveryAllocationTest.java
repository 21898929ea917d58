package io.pacelink.transport.recovery;

import io.pacelink.transport.testing.AllocationMeter;
import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.LostPacket;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A warmed-up send/ACK loop, with periodic reordering, losses, spurious losses and timer checks, allocates nothing.
 */
class LossRecoveryAllocationTest
{
    private static final int WARM_UP_ITERATIONS = 100_000;
    private static final int MEASURED_ITERATIONS = 100_000;
    private static final long PACKET_INTERVAL_NS = 100_000L;
    private static final long RTT_NS = 20_000_000L;

    private final TestAckRanges ranges = new TestAckRanges();
    private final CountingController controller = new CountingController();
    private final SentPacketDescriptor sent = new SentPacketDescriptor();
    private final LossRecovery lossRecovery = RecoveryDriver.newRecovery(
        new RecoveryConfig().sentPacketCapacity(1024), new PathParameters(1200, 25_000_000L), controller);
    private final CountingListener listener = new CountingListener();
    private long nextPacketNumber;
    private long nowNs;

    @Test
    void steadyStateSendAndAckAllocatesNothing()
    {
        run(WARM_UP_ITERATIONS);

        AllocationMeter.assertAllocationFree(
            MEASURED_ITERATIONS + " send/ACK iterations", () -> run(MEASURED_ITERATIONS));
        assertTrue(listener.lost > 0, "the loop exercised loss detection");
        assertTrue(listener.ackedAfterLoss > 0, "the loop exercised spurious-loss detection");
        assertTrue(controller.acks > 0 && controller.congestionEvents > 0);
    }

    /**
     * Each iteration sends one packet and acknowledges the one sent {@code RTT_NS} earlier. Every 64th packet is
     * held back past three later acknowledgements (declared lost) and then acknowledged (spurious); every 256th is
     * never acknowledged (lost for good).
     */
    private void run(final int iterations)
    {
        final long packetsPerRtt = RTT_NS / PACKET_INTERVAL_NS;
        for (int i = 0; i < iterations; i++)
        {
            nowNs += PACKET_INTERVAL_NS;
            lossRecovery.onAppLimitedCheck(1_000_000, true, true);
            if (lossRecovery.canSend())
            {
                final long pn = nextPacketNumber++;
                lossRecovery.onPacketSent(sent.reset(pn, nowNs)
                    .sizeBytes(1200).ackEliciting(true).streamRange(pn * 1200, 1200, false, false));
            }

            final long acked = nextPacketNumber - 1 - packetsPerRtt;
            if (acked >= 0 && acked % 64 != 0)
            {
                ranges.clear().range(acked, acked);
                final long heldBack = acked - acked % 64;
                if (acked % 64 == 8 && heldBack % 256 != 0)
                {
                    // The held-back packet finally arrives, after it was declared lost.
                    ranges.range(heldBack, heldBack);
                }
                lossRecovery.onAckReceived(ranges, 0, nowNs, listener);
            }

            if (nowNs >= lossRecovery.timerDeadlineNs())
            {
                lossRecovery.onTimeout(nowNs, listener);
            }
        }
    }

    private static final class CountingListener implements PacketOutcomeListener
    {
        long acked;
        long lost;
        long ackedAfterLoss;

        public void onPacketAcked(final long pn, final long offset, final int length, final boolean fin, final int f)
        {
            acked++;
        }

        public void onPacketLost(final long pn, final long offset, final int length, final boolean fin, final int f)
        {
            lost++;
        }

        public void onPacketAckedAfterLoss(
            final long pn, final long offset, final int length, final boolean fin, final int f)
        {
            ackedAfterLoss++;
        }
    }

    private static final class CountingController implements CongestionController
    {
        long acks;
        long congestionEvents;
        long checksum;

        public void onPacketSent(
            final long nowNs, final long pn, final int sizeBytes, final long inFlight, final boolean isRetransmission)
        {
            checksum += inFlight;
        }

        public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
        {
        }

        public void onAck(final AckEvent ack)
        {
            acks++;
            checksum += ack.deliveryRateBytesPerSecond() + ack.sampleLostBytes() + ack.newlyAckedBytes();
        }

        public void onPacketLost(final LostPacket lost)
        {
            checksum += lost.txInFlightBytes();
        }

        public void onCongestionEvent(final CongestionEvent event)
        {
            congestionEvents++;
        }

        public void onSpuriousLoss(final long nowNs)
        {
        }

        public void onMtuChanged(final int maxDatagramSizeBytes)
        {
        }

        public long congestionWindowBytes()
        {
            return 1_000_000;
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
            return "COUNTING";
        }

        public List<String> stateNames()
        {
            return List.of("COUNTING");
        }
    }
}
