package io.pacelink.cli;

import io.pacelink.cli.trust.KnownHosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commands README.md and docs/tools.md show run as written — every server on every address, no key given — and
 * are encrypted (docs/security.md, "Secure with zero setup"): the server makes its host key and prints its
 * fingerprint, the first client to meet it announces the same fingerprint, trusted once the handshake proved the
 * server holds the key, and remembers it; later clients connect silently. Each command runs in its own JVM with its
 * own configuration directory per host, as on two machines; only the port is added (a free one instead of the
 * default, which other builds on this machine may hold). The test first checks the documents still show these very
 * commands.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ZeroSetupSecurityTest
{
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final String HOST_KEY = "pacelink: host key (SHA256:[A-Za-z0-9+/]{43}) ";
    private static final long RUN_SECONDS = 60;

    @TempDir
    Path temp;

    @Test
    void theDocumentsShowTheseCommands() throws IOException
    {
        final String readme = Files.readString(REPOSITORY.resolve("README.md"));
        final String tools = Files.readString(REPOSITORY.resolve("docs/tools.md"));
        for (final String command : List.of("pacelink perf -s ", "pacelink perf -c 127.0.0.1 -t 5 -C bbr -P 2",
            "pacelink ping 127.0.0.1 -c 5 -i 0.2", "pacelink receive --dir /data/incoming",
            "pacelink send big.iso photos receiver.example", "pacelink keygen server",
            "pacelink receive --key server.key --listen 127.0.0.1:7475 --dir incoming",
            "pacelink send --peer-key server.pub big.iso 127.0.0.1:7475", "pacelink keygen --psk shared.psk"))
        {
            assertTrue(readme.contains(command), "README.md no longer shows: " + command);
        }
        for (final String command : List.of("pacelink receive --dir /tmp/demo/incoming",
            "pacelink.jar perf -c 127.0.0.1 -t 5 -C bbr -P 2", "pacelink.jar ping 127.0.0.1 -c 5 -i 0.2",
            "pacelink ping --echo"))
        {
            assertTrue(tools.contains(command), "docs/tools.md no longer shows: " + command);
        }
    }

    @Test
    void perfAndPingRunAsWrittenEncryptedTrustingTheServerOnFirstUse() throws Exception
    {
        final Path serverHost = temp.resolve("server-host");
        final Path clientHost = temp.resolve("client-host");
        final String port = freePort();
        try (ChildCommand server = ChildCommand.start(serverHost, "perf", "-s", "-p", port))
        {
            server.await("Server listening on .* port (" + port + ")", 30_000);
            final String fingerprint = server.await(HOST_KEY, 1_000);

            final ChildCommand perf = ChildCommand.start(clientHost, "perf", "-c", "127.0.0.1", "-t", "2", "-C",
                "bbr", "-P", "2", "-p", port);
            assertEquals(0, perf.waitFor(RUN_SECONDS), perf.out() + perf.err());
            assertTrue(perf.out().contains("[SUM]") && perf.out().contains("receiver"), perf.out());
            assertFirstUse(perf, port, fingerprint);

            final ChildCommand ping = ChildCommand.start(clientHost, "ping", "127.0.0.1:" + port, "-c", "5", "-i",
                "0.2");
            assertEquals(0, ping.waitFor(RUN_SECONDS), ping.out() + ping.err());
            assertTrue(ping.out().contains("5 requests sent, 5 echoes received") ||
                ping.out().contains("5 packets transmitted, 5 received"), ping.out());
            assertFalse(ping.err().contains("new server"), "a known server is not announced again: " + ping.err());
        }
        final List<KnownHosts.Entry> known =
            new KnownHosts(clientHost.resolve(KnownHosts.FILE_NAME)).lookup("127.0.0.1:" + port);
        assertEquals(1, known.size());
    }

    @Test
    void pingEchoServesOnEveryAddressEncrypted() throws Exception
    {
        final String port = freePort();
        try (ChildCommand echo = ChildCommand.start(temp.resolve("server-host"), "ping", "--echo", "-p", port))
        {
            final String fingerprint = echo.await(HOST_KEY, 30_000);
            final ChildCommand ping = ChildCommand.start(temp.resolve("client-host"), "ping", "127.0.0.1:" + port,
                "-c", "3", "-i", "0.1");
            assertEquals(0, ping.waitFor(RUN_SECONDS), ping.out() + ping.err());
            assertFirstUse(ping, port, fingerprint);
        }
    }

    @Test
    void receiveAndSendRunAsWrittenEncryptedWithTheHostKeyAPinnedKeyOrAPreSharedKey() throws Exception
    {
        final Path sources = Files.createDirectories(temp.resolve("sources"));
        final Path bigIso = Files.write(sources.resolve("big.iso"), randomBytes(3 << 20, 1));
        final Path photos = Files.createDirectories(sources.resolve("photos"));
        Files.write(photos.resolve("dunes.jpg"), randomBytes(200_000, 2));

        // README: pacelink receive --dir /data/incoming, then pacelink send big.iso photos receiver.example.
        final Path serverHost = temp.resolve("server-host");
        final Path clientHost = temp.resolve("client-host");
        final Path incoming = Files.createDirectories(temp.resolve("incoming"));
        final String port = freePort();
        try (ChildCommand receiver = ChildCommand.start(serverHost, "receive", "--dir", incoming.toString(),
            "--listen", "0.0.0.0:" + port))
        {
            receiver.await("listening on (0\\.0\\.0\\.0):", 30_000);
            final String fingerprint = receiver.await(HOST_KEY, 1_000);
            final ChildCommand sender = ChildCommand.start(clientHost, "send", bigIso.toString(), photos.toString(),
                "127.0.0.1:" + port);
            assertEquals(0, sender.waitFor(RUN_SECONDS), sender.out() + sender.err());
            assertFirstUse(sender, port, fingerprint);
            assertEquals(-1, Files.mismatch(bigIso, incoming.resolve("big.iso")));
            assertEquals(-1, Files.mismatch(photos.resolve("dunes.jpg"), incoming.resolve("photos/dunes.jpg")));
        }

        // README's "Encrypted and authenticated": keygen server, receive --key server.key, send --peer-key server.pub.
        final Path keys = Files.createDirectories(temp.resolve("keys"));
        final String server = keys.resolve("server").toString();
        assertEquals(0, CommandRun.of("keygen", server).exitCode());
        final String psk = keys.resolve("shared.psk").toString();
        assertEquals(0, CommandRun.of("keygen", "--psk", psk).exitCode());
        for (final String[][] ends : new String[][][]{
            { { "--key", server + ".key" }, { "--peer-key", server + ".pub" } },
            { { "--psk", psk }, { "--psk", psk } } })
        {
            final Path into = Files.createDirectories(temp.resolve("incoming-" + ends[0][0].substring(2)));
            final String keyedPort = freePort();
            try (ChildCommand receiver = ChildCommand.start(serverHost, concat(new String[]{ "receive" }, ends[0],
                new String[]{ "--dir", into.toString(), "--listen", "0.0.0.0:" + keyedPort })))
            {
                receiver.await("listening on (0\\.0\\.0\\.0):", 30_000);
                final ChildCommand sender = ChildCommand.start(clientHost, concat(new String[]{ "send" }, ends[1],
                    new String[]{ bigIso.toString(), "127.0.0.1:" + keyedPort }));
                assertEquals(0, sender.waitFor(RUN_SECONDS), sender.out() + sender.err());
                assertEquals(-1, Files.mismatch(bigIso, into.resolve("big.iso")));
                assertFalse(receiver.err().contains("host key"), "a given key replaces the host key");
                assertFalse(sender.err().contains("new server"), "a pinned or shared key needs no trust on first use");
            }
        }
    }

    private static void assertFirstUse(final ChildCommand client, final String port, final String fingerprint)
    {
        assertTrue(client.err().contains("pacelink: 127.0.0.1:" + port + " is a new server; trusting its key " +
            fingerprint), "no first-use notice with the server's fingerprint " + fingerprint + ": " + client.err());
    }

    private static String freePort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return Integer.toString(socket.getLocalPort());
        }
    }

    private static byte[] randomBytes(final int length, final long seed)
    {
        final byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static String[] concat(final String[]... parts)
    {
        final List<String> all = new ArrayList<>();
        for (final String[] part : parts)
        {
            all.addAll(Arrays.asList(part));
        }
        return all.toArray(new String[0]);
    }
}
