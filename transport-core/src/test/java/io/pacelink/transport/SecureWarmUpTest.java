package io.pacelink.transport;

import io.pacelink.transport.secure.AeadAlgorithm;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecureWarmUpTest
{
    @Test
    void startsOneDaemonThreadPerAeadAndProcessAndTheThreadEnds() throws InterruptedException
    {
        // Other tests in this JVM may have launched secure endpoints already: whatever the first call finds, the
        // second never starts another thread.
        for (final AeadAlgorithm algorithm : AeadAlgorithm.values())
        {
            final Thread first = SecureWarmUp.startOnce(algorithm);
            if (null != first)
            {
                assertTrue(first.isDaemon(), "a warm-up never keeps a JVM from exiting");
                assertEquals(SecureWarmUp.THREAD_NAME, first.getName());
                first.join(30_000);
                assertFalse(first.isAlive());
            }
            assertNull(SecureWarmUp.startOnce(algorithm));
        }
    }
}
