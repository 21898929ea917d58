package io.pacelink.transport;

import io.pacelink.transport.secure.AeadAlgorithm;
import io.pacelink.transport.secure.SecurePrimitivesWarmUp;

import java.util.EnumSet;
import java.util.Set;

/**
 * Starts {@link SecurePrimitivesWarmUp} on a daemon thread of its own, once per process and AEAD, as a secure endpoint
 * launches: the protocol's packages start no threads (time and work are the duty cycle's), so the thread is started
 * here, beside the endpoint's agent threads.
 */
final class SecureWarmUp
{
    /**
     * The warm-up thread's name.
     */
    static final String THREAD_NAME = "pacelink-crypto-warm-up";

    private static final Set<AeadAlgorithm> STARTED = EnumSet.noneOf(AeadAlgorithm.class);

    private SecureWarmUp()
    {
    }

    /**
     * Start the warm-up for this AEAD unless this process already has.
     *
     * @param algorithm the AEAD the endpoint's handshakes and packets use.
     * @return the thread started, or null if this AEAD was warmed up (or is being) already.
     */
    static Thread startOnce(final AeadAlgorithm algorithm)
    {
        synchronized (STARTED)
        {
            if (!STARTED.add(algorithm))
            {
                return null;
            }
        }
        final Thread thread = new Thread(() -> SecurePrimitivesWarmUp.handshakeOnce(algorithm), THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
