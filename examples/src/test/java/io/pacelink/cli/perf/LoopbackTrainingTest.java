package io.pacelink.cli.perf;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LoopbackTraining}: its server listens on loopback only. The whole training (one-off servers on the ports
 * they took, both ends' tests in one process) runs in {@code PerfCommandTest}.
 */
class LoopbackTrainingTest
{
    @Test
    void aServerOffLoopbackIsRefusedBeforeAnythingStarts()
    {
        final PerfServer.Options everywhere = new PerfServer.Options(new InetSocketAddress("0.0.0.0", 0), true,
            false, null, false, (context) -> { });
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> LoopbackTraining.runOneTest(everywhere, (address) -> "not called"));
        assertTrue(refused.getMessage().contains("loopback only"), refused.getMessage());
    }
}
