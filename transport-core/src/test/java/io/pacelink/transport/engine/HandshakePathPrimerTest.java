package io.pacelink.transport.engine;

import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.cc.CongestionControlRegistry;
import io.pacelink.transport.secure.X25519;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link HandshakePathPrimer}: in every security mode each of its connects completes (both ends built a connection),
 * it stops at its count and at its wall-time budget (both sides of each), and it leaves the endpoint's context as it
 * was; {@link PacelinkContext#handshakePrimingNs} primes servers by default and clients only when set, and refuses
 * what is outside its range.
 */
class HandshakePathPrimerTest
{
    private static final long LONG_BUDGET_NS = TimeUnit.MINUTES.toNanos(1);
    private static final int CONNECTS = 12;

    private final List<FixedWindowController> controllers = new ArrayList<>();
    private final CongestionControlRegistry registry =
        CongestionControlRegistry.of(FixedWindowController.factory(64 * 1024, controllers));

    @Test
    void aPlaintextEndpointsHandshakesAllComplete()
    {
        assertPrimes(context());
    }

    @Test
    void aSecureServersHandshakesAllCompletePinnedAndLearnedKeysAlike()
    {
        final PacelinkContext context = context();
        final byte[] key = new byte[X25519.KEY_LENGTH];
        key[0] = 7;
        context.security().serverPrivateKey(key);
        assertPrimes(context);
        assertEquals(7, context.security().serverPrivateKey()[0], "the endpoint's own key is not used or changed");
    }

    @Test
    void aPreSharedKeyEndpointsHandshakesAllComplete()
    {
        final PacelinkContext context = context();
        context.security().preSharedKey(new byte[32]);
        assertPrimes(context);
    }

    @Test
    void itStopsAtItsCount()
    {
        assertEquals(1, HandshakePathPrimer.prime(context(), registry, 1, LONG_BUDGET_NS, System::nanoTime).connects());
        assertEquals(0, HandshakePathPrimer.prime(context(), registry, 0, LONG_BUDGET_NS, System::nanoTime).connects());
    }

    @Test
    void noConnectStartsOnceItsBudgetIsSpent()
    {
        // A clock that moves on 1 ms at every read: the budget is spent after a few reads, whatever the machine.
        final long[] timeNs = {0};
        final NanoClock clock = () -> timeNs[0] += TimeUnit.MILLISECONDS.toNanos(1);
        assertEquals(0, HandshakePathPrimer.prime(context(), registry, CONNECTS, 0, clock).connects());
        final HandshakePathPrimer.Result result =
            HandshakePathPrimer.prime(context(), registry, CONNECTS, TimeUnit.MILLISECONDS.toNanos(3), clock);
        assertEquals(2, result.connects(), "the reads 1 and 2 ms after the start begin a connect, the one at 3 not");
        assertEquals(TimeUnit.MILLISECONDS.toNanos(4), result.elapsedNs(), "to its own read after the last check");
    }

    @Test
    void anEndpointThatDoesNotPrimeDoesNot()
    {
        final PacelinkContext client = context().acceptConnections(false);
        assertNull(HandshakePathPrimer.primeOnce(client, registry), "a client by default");
        final PacelinkContext off = context().handshakePrimingNs(0);
        assertNull(HandshakePathPrimer.primeOnce(off, registry), "a server that switched it off");
        assertTrue(controllers.isEmpty(), "no connection was built");
    }

    @Test
    void serversPrimeByDefaultAndClientsWhenSet()
    {
        final PacelinkContext context = new PacelinkContext();
        assertEquals(PacelinkContext.DEFAULT_HANDSHAKE_PRIMING_NS, context.handshakePrimingNs());
        assertEquals(0, context.acceptConnections(false).handshakePrimingNs());
        final long tenSecondsNs = TimeUnit.SECONDS.toNanos(10);
        assertEquals(tenSecondsNs, context.handshakePrimingNs(tenSecondsNs).handshakePrimingNs());
        assertEquals(0, context.acceptConnections(true).handshakePrimingNs(0).handshakePrimingNs());
        final IllegalArgumentException below =
            assertThrows(IllegalArgumentException.class, () -> context.handshakePrimingNs(-1));
        assertTrue(below.getMessage().startsWith("handshakePrimingNs=-1"), below.getMessage());
        assertThrows(IllegalArgumentException.class, () -> context.handshakePrimingNs(tenSecondsNs + 1));
        assertEquals(0, context.handshakePrimingNs(), "a refused value leaves the setting as it was");
    }

    @Test
    void launchPrimingOffLeavesServersUnprimedUnlessSetAndAnyOtherValueIsRefused()
    {
        final String before = System.getProperty(PacelinkContext.LAUNCH_PRIMING_PROPERTY);
        try
        {
            System.setProperty(PacelinkContext.LAUNCH_PRIMING_PROPERTY, "off");
            assertFalse(PacelinkContext.isLaunchPrimingByDefault());
            assertEquals(0, new PacelinkContext().handshakePrimingNs(), "a server primes nothing by default");
            final long oneSecondNs = TimeUnit.SECONDS.toNanos(1);
            assertEquals(oneSecondNs, new PacelinkContext().handshakePrimingNs(oneSecondNs).handshakePrimingNs(),
                "a priming set explicitly still runs");

            System.setProperty(PacelinkContext.LAUNCH_PRIMING_PROPERTY, "on");
            assertEquals(PacelinkContext.DEFAULT_HANDSHAKE_PRIMING_NS, new PacelinkContext().handshakePrimingNs());

            System.setProperty(PacelinkContext.LAUNCH_PRIMING_PROPERTY, "no");
            final IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> new PacelinkContext().handshakePrimingNs());
            assertEquals("-Dpacelink.launchPriming must be on or off, got 'no'", refused.getMessage());
        }
        finally
        {
            if (null == before)
            {
                System.clearProperty(PacelinkContext.LAUNCH_PRIMING_PROPERTY);
            }
            else
            {
                System.setProperty(PacelinkContext.LAUNCH_PRIMING_PROPERTY, before);
            }
        }
    }

    private void assertPrimes(final PacelinkContext context)
    {
        final HandshakePathPrimer.Result result =
            HandshakePathPrimer.prime(context, registry, CONNECTS, LONG_BUDGET_NS, System::nanoTime);
        assertEquals(CONNECTS, result.connects());
        assertEquals(CONNECTS, result.connected(), "every connect reached CONNECTED");
        assertEquals(2 * CONNECTS, controllers.size(), "each connect built a client's and a server's connection");
    }

    private static PacelinkContext context()
    {
        return new PacelinkContext().congestionControl(FixedWindowController.NAME);
    }
}
