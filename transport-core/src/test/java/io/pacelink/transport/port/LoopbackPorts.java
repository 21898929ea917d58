package io.pacelink.transport.port;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Opens either port on the loopback address for tests that run against both: {@code nio}, or {@code batched} (which
 * skips the test where the build carries no native library, and fails it where the library is there but broken).
 */
public final class LoopbackPorts
{
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

    private LoopbackPorts()
    {
    }

    /**
     * Skip the calling test where the build carries no native library (no gcc, another OS); fail it where the
     * library is there but the port does not work.
     */
    public static void requireBatchedPort()
    {
        if (BatchedPortSupport.isLibraryBundled())
        {
            assertTrue(BatchedDatagramPort.support().isAvailable(), BatchedDatagramPort.support().toString());
        }
        assumeTrue(BatchedDatagramPort.support().isAvailable(), BatchedDatagramPort.support().toString());
    }

    /**
     * @param kind {@code nio}, {@code batched}, or {@code batched-ppoll}: the batched port as where no timerfd can be
     *             created, its waits' {@code ppoll} taking each timeout.
     * @return an open port on 127.0.0.1 with 1 MiB socket buffers, GSO on.
     */
    public static DatagramPort open(final String kind)
    {
        if (kind.startsWith("batched"))
        {
            requireBatchedPort();
            final BatchedDatagramPort port = BatchedDatagramPort.open(LOOPBACK, 1 << 20, true);
            if ("batched-ppoll".equals(kind))
            {
                port.closeDeadlineTimer();
            }
            return port;
        }
        return NioDatagramPort.open(LOOPBACK, 1 << 20);
    }
}
