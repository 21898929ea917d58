package io.pacelink.transport.engine;

import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.agent.BackgroundPriming;
import io.pacelink.transport.cc.CongestionControlRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BackgroundPriming} with {@link HandshakePathPrimer#forConnects}: while its endpoint idles it runs its
 * connects to the count and stops; while the endpoint receives datagrams it runs none, and once it received
 * {@link BackgroundPriming#BUSY_DATAGRAMS} it stops for good; it stops when the endpoint closes;
 * {@link HandshakePathPrimer#continuing} goes on only after a launch that primed, once per mode.
 */
class BackgroundPrimingTest
{
    private static final int CONNECTS = 8;

    private final List<FixedWindowController> controllers = new ArrayList<>();
    private final CongestionControlRegistry registry =
        CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024, controllers));

    @Test
    void whileItsEndpointIdlesItRunsItsConnectsAndStops()
    {
        final BackgroundPriming priming = new BackgroundPriming(
            HandshakePathPrimer.forConnects(context(), registry, CONNECTS), System::nanoTime, () -> 0, () -> false);
        priming.run();
        assertEquals(CONNECTS, priming.result().connects());
        assertEquals(CONNECTS, priming.result().connected(), "every connect reached CONNECTED");
        assertEquals(2 * CONNECTS, controllers.size(), "each connect built a client's and a server's connection");
    }

    @Test
    void whileItsEndpointReceivesItRunsNothing()
    {
        // A datagram arrives before every look; the endpoint closes after 50 looks.
        final long[] received = {0};
        final BackgroundPriming priming = new BackgroundPriming(
            HandshakePathPrimer.forConnects(context(), registry, CONNECTS), System::nanoTime, () -> ++received[0],
            () -> received[0] >= 50);
        priming.run();
        assertEquals(0, priming.result().connects());
        assertTrue(controllers.isEmpty(), "no connection was built");
    }

    @Test
    void itStopsForGoodOnceItsEndpointHasBeenBusy()
    {
        // The endpoint received its first datagram long ago (the counter starts high) and then enough to stop it.
        final long[] received = {1_000_000};
        final BackgroundPriming priming = new BackgroundPriming(
            HandshakePathPrimer.forConnects(context(), registry, CONNECTS), System::nanoTime,
            () -> received[0] += BackgroundPriming.BUSY_DATAGRAMS / 2, () -> false);
        priming.run();
        assertEquals(0, priming.result().connects());
        assertTrue(priming.result().elapsedNs() < BackgroundPriming.BUDGET_NS, "not held to its budget");
    }

    @Test
    void itStopsWhenItsEndpointCloses()
    {
        final BackgroundPriming closed = new BackgroundPriming(
            HandshakePathPrimer.forConnects(context(), registry, CONNECTS), System::nanoTime, () -> 0, () -> true);
        closed.run();
        assertEquals(0, closed.result().connects(), "closed before it began");
        // The endpoint closes as the first connect built its connections.
        final BackgroundPriming closing = new BackgroundPriming(
            HandshakePathPrimer.forConnects(context(), registry, CONNECTS), System::nanoTime, () -> 0,
            () -> !controllers.isEmpty());
        closing.run();
        assertEquals(1, closing.result().connects());
    }

    @Test
    void itGoesOnOnlyAfterALaunchThatPrimedAndOncePerMode()
    {
        final PacelinkContext psk = context().handshakePrimingNs(TimeUnit.MILLISECONDS.toNanos(50));
        psk.security().preSharedKey(new byte[32]);
        final PacelinkContext off = context().handshakePrimingNs(0);
        off.security().preSharedKey(new byte[32]);
        assertNull(HandshakePathPrimer.primeOnce(off, registry), "switched off");
        assertNull(HandshakePathPrimer.continuing(off, registry), "no launch priming, nothing to go on with");
        // The first launch primes (unless an earlier test in this process did) and the first continuation follows it.
        HandshakePathPrimer.primeOnce(psk, registry);
        final HandshakePathPrimer.Result launched = HandshakePathPrimer.primed(psk.security());
        final HandshakePathPrimer first = HandshakePathPrimer.continuing(psk, registry);
        if (null != first)
        {
            assertTrue(launched.connects() < HandshakePathPrimer.BACKGROUND_MAX_HANDSHAKES);
            final HandshakePathPrimer.Result result = first.finish(1);
            assertEquals(result, HandshakePathPrimer.primedInBackground(psk.security()));
        }
        assertNull(HandshakePathPrimer.continuing(psk, registry), "once per mode and process");
    }

    private static PacelinkContext context()
    {
        return new PacelinkContext().congestionControl(FixedWindowController.NAME);
    }
}
