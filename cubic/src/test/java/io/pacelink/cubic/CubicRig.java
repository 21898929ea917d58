package io.pacelink.cubic;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.TestControllerContext;
import io.pacelink.transport.testing.ScriptedPath;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One CUBIC controller on a scripted path, with the scripted steps the CUBIC tests share.
 */
final class CubicRig
{
    static final int MSS = TestControllerContext.DEFAULT_MAX_DATAGRAM_SIZE_BYTES;
    static final long NANOS_PER_SECOND = 1_000_000_000L;
    static final long MILLIS_NS = 1_000_000L;

    final TestControllerContext context;
    final CubicController cubic;
    final ScriptedPath path;

    /**
     * @param parameters controller parameters, e.g. {@code "cubic.hystart=false"}.
     * @param rttNs      path RTT.
     */
    CubicRig(final String parameters, final long rttNs)
    {
        context = new TestControllerContext(ControllerParameters.parse(parameters));
        cubic = (CubicController)new CubicFactory().newController(context);
        path = new ScriptedPath(cubic, context, rttNs);
    }

    /**
     * Grow until cwnd is exactly {@code packets} datagrams (slow start adds one per acknowledged datagram), then lose
     * the newest packet: the single loss at W_max of RFC 9438's regain-time analysis.
     *
     * @param packets the window to lose at.
     */
    void slowStartToThenLose(final long packets)
    {
        path.runUntil(Long.MAX_VALUE, () -> cubic.congestionWindowBytes() >= packets * MSS);
        assertEquals(packets * MSS, cubic.congestionWindowBytes());
        path.loseNewestPacketNow();
    }

    /**
     * Run until recovery ends and the first congestion-avoidance ACK has started an epoch.
     */
    void runUntilEpochStarts()
    {
        path.runUntil(Long.MAX_VALUE, () -> CubicState.NO_EPOCH != cubic.epochStartNs());
    }

    /**
     * @return the window in datagrams.
     */
    double cwndPackets()
    {
        return cubic.congestionWindowBytes() / (double)MSS;
    }

    /**
     * @param seconds time.
     * @return nanoseconds.
     */
    static long seconds(final double seconds)
    {
        return (long)(seconds * NANOS_PER_SECOND);
    }

    /**
     * RFC 9438 Figure 2 with cwnd_epoch = β·W_max: K = cbrt(W_max·(1 − β)/C).
     *
     * @param wMaxPackets W_max in segments.
     * @return K in seconds with β = 0.7, C = 0.4.
     */
    static double expectedKSeconds(final double wMaxPackets)
    {
        return Math.cbrt(wMaxPackets * 0.3 / 0.4);
    }

    /**
     * @param tSeconds    time since the epoch start.
     * @param wMaxPackets W_max in segments.
     * @return RFC 9438 Figure 1 in segments with C = 0.4.
     */
    static double expectedCubicWindowPackets(final double tSeconds, final double wMaxPackets)
    {
        final double offset = tSeconds - expectedKSeconds(wMaxPackets);
        return 0.4 * offset * offset * offset + wMaxPackets;
    }
}
