package io.pacelink.scenario;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.LostPacket;

import java.util.List;
import java.util.Set;

/**
 * A test-only controller that asks for one fixed pacing rate and never limits the window: what a pacer does with a
 * connection "paced at R" can then be measured on its own, with no controller dynamics mixed in. Its send quantum
 * is one datagram, so the pacer allows no catch-up burst; the scheduler's pacing is all that spaces the packets.
 */
final class FixedRateControllerFactory implements CongestionControllerFactory
{
    /**
     * A window no test path fills: 64 MiB.
     */
    private static final long UNLIMITED_WINDOW_BYTES = 64L << 20;

    private final String name;
    private final long pacingRateBytesPerSecond;

    /**
     * @param name                     the name flows select it by.
     * @param pacingRateBytesPerSecond the rate every connection asks for.
     */
    FixedRateControllerFactory(final String name, final long pacingRateBytesPerSecond)
    {
        this.name = name;
        this.pacingRateBytesPerSecond = pacingRateBytesPerSecond;
    }

    public String name()
    {
        return name;
    }

    public void validate(final ControllerParameters parameters)
    {
        parameters.rejectUnknown(name + ".", Set.of());
    }

    public CongestionController newController(final ControllerContext context)
    {
        return new FixedRateController(pacingRateBytesPerSecond, context.maxDatagramSizeBytes());
    }

    private static final class FixedRateController implements CongestionController
    {
        private final long pacingRateBytesPerSecond;
        private int sendQuantumBytes;

        FixedRateController(final long pacingRateBytesPerSecond, final int maxDatagramSizeBytes)
        {
            this.pacingRateBytesPerSecond = pacingRateBytesPerSecond;
            this.sendQuantumBytes = maxDatagramSizeBytes;
        }

        public void onPacketSent(
            final long nowNs,
            final long packetNumber,
            final int sizeBytes,
            final long bytesInFlight,
            final boolean isRetransmission)
        {
        }

        public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
        {
        }

        public void onAck(final AckEvent ack)
        {
        }

        public void onPacketLost(final LostPacket lost)
        {
        }

        public void onCongestionEvent(final CongestionEvent event)
        {
        }

        public void onSpuriousLoss(final long nowNs)
        {
        }

        public void onMtuChanged(final int maxDatagramSizeBytes)
        {
            sendQuantumBytes = maxDatagramSizeBytes;
        }

        public long congestionWindowBytes()
        {
            return UNLIMITED_WINDOW_BYTES;
        }

        public long pacingRateBytesPerSecond()
        {
            return pacingRateBytesPerSecond;
        }

        public int sendQuantumBytes()
        {
            return sendQuantumBytes;
        }

        public String stateName()
        {
            return "FIXED_RATE";
        }

        public List<String> stateNames()
        {
            return List.of("FIXED_RATE");
        }
    }
}
