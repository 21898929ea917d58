package io.pacelink.bbr.v1;

import io.pacelink.transport.cc.ControllerParameters;
import io.pacelink.transport.testing.TestControllerContext;
import io.pacelink.transport.testing.ScriptedPath;

/**
 * One BBRv1 controller on a {@link ScriptedPath}, with the constants the tests share.
 */
final class Bbr1Run
{
    static final long START_NS = 5_000_000_000L;
    static final int MSS = 1500;
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000_000_000L;

    /**
     * 100 Mbit/s.
     */
    static final long RATE_100_MBIT = 12_500_000L;

    /**
     * 10 Mbit/s.
     */
    static final long RATE_10_MBIT = 1_250_000L;

    final TestControllerContext context;
    final Bbr1Controller controller;
    final ScriptedPath path;

    Bbr1Run(final long rateBytesPerSecond, final long propagationRttNs, final long seed, final String parameters)
    {
        this(Bbr1Variant.LINUX, rateBytesPerSecond, propagationRttNs, seed, parameters);
    }

    Bbr1Run(
        final Bbr1Variant variant,
        final long rateBytesPerSecond,
        final long propagationRttNs,
        final long seed,
        final String parameters)
    {
        context = new TestControllerContext(MSS, seed, ControllerParameters.parse(parameters));
        controller = (Bbr1Controller)new Bbr1ControllerFactory(variant).newController(context);
        path = new ScriptedPath(controller, context, rateBytesPerSecond, propagationRttNs, START_NS, seed);
    }

    Bbr1Run(final long rateBytesPerSecond, final long propagationRttNs, final long seed)
    {
        this(rateBytesPerSecond, propagationRttNs, seed, "");
    }

    void runUntilSeconds(final double seconds)
    {
        path.runUntil(START_NS + (long)(seconds * SECOND));
    }

    double elapsedSeconds()
    {
        return (path.nowNs() - START_NS) / (double)SECOND;
    }

    /**
     * @return the pacing rate Linux would set for a bandwidth and gain: 1 % below {@code bw * gain}.
     */
    static long expectedPacingRate(final long bandwidthBytesPerSecond, final double gain)
    {
        return (long)(bandwidthBytesPerSecond * gain * 0.99);
    }
}
