package io.pacelink.transport.engine;

import io.pacelink.transport.cc.AckEvent;
import io.pacelink.transport.cc.CongestionController;
import io.pacelink.transport.cc.CongestionControllerFactory;
import io.pacelink.transport.cc.CongestionEvent;
import io.pacelink.transport.cc.ControllerContext;
import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.cc.LostPacket;

import java.util.ArrayList;
import java.util.List;

/**
 * A controller for engine tests that must not depend on a real algorithm: a fixed window, unpaced. Keeps its context
 * and the datagram sizes it was told, so a test can check what the transport hands a controller.
 */
final class FixedWindowController implements CongestionController
{
    static final String NAME = "test-fixed";

    final ControllerContext context;
    final List<Integer> mtuChanges = new ArrayList<>();
    private final long windowBytes;
    private boolean isFlapping;
    private long flapCalls;
    private String failingCallback;
    private long callsBeforeFailure;
    private boolean failsOnce;

    FixedWindowController(final ControllerContext context, final long windowBytes)
    {
        this.context = context;
        this.windowBytes = windowBytes;
    }

    static CongestionControllerFactory factory(final long windowBytes)
    {
        return factory(NAME, windowBytes, new ArrayList<>());
    }

    /**
     * @param windowBytes the fixed window.
     * @param created     receives every controller the factory makes.
     * @return a factory named {@link #NAME}.
     */
    static CongestionControllerFactory factory(final long windowBytes, final List<FixedWindowController> created)
    {
        return factory(NAME, windowBytes, created);
    }

    /**
     * @param name        the name to register it under (tests of choosing a controller by name).
     * @param windowBytes the fixed window.
     * @return a factory of fixed-window controllers.
     */
    static CongestionControllerFactory factory(final String name, final long windowBytes)
    {
        return factory(name, windowBytes, new ArrayList<>());
    }

    private static CongestionControllerFactory factory(
        final String name, final long windowBytes, final List<FixedWindowController> created)
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
                final FixedWindowController controller = new FixedWindowController(context, windowBytes);
                created.add(controller);
                return controller;
            }
        };
    }

    public void onPacketSent(
        final long nowNs, final long packetNumber, final int sizeBytes, final long bytesInFlight,
        final boolean isRetransmission)
    {
        failIfDue("onPacketSent");
    }

    public void onTransmitStartAfterIdle(final long nowNs, final long idleNs)
    {
    }

    public void onAck(final AckEvent ack)
    {
        failIfDue("onAck");
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
        mtuChanges.add(maxDatagramSizeBytes);
    }

    public long congestionWindowBytes()
    {
        failIfDue("congestionWindowBytes");
        if (isFlapping)
        {
            // Within one duty cycle the connection asks at its app-limited check (call 0), at activation (1), then per
            // packet at release (2, 4, ...) and while building it (3, 5, ...): open at activation and release, shut
            // while building. (A packet that carries nothing is not in flight, so recording it asks nothing.)
            final long call = flapCalls++;
            return 1 == call || (call >= 2 && 0 == call % 2) ? windowBytes : 0;
        }
        return windowBytes;
    }

    /**
     * Contradict itself from now on: the window is open when the connection says what it can send and shut when it
     * builds the packet. Call {@link #startDutyCycle()} before each duty cycle.
     */
    void flap()
    {
        isFlapping = true;
    }

    /**
     * Throw an {@link IllegalStateException} from a callback, as a controller with a bug would.
     *
     * @param callback           "onAck", "onPacketSent" or "congestionWindowBytes".
     * @param callsBeforeFailure how many of its calls succeed first.
     * @param once               true: only that call throws; false: every call from then on throws.
     */
    void failAt(final String callback, final long callsBeforeFailure, final boolean once)
    {
        this.failingCallback = callback;
        this.callsBeforeFailure = callsBeforeFailure;
        this.failsOnce = once;
    }

    private void failIfDue(final String callback)
    {
        if (callback.equals(failingCallback) && callsBeforeFailure-- <= 0)
        {
            if (failsOnce)
            {
                failingCallback = null;
            }
            throw new IllegalStateException("test controller fails in " + callback);
        }
    }

    /**
     * A duty cycle starts: the pattern of {@link #flap()} starts again.
     */
    void startDutyCycle()
    {
        flapCalls = 0;
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
