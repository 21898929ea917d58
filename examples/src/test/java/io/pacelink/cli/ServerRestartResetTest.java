package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stateless reset across processes (RFC 9000 section 10.3; docs/security.md, "Stateless reset"): a {@code pacelink
 * ping --echo} server is killed ({@code kill -9}) and started again on the same port with the same host key; its
 * client's next request draws a stateless reset from the new process — whose token key, derived from the host key,
 * is the old one's — and {@code pacelink ping} fails at once saying the server reset the connection, instead of
 * waiting out its 10 s echo timeout or the idle timeout.
 */
class ServerRestartResetTest
{
    private static final String LISTENING = "listening on \\S+ port (\\d+)";

    @TempDir
    Path temp;

    @Test
    void aClientOfAKilledAndRestartedServerFailsAtOnceWithPeerReset() throws Exception
    {
        final String key = temp.resolve("server").toString();
        assertEquals(0, CommandRun.of("keygen", key).exitCode());
        final ChildJvm first = ChildJvm.start(temp.resolve("server-1.log"),
            "ping", "--echo", "-B", "127.0.0.1", "-p", "0", "--key", key + ".key");
        ChildJvm second = null;
        ChildJvm client = null;
        try
        {
            final int port = Integer.parseInt(first.await(LISTENING, 30_000).group(1));
            // One request every 8 s: the server is killed and restarted in the quiet after the first echo, so the
            // second request finds the new process (and no ICMP error from a dead port ends the connection first).
            client = ChildJvm.start(temp.resolve("client.log"), "ping", "127.0.0.1", "-p", Integer.toString(port),
                "--peer-key", key + ".pub", "-c", "3", "-i", "8", "-W", "10s");
            client.await("seq=1 ", 30_000);
            first.kill();
            second = ChildJvm.start(temp.resolve("server-2.log"),
                "ping", "--echo", "-B", "127.0.0.1", "-p", Integer.toString(port), "--key", key + ".key");
            assertEquals(port, Integer.parseInt(second.await(LISTENING, 30_000).group(1)));
            final long restartedNs = System.nanoTime();

            assertEquals(1, client.exitValue(30_000), client.output());
            final long failedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedNs);
            final String output = client.output();
            assertTrue(output.contains("reset the connection"), output);
            assertTrue(!output.contains("seq=2 "), output);
            System.out.println("the client failed " + failedAfterMs + " ms after the new server listened");
        }
        finally
        {
            if (null != client && client.process.isAlive())
            {
                client.kill();
            }
            if (null != second)
            {
                second.kill();
            }
            if (first.process.isAlive())
            {
                first.kill();
            }
        }
    }
}
