package io.pacelink.transport;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In INVOKER mode the thread that invokes the agent notes the connections it acts on for its own next duty cycle,
 * without the many-to-one queue, only while it is the only thread that ever invoked: once another thread has, every
 * thread's signals take the queue, which any thread may use. The other modes never drive the agent from an
 * application's thread this way.
 */
class InvokingThreadTest
{
    @Test
    void onlyTheSoleInvokingThreadDrivesTheAgentAndNotAfterAnotherThreadInvoked() throws Exception
    {
        try (Endpoint endpoint = Endpoint.launch(new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0)).threadingMode(ThreadingMode.INVOKER)
            .acceptConnections(false).countersFile(false)))
        {
            assertFalse(endpoint.drivesAgent(), "before the first invoke");
            endpoint.invoke();
            assertTrue(endpoint.drivesAgent(), "the invoking thread");
            assertFalse(onAnotherThread(endpoint::drivesAgent), "another thread");
            endpoint.invoke();
            assertTrue(endpoint.drivesAgent(), "still the only one");

            onAnotherThread(() -> endpoint.invoke() >= 0);

            assertFalse(endpoint.drivesAgent(), "after a second thread invoked");
            endpoint.invoke();
            assertFalse(endpoint.drivesAgent(), "for good");
            assertFalse(onAnotherThread(() -> endpoint.invoke() >= 0 && endpoint.drivesAgent()), "either thread");
        }
    }

    @Test
    void aDedicatedEndpointsApplicationThreadNeverDrivesTheAgent()
    {
        try (Endpoint endpoint = Endpoint.launch(new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0)).acceptConnections(false).countersFile(false)))
        {
            assertFalse(endpoint.drivesAgent());
        }
    }

    private interface Check
    {
        boolean isTrue();
    }

    private static boolean onAnotherThread(final Check check) throws InterruptedException
    {
        final AtomicBoolean result = new AtomicBoolean();
        final Thread thread = new Thread(() -> result.set(check.isTrue()));
        thread.start();
        thread.join();
        return result.get();
    }
}
