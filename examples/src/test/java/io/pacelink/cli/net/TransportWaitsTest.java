package io.pacelink.cli.net;

import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A spinning wait starts its timeout at its first clock read, not before its first turn (which sends what the caller
 * just offered): it still times out, never before the timeout has passed.
 */
class TransportWaitsTest
{
    @Test
    void theDefaultProfileAsksForKernelReceiveTimesAndTheBusySpinningOneKeepsInvokersDefault()
    {
        final InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        assertTrue(TransportWaits.invokerContext(bind, false).kernelReceiveTimes(), "sleeps in the port: reads late");
        assertTrue(TransportWaits.clientContext(bind, false).kernelReceiveTimes());
        assertFalse(TransportWaits.invokerContext(bind, true).kernelReceiveTimes(), "reads at every turn");
        assertFalse(TransportWaits.clientContext(bind, true).kernelReceiveTimes());
    }

    @Test
    void aSpinningWaitForWhatNeverComesTimesOutAfterItsTimeout()
    {
        final PacelinkContext context =
            TransportWaits.clientContext(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), true);
        try (Endpoint endpoint = Endpoint.launch(context))
        {
            final TransportWaits waits = new TransportWaits(endpoint, context);
            final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(20);
            final long startNs = System.nanoTime();
            final TransportFailure failure = assertThrows(TransportFailure.class,
                () -> waits.await(() -> false, timeoutNs, () -> "nothing", "the server", List.of()));
            assertTrue(System.nanoTime() - startNs >= timeoutNs, "not before the timeout");
            assertTrue(failure.getMessage().startsWith("timed out after"), failure.getMessage());
        }
    }
}
