package io.pacelink.transport.port;

import java.net.InetSocketAddress;

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
     * @param kind {@code nio} or {@code batched}.
     * @return an open port on 127.0.0.1 with 1 MiB socket buffers, GSO on.
     */
    public static DatagramPort open(final String kind)
    {
        if ("batched".equals(kind))
        {
            assumeTrue(BatchedDatagramPort.support().isAvailable() || BatchedPortSupport.isLibraryBundled(),
                BatchedDatagramPort.support().toString());
            return BatchedDatagramPort.open(LOOPBACK, 1 << 20, true);
        }
        return NioDatagramPort.open(LOOPBACK, 1 << 20);
    }
}
