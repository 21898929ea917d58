package io.pacelink.transport.engine;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.LostPacket;

import java.util.List;

/**
 * A controller for engine tests that must not depend on a real algorithm: a fixed window, unpaced.
 */
final class FixedWindowController implements CongestionController
{
    static final String NAME = "test-fixed";

    private final long windowBytes;

    FixedWindowController(final long windowBytes)
    {
        this.windowBytes = windowBytes;
    }

    static CongestionControllerFactory factory(final long windowBytes)
    {
        return factory(NAME, windowBytes);
    }

    /**
     * @param name        the name to register it under (tests of choosing a controller by name).
     * @param windowBytes the fixed window.
     * @return a factory of fixed-window controllers.
     */
    static CongestionControllerFactory factory(final String name, final long windowBytes)
    {
        return new CongestionControllerFactory()
        {
            public String name()
            {
                return name;
            }

            public void validate(final ControllerParameters parameters)
            {
            }

            public CongestionController newController(final ControllerContext context)
            {
                return new FixedWindowController(windowBytes);
            }
        };
    }

    public void onPacketSent(
        final long nowNs, final long packetNumber, final int sizeBytes, final long bytesInFlightBytes,
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
    }

    public long congestionWindowBytes()
    {
        return windowBytes;
    }

    public long pacingRateBytesPerSecond()
    {
        return 0;
    }

    public int sendQuantumBytes()
    {
        return 64 * 1024;
    }

    public String stateName()
    {
        return "FIXED";
    }

    public List<String> stateNames()
    {
        return List.of("FIXED");
    }
}
