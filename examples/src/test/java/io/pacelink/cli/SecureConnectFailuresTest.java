package io.pacelink.cli;

import io.pacelink.cli.trust.HostKeyStore;
import io.pacelink.cli.trust.KnownHosts;
import io.pacelink.transport.Endpoint;
import io.pacelink.transport.PacelinkContext;
import io.pacelink.transport.keys.KeyFiles;
import io.pacelink.transport.keys.KeyFingerprint;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every way a tool's connect fails says what it is (docs/security.md, "Every failure says what it is"), each seen
 * from a client in its own JVM: a pinned key that is not the server's, a server key that changed since it was
 * trusted, a server not yet trusted under {@code --strict-host-key}, pre-shared keys that differ, a secure client and
 * a plaintext server and the other way round, a refusal with the server's reason, and silence. Damaged or exposed
 * local files are usage errors naming the file. (A closed port, reported by ICMP, is {@code PerfCommandTest}'s.)
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SecureConnectFailuresTest
{
    private static final long RUN_SECONDS = 60;

    @TempDir
    Path temp;

    private Path serverHost;
    private Path clientHost;
    private Path file;

    @BeforeEach
    void hosts() throws IOException
    {
        serverHost = temp.resolve("server-host");
        clientHost = temp.resolve("client-host");
        file = Files.writeString(temp.resolve("a.txt"), "a");
    }

    @Test
    void aPinnedKeyThatIsNotTheServersIsAWrongKeyNamingBoth() throws Exception
    {
        final String other = temp.resolve("other").toString();
        assertEquals(0, CommandRun.of("keygen", other).exitCode());
        try (ChildCommand server = perfServer())
        {
            final String port = server.await("Server listening on .* port (\\d+)", 30_000);
            final String serverKey = HostKeyStore.loadOrCreate(serverHost).fingerprint();
            final String otherKey = KeyFingerprint.of(KeyFiles.readPublicKey(Path.of(other + ".pub")));
            final ChildCommand perf = client("perf", "-c", "127.0.0.1", "-p", port, "-t", "1", "--peer-key",
                other + ".pub");
            assertFails(perf, "cannot connect to 127.0.0.1:" + port + ": authentication failed (the server " +
                "presents key " + serverKey + ", not the pinned key " + otherKey + ")");
        }
    }

    @Test
    void aServerKeyThatChangedSinceItWasTrustedIsRefusedLoudlyWithBothFingerprints() throws Exception
    {
        try (ChildCommand receiver = receiver())
        {
            final String port = receiver.await("listening on 127\\.0\\.0\\.1:(\\d+)", 30_000);
            final String serverKey = HostKeyStore.loadOrCreate(serverHost).fingerprint();
            final byte[] oldKey = HostKeyStore.loadOrCreate(temp.resolve("old-host")).publicKey();
            new KnownHosts(clientHost.resolve(KnownHosts.FILE_NAME)).add("127.0.0.1:" + port, oldKey);
            final ChildCommand send = client("send", file.toString(), "127.0.0.1:" + port);
            assertFails(send, "cannot connect to 127.0.0.1:" + port + ": authentication failed (the server's key " +
                "has changed: 127.0.0.1:" + port + " proved it holds " + serverKey + ", but " +
                clientHost.resolve(KnownHosts.FILE_NAME) + " line 2 trusts " + KeyFingerprint.of(oldKey));
            final String printed = send.out() + send.err();
            assertTrue(printed.contains("man in the middle") && printed.contains("delete line 2"), printed);
            assertEquals(1, new KnownHosts(clientHost.resolve(KnownHosts.FILE_NAME)).entries().size(),
                "nothing recorded");
        }
    }

    @Test
    void anUnknownServerUnderStrictHostKeyIsRefusedShowingItsFingerprint() throws Exception
    {
        try (ChildCommand server = perfServer())
        {
            final String port = server.await("Server listening on .* port (\\d+)", 30_000);
            final String serverKey = HostKeyStore.loadOrCreate(serverHost).fingerprint();
            final ChildCommand ping = client("ping", "127.0.0.1:" + port, "-c", "1", "--strict-host-key");
            assertFails(ping, "cannot connect to 127.0.0.1:" + port + ": authentication failed (unknown server " +
                "key: 127.0.0.1:" + port + " is not in " + clientHost.resolve(KnownHosts.FILE_NAME) +
                " (--strict-host-key); its key is " + serverKey);
            final ChildCommand trusting = client("ping", "127.0.0.1:" + port, "-c", "1");
            assertEquals(0, trusting.waitFor(RUN_SECONDS), trusting.err());
            final ChildCommand strictNow = client("ping", "127.0.0.1:" + port, "-c", "1", "--strict-host-key");
            assertEquals(0, strictNow.waitFor(RUN_SECONDS), "known now: " + strictNow.err());
        }
    }

    @Test
    void preSharedKeysThatDifferAreAnAuthenticationFailure() throws Exception
    {
        final String mine = temp.resolve("mine.psk").toString();
        final String theirs = temp.resolve("theirs.psk").toString();
        assertEquals(0, CommandRun.of("keygen", "--psk", mine).exitCode());
        assertEquals(0, CommandRun.of("keygen", "--psk", theirs).exitCode());
        try (ChildCommand receiver = receiver("--psk", theirs))
        {
            final String port = receiver.await("listening on 127\\.0\\.0\\.1:(\\d+)", 30_000);
            assertFails(client("send", file.toString(), "127.0.0.1:" + port, "--psk", mine),
                "cannot connect to 127.0.0.1:" + port + ": authentication failed (wrong pre-shared key: the " +
                "hello's MAC does not check with this server's pre-shared key");
        }
    }

    @Test
    void aSecureClientAndAPlaintextServerSayWhichSideWantsWhatBothWays() throws Exception
    {
        try (ChildCommand plaintext = perfServer("--insecure"); ChildCommand secure = perfServer())
        {
            final String plaintextPort = plaintext.await("Server listening on .* port (\\d+)", 30_000);
            final String securePort = secure.await("Server listening on .* port (\\d+)", 30_000);
            assertFails(client("perf", "-c", "127.0.0.1", "-p", plaintextPort, "-t", "1"),
                "cannot connect to 127.0.0.1:" + plaintextPort + ": the two ends' security settings do not match " +
                "(secure mode unsupported: this server has no key and speaks plaintext only); with the pacelink " +
                "tools, give --insecure at both ends or at neither");
            assertFails(client("perf", "-c", "127.0.0.1", "-p", securePort, "-t", "1", "--insecure"),
                "cannot connect to 127.0.0.1:" + securePort + ": the two ends' security settings do not match " +
                "(secure mode required: this server speaks only the secure mode");
        }
    }

    @Test
    void aRefusalCarriesTheServersReason() throws Exception
    {
        // A server that holds one connection and refuses the next: an application's endpoint in this JVM, with a
        // host key the client trusts on first use like any other.
        final PacelinkContext context = new PacelinkContext()
            .bindAddress(new InetSocketAddress("127.0.0.1", 0))
            .maxConnections(1);
        context.security().serverPrivateKey(HostKeyStore.loadOrCreate(serverHost).privateKey());
        final Endpoint server = Endpoint.launch(context);
        try (ChildCommand first = client("ping", "127.0.0.1:" + server.localAddress().getPort(), "-c", "1000"))
        {
            final String port = Integer.toString(server.localAddress().getPort());
            while (null == server.accept())
            {
                TimeUnit.MILLISECONDS.sleep(10);
            }
            assertFails(client("send", file.toString(), "127.0.0.1:" + port),
                "cannot connect to 127.0.0.1:" + port + ": the server refused the connection (the server has its " +
                "maximum of connections)");
        }
        finally
        {
            server.closeNow(); // the pinging client's connection is of no interest: no linger for it
        }
    }

    @Test
    void silenceIsNoAnswerAndSaysWhatToCheck() throws Exception
    {
        try (DatagramSocket silent = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            final String port = Integer.toString(silent.getLocalPort());
            assertFails(client("perf", "-c", "127.0.0.1", "-p", port, "-t", "1", "--connect-timeout", "1s"),
                "cannot connect to 127.0.0.1:" + port + ": no answer within 1 s: is `pacelink perf -s` running " +
                "there, and is UDP port " + port + " reachable");
        }
    }

    @Test
    void damagedOrExposedLocalFilesAreUsageErrorsNamingTheFile() throws Exception
    {
        Files.createDirectories(clientHost);
        Files.writeString(clientHost.resolve(KnownHosts.FILE_NAME), "127.0.0.1:9 x25519 nonsense\n");
        final ChildCommand damaged = client("send", file.toString(), "127.0.0.1:9");
        assertEquals(2, damaged.waitFor(RUN_SECONDS), damaged.err());
        assertTrue(damaged.err().contains(clientHost.resolve(KnownHosts.FILE_NAME) + " line 1 is malformed"),
            damaged.err());

        final Path hostKey = HostKeyStore.loadOrCreate(serverHost).privateFile();
        Files.setPosixFilePermissions(hostKey, PosixFilePermissions.fromString("rw-r--r--"));
        final ChildCommand exposed = ChildCommand.start(serverHost, "perf", "-s", "-B", "127.0.0.1", "-p", "0");
        assertEquals(2, exposed.waitFor(RUN_SECONDS), exposed.err());
        assertTrue(exposed.err().contains("chmod 600 " + hostKey), exposed.err());

        final ChildCommand contradiction = client("send", file.toString(), "127.0.0.1:9", "--insecure", "--psk",
            temp.resolve("x.psk").toString());
        assertEquals(2, contradiction.waitFor(RUN_SECONDS), contradiction.err());
        assertTrue(contradiction.err().contains("--insecure turns the secure mode off"), contradiction.err());
    }

    private ChildCommand perfServer(final String... extra) throws IOException
    {
        return ChildCommand.start(serverHost, with(new String[]{ "perf", "-s", "-B", "127.0.0.1", "-p", "0" }, extra));
    }

    private ChildCommand receiver(final String... extra) throws IOException
    {
        return ChildCommand.start(serverHost,
            with(new String[]{ "receive", "--listen", "127.0.0.1:0", "--dir", temp.toString() }, extra));
    }

    private static String[] with(final String[] base, final String[] extra)
    {
        final String[] args = Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return args;
    }

    private ChildCommand client(final String... args) throws IOException
    {
        return ChildCommand.start(clientHost, args);
    }

    private static void assertFails(final ChildCommand client, final String message) throws InterruptedException
    {
        assertEquals(1, client.waitFor(RUN_SECONDS), client.out() + client.err());
        assertTrue((client.out() + client.err()).contains(message),
            "expected: " + message + "\nout: " + client.out() + "\nerr: " + client.err());
    }
}
