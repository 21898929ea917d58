package io.pacelink.transport.secure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecurePrimitivesWarmUpTest
{
    @ParameterizedTest
    @EnumSource(AeadAlgorithm.class)
    void runsAWholeHandshakeAndOneSealedMessageWithEachAead(final AeadAlgorithm algorithm)
    {
        assertTrue(SecurePrimitivesWarmUp.handshakeOnce(algorithm));
    }

    @Test
    void startsOneDaemonThreadPerAeadAndProcessAndTheThreadEnds() throws InterruptedException
    {
        // Other tests in this JVM may have launched secure endpoints already: whatever the first call finds, the
        // second never starts another thread.
        for (final AeadAlgorithm algorithm : AeadAlgorithm.values())
        {
            final Thread first = SecurePrimitivesWarmUp.startOnce(algorithm);
            if (null != first)
            {
                assertTrue(first.isDaemon(), "a warm-up never keeps a JVM from exiting");
                assertEquals(SecurePrimitivesWarmUp.THREAD_NAME, first.getName());
                first.join(30_000);
                assertFalse(first.isAlive());
            }
            assertNull(SecurePrimitivesWarmUp.startOnce(algorithm));
        }
    }
}
