package io.pacelink.it;

import io.pacelink.transport.Connection;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.ThreadingMode;
import io.pacelink.transport.port.ImpairmentConfig;
import io.pacelink.transport.port.NioDatagramPort;
import io.pacelink.transport.stats.ConnectionCounters;
import io.pacelink.transport.stats.CounterKey;
import io.pacelink.transport.stats.CountersFile;
import io.pacelink.transport.stats.CountersFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where an endpoint's counters live: a memory-mapped file by default for an endpoint on its own socket, deleted when
 * the endpoint closes in every threading mode; in memory when asked, or when the endpoint is given a port.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EndpointCountersFileTest
{
    @TempDir
    Path directory;

    @Test
    void realEndpointsPublishTheirCountersInAFileUntilTheyClose()
    {
        final Path serverFile;
        final Path clientFile;
        try (LoopbackPair pair = new LoopbackPair(
            (context) -> context.countersDirectory(directory), ImpairmentConfig.NONE, ImpairmentConfig.NONE))
        {
            serverFile = pair.server.countersFile();
            clientFile = pair.client.countersFile();
            assertEquals(
                List.of(serverFile, clientFile).stream().sorted().toList(), CountersFileReader.list(directory));

            final Connection[] connections = pair.connect(TimeUnit.SECONDS.toNanos(5));
            try (CountersFileReader reader = CountersFileReader.open(clientFile).orElseThrow())
            {
                assertTrue(reader.description().startsWith("endpoint " + pair.client.localAddress()),
                    reader.description());
                assertTrue(reader.description().contains(" cc=reno scheduler=fq port="), reader.description());
                final long connectionId = connections[0].connectionId();
                final String[] state = { null };
                reader.countersReader().forEach((id, typeId, key, label) ->
                {
                    if (CounterKey.ownerId(key) == connectionId &&
                        ConnectionCounters.CONTROLLER_STATE_NAME.equals(CounterKey.name(key)))
                    {
                        final long value = reader.countersReader().getCounterValue(id);
                        state[0] = ConnectionCounters.controllerStateNames(label).get((int)value);
                    }
                });
                assertEquals("SLOW_START", state[0], "a new Reno connection, named through the counter's label");
            }
        }
        assertFalse(Files.exists(serverFile), "SHARED mode: deleted when the application's runner closes the agent");
        assertFalse(Files.exists(clientFile));
    }

    @Test
    void dedicatedEndpointDeletesItsFileOnClose()
    {
        final Endpoint endpoint = Endpoint.launch(new PacelinkContext()
            .threadingMode(ThreadingMode.DEDICATED)
            .countersDirectory(directory));
        final Path file = endpoint.countersFile();
        assertTrue(file.startsWith(directory) && Files.exists(file), String.valueOf(file));
        endpoint.close();
        assertFalse(Files.exists(file));
    }

    @Test
    void countersStayInMemoryWhenAskedOrWhenTheEndpointIsGivenAPort()
    {
        final PacelinkContext inMemory = new PacelinkContext()
            .threadingMode(ThreadingMode.INVOKER)
            .countersDirectory(directory)
            .countersFile(false);
        try (Endpoint endpoint = Endpoint.launch(inMemory))
        {
            assertNull(endpoint.countersFile());
        }

        final PacelinkContext withPort = new PacelinkContext()
            .threadingMode(ThreadingMode.INVOKER)
            .countersDirectory(directory)
            .datagramPort(NioDatagramPort.open(new InetSocketAddress("127.0.0.1", 0), 64 * 1024));
        assertFalse(withPort.countersFile(), "a given port (the simulator, tests) means in-memory counters");
        try (Endpoint endpoint = Endpoint.launch(withPort))
        {
            assertNull(endpoint.countersFile());
        }
        assertEquals(List.of(), CountersFileReader.list(directory));
        assertTrue(new PacelinkContext().countersFile(), "a real endpoint is visible to pacelink stat by default");
        assertEquals(CountersFile.defaultDirectory(), new PacelinkContext().countersDirectory());
    }

    @Test
    void anUnwritableCountersDirectoryFailsTheLaunchSayingHowToFixIt() throws Exception
    {
        final Path notADirectory = Files.createFile(directory.resolve("file"));
        final PacelinkContext context = new PacelinkContext().countersDirectory(notADirectory.resolve("sub"));
        final Exception ex = assertThrows(UncheckedIOException.class, () -> Endpoint.launch(context));
        assertTrue(ex.getMessage().contains("countersFile(false)"), ex.getMessage());
    }
}
