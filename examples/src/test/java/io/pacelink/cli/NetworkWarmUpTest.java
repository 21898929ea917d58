package io.pacelink.cli;

import io.pacelink.transport.port.BatchedPortSupport;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The start-up warm-up runs only for the commands that open an endpoint, as a daemon, and leaves the probe's answer
 * the one the endpoint reads.
 */
class NetworkWarmUpTest
{
    @Test
    void onlyCommandsThatOpenAnEndpointStartIt()
    {
        assertNull(NetworkWarmUp.startFor(new String[0]));
        assertNull(NetworkWarmUp.startFor(new String[] { "--version" }));
        assertNull(NetworkWarmUp.startFor(new String[] { "stat" }));
        assertNull(NetworkWarmUp.startFor(new String[] { "sim", "--help" }));
        assertNull(NetworkWarmUp.startFor(new String[] { "-perf" }), "only the subcommand's exact name");
    }

    @Test
    void aNetworkCommandStartsADaemonThatLeavesTheProbesAnswerAsTheEndpointSeesIt() throws InterruptedException
    {
        final Thread thread = NetworkWarmUp.startFor(new String[] { "perf", "-c", "127.0.0.1", "-t", "2" });
        assertNotNull(thread);
        assertTrue(thread.isDaemon(), "a command that fails on its arguments must not wait for it");
        thread.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(thread.isAlive());
        final BatchedPortSupport seen = BatchedPortSupport.current();
        assertSame(seen, BatchedPortSupport.current(), "probed once per JVM");
        assertEquals(BatchedPortSupport.isLibraryBundled(), seen.isAvailable(), seen.toString());
    }
}
