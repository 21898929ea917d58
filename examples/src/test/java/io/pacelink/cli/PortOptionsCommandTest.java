package io.pacelink.cli;

import io.pacelink.transport.port.BatchedPortSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code --io}, {@code --gso} and {@code --ecn} across processes (docs/io.md): a NIO echo server and a batched client
 * without GSO talk to each other; a process whose batched port is switched off falls back to NIO with
 * {@code --io auto} and refuses {@code --io batched}, saying why; bad values fail before anything runs. Never timed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PortOptionsCommandTest
{
    private static final long START_TIMEOUT_MS = 30_000;
    private static final long RUN_TIMEOUT_SECONDS = 60;

    @Test
    void aNioServerAndABatchedClientWithoutGsoPingEachOther() throws Exception
    {
        assumeTrue(BatchedPortSupport.current().isAvailable() || BatchedPortSupport.isLibraryBundled(),
            BatchedPortSupport.current().toString());
        try (ChildCommand echo = ChildCommand.start("ping", "--echo", "--io", "nio", "-B", "127.0.0.1", "-p", "0"))
        {
            final String port = echo.await("Server listening on 127\\.0\\.0\\.1 port (\\d+)", START_TIMEOUT_MS);
            final ChildCommand ping = ChildCommand.start("ping", "127.0.0.1:" + port, "--io", "batched", "--gso",
                "off", "-c", "50", "-i", "0", "-s", "1400", "--json");
            assertEquals(0, ping.waitFor(RUN_TIMEOUT_SECONDS), ping.err());
            final Map<String, Object> json = MiniJson.object(MiniJson.parse(ping.out().trim()));
            assertEquals(50.0, json.get("echoes"), ping.out());
        }
    }

    @Test
    void aProcessWithoutTheBatchedPortFallsBackOnAutoAndRefusesBatched() throws Exception
    {
        final String off = "-D" + BatchedPortSupport.DISABLE_PROPERTY + "=true";
        final ChildJvmRun refused = ChildJvmRun.of(off, "perf", "-s", "-1", "-B", "127.0.0.1", "-p", "0", "--io",
            "batched");
        assertTrue(0 != refused.exitCode(), refused.err());
        assertTrue(refused.err().contains("the batched port is unavailable here: turned off by -D" +
            BatchedPortSupport.DISABLE_PROPERTY), refused.err());

        try (ChildCommand echo = ChildCommand.startWith(List.of(off), "ping", "--echo", "-B", "127.0.0.1", "-p", "0"))
        {
            final String port = echo.await("Server listening on 127\\.0\\.0\\.1 port (\\d+)", START_TIMEOUT_MS);
            // One line, once, saying why (java.util.logging prints it with its level).
            echo.await("(pacelink: datagram port nio \\(batched port unavailable: turned off by -D" +
                BatchedPortSupport.DISABLE_PROPERTY.replace(".", "\\.") + "=true\\))", START_TIMEOUT_MS);
            final ChildCommand ping = ChildCommand.start("ping", "127.0.0.1:" + port, "-c", "20", "-i", "0",
                "--json");
            assertEquals(0, ping.waitFor(RUN_TIMEOUT_SECONDS), ping.err());
            assertEquals(20.0, MiniJson.object(MiniJson.parse(ping.out().trim())).get("echoes"), ping.out());
        }
    }

    @Test
    void badValuesFailFastWithStatusTwo()
    {
        assertUsageError("--io must be auto, nio or batched, got 'fast'", "perf", "-c", "127.0.0.1", "--io", "fast");
        assertUsageError("--gso must be on or off, got 'maybe'", "perf", "-s", "--gso", "maybe");
        assertUsageError("--io, --gso and --ecn choose a Pacelink endpoint's port; --raw-udp", "ping", "127.0.0.1",
            "--raw-udp", "--io", "nio");
        assertUsageError("--io must be auto, nio or batched", "send", "a", "127.0.0.1", "--io", "x");
        assertUsageError("--gso must be on or off", "receive", "--gso", "1");
        assertUsageError("--virtual runs no sockets", "demo", "--virtual", "--io", "nio");
        assertUsageError("--ecn must be on or off, got 'yes'", "perf", "-s", "--ecn", "yes");
        assertUsageError("--ecn must be on or off", "send", "a", "127.0.0.1", "--ecn", "");
        assertUsageError("--virtual runs no sockets", "demo", "--virtual", "--ecn", "off");
        assertUsageError("the relay carries each datagram's codepoint as it arrives", "netem", "--listen", "9000",
            "--forward", "127.0.0.1:9001", "--path", "delay=1ms", "--ecn", "off");
    }

    private static void assertUsageError(final String message, final String... args)
    {
        final CommandRun run = CommandRun.of(args);
        assertEquals(2, run.exitCode(), String.join(" ", args) + ": " + run.out() + run.err());
        assertTrue(run.err().contains(message), String.join(" ", args) + ": " + run.err());
    }

    /**
     * A command in a child JVM with extra JVM options, run to its end.
     */
    private record ChildJvmRun(int exitCode, String out, String err)
    {
        static ChildJvmRun of(final String jvmOption, final String... args) throws Exception
        {
            try (ChildCommand command = ChildCommand.startWith(List.of(jvmOption), args))
            {
                final int exit = command.waitFor(RUN_TIMEOUT_SECONDS);
                return new ChildJvmRun(exit, command.out(), command.err());
            }
        }
    }
}
