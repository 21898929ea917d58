package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A NAT rebinding mid-transfer, three JVMs ({@code pacelink receive}, {@code pacelink netem --rebind-after},
 * {@code pacelink send}, encrypted as the tools are by default): the relay gives the sender a new source port toward
 * the receiver while the file is on its way, and the receiver's connection follows it after path validation
 * (RFC 9000 section 9), so the file arrives byte-exact. Before connection migration the receiver dropped every packet
 * from the new port and the transfer died with its idle timeout.
 */
class NatRebindingNetemTest
{
    private static final String PATH = "rate=50mbit delay=10ms";

    @TempDir
    Path temp;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aTransferSurvivesANatRebindingByteExact() throws Exception
    {
        transferThroughARebinding(16_000_000, "1s");
    }

    /**
     * The acceptance run: 100 MB surviving a rebinding. Opt-in ({@code -Dpacelink.acceptance=true}): about 20 s at
     * the path's 50 Mbit/s.
     */
    @Test
    @EnabledIfSystemProperty(named = "pacelink.acceptance", matches = "true")
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aHundredMegabytesSurviveANatRebindingByteExact() throws Exception
    {
        transferThroughARebinding(100_000_000, "5s");
    }

    private void transferThroughARebinding(final int sizeBytes, final String rebindAfter) throws Exception
    {
        final Path source = temp.resolve("rebound.bin");
        final byte[] content = new byte[sizeBytes];
        new Random(23).nextBytes(content);
        Files.write(source, content);
        final Path destination = Files.createDirectories(temp.resolve("dst"));
        try (ChildCommand receiver = ChildCommand.start("receive", "-1", "--listen", "127.0.0.1:0",
            "--dir", destination.toString(), "--json"))
        {
            final String receiverPort = receiver.await("\"address\":\"127\\.0\\.0\\.1:(\\d+)\"", 30_000);
            try (ChildCommand relay = ChildCommand.start("netem", "--listen", "127.0.0.1:0", "--forward",
                "127.0.0.1:" + receiverPort, "--path", PATH, "--rebind-after", rebindAfter, "--counters-dir",
                Files.createDirectories(temp.resolve("counters")).toString()))
            {
                final String relayPort = relay.await("relaying 127\\.0\\.0\\.1:(\\d+) ->", 30_000);
                final long startNs = System.nanoTime();
                final ChildCommand sender = ChildCommand.start("send", source.toString(), "127.0.0.1:" + relayPort,
                    "--json");
                assertEquals(0, sender.waitFor(540), sender.out() + sender.err());
                final double seconds = (System.nanoTime() - startNs) / 1e9;
                assertEquals(0, receiver.waitFor(60), receiver.out() + receiver.err());
                assertTrue(relay.out().contains("rebinding: 1 client(s) now reach the server from a new source port"),
                    "the relay rebound during the transfer: " + relay.out());
                assertEquals(-1, Files.mismatch(source, destination.resolve(source.getFileName())));
                System.out.printf("%d bytes through a NAT rebinding after %s: byte-exact in %.1f s%n",
                    sizeBytes, rebindAfter, seconds);
            }
        }
    }
}
