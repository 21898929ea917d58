package io.pacelink.cli.trust;

import io.pacelink.transport.keys.KeyFiles;
import io.pacelink.transport.keys.KeyFingerprint;
import io.pacelink.transport.secure.X25519;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The zero-setup stores (docs/security.md, "Secure with zero setup"): where the configuration lives, the host key
 * made once (also by servers starting together) and refused when exposed, the known-hosts file's names, entries,
 * damaged lines and concurrent first uses, and the verifier's three answers — known, new, changed — and its strict
 * mode.
 */
class TrustStoresTest
{
    @TempDir
    Path temp;

    @Test
    void theConfigurationDirectoryIsThePropertyElseXdgElseTheHomesDotConfig()
    {
        assertEquals(Path.of("/p/q"), ConfigDirectory.resolve("/p/q", Map.of("XDG_CONFIG_HOME", "/x"), "/home/u"));
        assertEquals(Path.of("/x/pacelink"), ConfigDirectory.resolve(null, Map.of("XDG_CONFIG_HOME", "/x"), "/h"));
        assertEquals(Path.of("/h/.config/pacelink"),
            ConfigDirectory.resolve("", Map.of("XDG_CONFIG_HOME", "relative"), "/h"), "a relative XDG is ignored");
        assertEquals(Path.of("/h/.config/pacelink"), ConfigDirectory.resolve(null, Map.of(), "/h"));
    }

    @Test
    void theHostKeyIsCreatedOncePrivateAndLoadedAfterwards() throws IOException
    {
        final Path directory = temp.resolve("config/pacelink");
        final HostKey first = HostKeyStore.loadOrCreate(directory);
        assertTrue(first.isCreated());
        assertEquals("rwx------", permissions(directory));
        assertEquals("rw-------", permissions(first.privateFile()));
        assertEquals("rw-r--r--", permissions(first.publicFile()));
        assertArrayEquals(first.publicKey(), KeyFiles.readPublicKey(first.publicFile()));
        assertArrayEquals(first.publicKey(), new X25519().publicKey(first.privateKey()));
        assertTrue(first.describe().startsWith("host key " + KeyFingerprint.of(first.publicKey())), first.describe());

        final HostKey again = HostKeyStore.loadOrCreate(directory);
        assertFalse(again.isCreated());
        assertArrayEquals(first.privateKey(), again.privateKey());

        Files.delete(first.publicFile());
        assertArrayEquals(first.publicKey(), KeyFiles.readPublicKey(HostKeyStore.loadOrCreate(directory).publicFile()),
            "a missing public file is written again from the private key");
        try (var files = Files.list(directory))
        {
            assertEquals(Set.of("host.key", "host.pub"),
                Set.copyOf(files.map((p) -> p.getFileName().toString()).toList()), "no temporary files left");
        }
    }

    @Test
    void serversStartingTogetherEndUpWithOneHostKey() throws Exception
    {
        final Path directory = temp.resolve("pacelink");
        final int threads = 6;
        final CyclicBarrier start = new CyclicBarrier(threads);
        final Set<String> fingerprints = ConcurrentHashMap.newKeySet();
        final List<Thread> racers = new ArrayList<>();
        final List<Throwable> failures = new ArrayList<>();
        for (int i = 0; i < threads; i++)
        {
            final Thread racer = new Thread(() ->
            {
                try
                {
                    start.await();
                    fingerprints.add(HostKeyStore.loadOrCreate(directory).fingerprint());
                }
                catch (final Exception ex)
                {
                    synchronized (failures)
                    {
                        failures.add(ex);
                    }
                }
            });
            racer.start();
            racers.add(racer);
        }
        for (final Thread racer : racers)
        {
            racer.join();
        }
        assertEquals(List.of(), failures);
        assertEquals(1, fingerprints.size(), fingerprints.toString());
    }

    @Test
    void anExposedOrDamagedHostKeyIsRefusedSayingHowToFixIt() throws IOException
    {
        final Path directory = temp.resolve("pacelink");
        final HostKey key = HostKeyStore.loadOrCreate(directory);
        Files.setPosixFilePermissions(key.privateFile(), PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostKeyStore.loadOrCreate(directory))
            .getMessage().contains("chmod 600"));
        Files.setPosixFilePermissions(key.privateFile(), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(key.privateFile(), "-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n");
        assertThrows(IllegalArgumentException.class, () -> HostKeyStore.loadOrCreate(directory));
    }

    @Test
    void aServerIsNamedAsTheUserNamedItWithItsPort() throws IOException
    {
        assertEquals("127.0.0.1:5201", KnownHosts.name(new InetSocketAddress("127.0.0.1", 5201)));
        assertEquals("[0:0:0:0:0:0:0:1]:7474",
            KnownHosts.name(new InetSocketAddress(InetAddress.getByName("::1"), 7474)));
        assertEquals("localhost:9", KnownHosts.name(new InetSocketAddress("LocalHost", 9)));
    }

    @Test
    void entriesAreAddedOnceAndFoundByName() throws IOException
    {
        final KnownHosts knownHosts = new KnownHosts(temp.resolve("pacelink/known_hosts"));
        assertEquals(List.of(), knownHosts.lookup("a:1"), "no file is no entries");
        final byte[] key = key(1);
        final KnownHosts.Entry added = knownHosts.add("a:1", key);
        assertEquals(2, added.line(), "after the header comment");
        assertEquals(added.line(), knownHosts.add("a:1", key).line(), "the same entry again adds nothing");
        knownHosts.add("b:2", key(2));
        assertEquals(1, knownHosts.lookup("a:1").size());
        assertTrue(knownHosts.lookup("a:1").get(0).hasKey(key));
        assertEquals(List.of(), knownHosts.lookup("a:2"), "another port is another server");
        assertEquals("rw-------", permissions(knownHosts.file()));
        assertEquals(3, Files.readAllLines(knownHosts.file()).size(), "the header and two entries");
    }

    @Test
    void clientsMeetingTheSameNewServerAtOnceRecordItOnce() throws Exception
    {
        final KnownHosts knownHosts = new KnownHosts(temp.resolve("known_hosts"));
        final byte[] key = key(3);
        final List<Thread> clients = new ArrayList<>();
        final CyclicBarrier start = new CyclicBarrier(8);
        for (int i = 0; i < 8; i++)
        {
            final Thread client = new Thread(() ->
            {
                try
                {
                    start.await();
                    new KnownHosts(knownHosts.file()).add("srv:7474", key);
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
            });
            client.start();
            clients.add(client);
        }
        for (final Thread client : clients)
        {
            client.join();
        }
        assertEquals(1, knownHosts.entries().size());
    }

    @Test
    void aDamagedLineFailsEveryLookupNamingTheFileAndLine() throws IOException
    {
        final Path file = temp.resolve("known_hosts");
        final String good = "ok:1 x25519 " + Base64.getEncoder().encodeToString(key(4));
        for (final String bad : List.of(
            "ok:1 rsa " + Base64.getEncoder().encodeToString(key(4)),
            "ok:1 x25519 not-base64!",
            "ok:1 x25519 " + Base64.getEncoder().encodeToString(new byte[31]),
            "ok x25519 " + Base64.getEncoder().encodeToString(key(4)),
            "ok:0 x25519 " + Base64.getEncoder().encodeToString(key(4)),
            "ok:99999 x25519 " + Base64.getEncoder().encodeToString(key(4)),
            "ok:1 x25519 " + Base64.getEncoder().encodeToString(key(4)) + " extra",
            "o\u0001k:1 x25519 " + Base64.getEncoder().encodeToString(key(4)),
            "\u00ffk:1 x25519 " + Base64.getEncoder().encodeToString(key(4))))
        {
            Files.writeString(file, "# comment\n\n" + good + "\n" + bad + "\n", StandardCharsets.UTF_8);
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new KnownHosts(file).lookup("ok:1"), bad);
            assertTrue(refused.getMessage().contains(file + " line 4 is malformed"), refused.getMessage());
        }
        Files.writeString(file, good + "\n\n# trailing comment");
        assertEquals(1, new KnownHosts(file).lookup("ok:1").size(), "comments and blank lines are fine");
    }

    @Test
    void randomBytesNeverCrashTheParserAndAHugeFileIsRefused() throws IOException
    {
        final Path file = temp.resolve("known_hosts");
        final Random random = new Random(11);
        for (int i = 0; i < 500; i++)
        {
            final byte[] junk = new byte[random.nextInt(300)];
            random.nextBytes(junk);
            Files.write(file, junk);
            try
            {
                new KnownHosts(file).lookup("a:1");
            }
            catch (final IllegalArgumentException expected)
            {
                assertTrue(expected.getMessage().contains("malformed"), expected.getMessage());
            }
        }
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw"))
        {
            sparse.setLength(17L << 20);
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new KnownHosts(file).lookup("a:1"))
            .getMessage().contains("larger than"));
    }

    @Test
    void theVerifierTrustsANewServerOnceAndSaysSoThenKnowsIt() throws IOException
    {
        final KnownHosts knownHosts = new KnownHosts(temp.resolve("known_hosts"));
        final ByteArrayOutputStream notices = new ByteArrayOutputStream();
        final KnownHostsVerifier verifier =
            new KnownHostsVerifier(knownHosts, false, new PrintStream(notices, true, StandardCharsets.UTF_8));
        final InetSocketAddress server = new InetSocketAddress("127.0.0.1", 5201);
        assertNull(verifier.verify(server, key(5)));
        assertTrue(notices.toString(StandardCharsets.UTF_8).contains("127.0.0.1:5201 is a new server; trusting its " +
            "key " + KeyFingerprint.of(key(5))), notices.toString(StandardCharsets.UTF_8));
        notices.reset();
        assertNull(verifier.verify(server, key(5)));
        assertEquals("", notices.toString(StandardCharsets.UTF_8), "a known server is not announced again");
        assertEquals(1, knownHosts.entries().size());
    }

    @Test
    void aChangedKeyIsRefusedWithBothFingerprintsAndTheLineToDelete() throws IOException
    {
        final KnownHosts knownHosts = new KnownHosts(temp.resolve("known_hosts"));
        knownHosts.add("127.0.0.1:5201", key(6));
        final String refusal = new KnownHostsVerifier(knownHosts, false, new PrintStream(new ByteArrayOutputStream()))
            .verify(new InetSocketAddress("127.0.0.1", 5201), key(7));
        assertTrue(refusal.startsWith("the server's key has changed: 127.0.0.1:5201 proved it holds " +
            KeyFingerprint.of(key(7)) + ", but " + knownHosts.file() + " line 2 trusts " + KeyFingerprint.of(key(6))),
            refusal);
        assertTrue(refusal.contains("delete line 2 of " + knownHosts.file()), refusal);
        assertEquals(1, knownHosts.entries().size(), "nothing recorded");
    }

    @Test
    void strictRefusesAnUnknownServerShowingItsFingerprintAndADamagedFileIsARefusalNotAFirstUse()
        throws IOException
    {
        final KnownHosts knownHosts = new KnownHosts(temp.resolve("known_hosts"));
        final InetSocketAddress server = new InetSocketAddress("127.0.0.1", 7474);
        final String refusal = new KnownHostsVerifier(knownHosts, true, new PrintStream(new ByteArrayOutputStream()))
            .verify(server, key(8));
        assertTrue(refusal.startsWith("unknown server key: 127.0.0.1:7474 is not in " + knownHosts.file()), refusal);
        assertTrue(refusal.contains(KeyFingerprint.of(key(8))), refusal);
        assertFalse(Files.exists(knownHosts.file()));

        Files.writeString(knownHosts.file(), "127.0.0.1:7474 x25519 damaged\n");
        final String damaged = new KnownHostsVerifier(knownHosts, false, new PrintStream(new ByteArrayOutputStream()))
            .verify(server, key(8));
        assertTrue(damaged.contains("line 1 is malformed"), damaged);
    }

    private static byte[] key(final int seed)
    {
        return new X25519().publicKey(privateKey(seed));
    }

    private static byte[] privateKey(final int seed)
    {
        final byte[] key = new byte[32];
        new Random(seed).nextBytes(key);
        return key;
    }

    private static String permissions(final Path path) throws IOException
    {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
