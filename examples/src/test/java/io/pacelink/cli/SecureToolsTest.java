package io.pacelink.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tools' secure mode (docs/security.md, "Keys"): keygen and its fingerprints, --insecure against the secure
 * mode's options, bad key files as usage errors, and a file sent over Noise NK and NNpsk0 between two processes — and
 * not to a receiver whose key the sender did not pin.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SecureToolsTest
{
    @TempDir
    Path temp;

    @Test
    void keygenWritesAPairAndAPreSharedKeyAndNeverOverwrites()
    {
        final String name = temp.resolve("server").toString();
        final CommandRun run = CommandRun.of("keygen", name);
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("--peer-key " + name + ".pub"), run.out());
        assertTrue(Files.isRegularFile(Path.of(name + ".key")) && Files.isRegularFile(Path.of(name + ".pub")));
        assertUsage(CommandRun.of("keygen", name), "never overwrites");
        assertEquals(0, CommandRun.of("keygen", "--psk", temp.resolve("shared.psk").toString()).exitCode());
    }

    @Test
    void insecureTurnsTheSecureModeOffAndContradictsEveryKeyOption() throws Exception
    {
        final Path file = Files.writeString(temp.resolve("a.txt"), "a");
        final String psk = temp.resolve("shared.psk").toString();
        assertEquals(0, CommandRun.of("keygen", "--psk", psk).exitCode());
        assertUsage(CommandRun.of("send", file.toString(), "192.0.2.1", "--insecure", "--psk", psk),
            "--insecure turns the secure mode off");
        assertUsage(CommandRun.of("perf", "-c", "192.0.2.1", "-t", "1", "--insecure", "--strict-host-key"),
            "--insecure turns the secure mode off");
        assertUsage(CommandRun.of("ping", "192.0.2.1", "-c", "1", "--insecure", "--aead", "AESGCM"),
            "--insecure turns the secure mode off");
        assertUsage(CommandRun.of("receive", "--dir", temp.toString(), "--insecure", "--psk", psk),
            "--insecure turns the secure mode off");
    }

    @Test
    void keygenPrintsTheFingerprintAndReadsItBackFromEitherFile()
    {
        final String name = temp.resolve("fp").toString();
        final CommandRun keygen = CommandRun.of("keygen", name);
        assertEquals(0, keygen.exitCode(), keygen.err());
        final String fingerprint = keygen.out().replaceAll("(?s).*fingerprint: (SHA256:\\S+).*", "$1");
        assertTrue(fingerprint.startsWith("SHA256:") && 50 == fingerprint.length(), keygen.out());
        for (final String file : new String[]{ name + ".pub", name + ".key" })
        {
            final CommandRun shown = CommandRun.of("keygen", "--fingerprint", file);
            assertEquals(0, shown.exitCode(), shown.err());
            assertEquals(fingerprint + " " + file, shown.out().trim());
        }
        assertUsage(CommandRun.of("keygen", "-l", temp.resolve("missing").toString()), "cannot read");
    }

    @Test
    void badKeyFilesAreUsageErrorsSayingHowToFixThem() throws Exception
    {
        final Path file = Files.writeString(temp.resolve("a.txt"), "a");
        assertUsage(CommandRun.of("send", file.toString(), "127.0.0.1", "--peer-key",
            temp.resolve("none").toString()), "pacelink keygen");
        final String name = temp.resolve("open").toString();
        assertEquals(0, CommandRun.of("keygen", name).exitCode());
        Files.setPosixFilePermissions(Path.of(name + ".key"), PosixFilePermissions.fromString("rw-r--r--"));
        assertUsage(CommandRun.of("receive", "--listen", "127.0.0.1:0", "--dir", temp.toString(), "--key",
            name + ".key"), "chmod 600");
        // The public key where the private one belongs: named as such, not as a permission problem.
        assertUsage(CommandRun.of("receive", "--listen", "127.0.0.1:0", "--dir", temp.toString(), "--key",
            name + ".pub"), "holds a public key, where a private key is needed");
        assertUsage(CommandRun.of("keygen", temp.resolve("nowhere").resolve("server").toString()),
            "the directory " + temp.resolve("nowhere") + " does not exist; create it first");
        assertUsage(CommandRun.of("keygen", "--psk", temp.resolve("nowhere").resolve("shared.psk").toString()),
            "does not exist");
    }

    @Test
    void aFileCrossesNoiseNkAndNnPsk0AndNotAnUnpinnedServer() throws Exception
    {
        final byte[] content = new byte[3 << 20];
        new Random(7).nextBytes(content);
        final Path source = Files.write(temp.resolve("data.bin"), content);
        final String server = temp.resolve("server").toString();
        final String other = temp.resolve("other").toString();
        final String psk = temp.resolve("shared.psk").toString();
        assertEquals(0, CommandRun.of("keygen", server).exitCode());
        assertEquals(0, CommandRun.of("keygen", other).exitCode());
        assertEquals(0, CommandRun.of("keygen", "--psk", psk).exitCode());

        transfer(source, "nk", new String[]{ "--key", server + ".key" }, new String[]{ "--peer-key", server + ".pub" },
            0);
        transfer(source, "psk", new String[]{ "--psk", psk }, new String[]{ "--psk", psk, "--aead", "ChaChaPoly" }, 0);
        transfer(source, "wrong", new String[]{ "--key", server + ".key" },
            new String[]{ "--peer-key", other + ".pub" }, 1);
    }

    private void transfer(
        final Path source, final String name, final String[] receiverKeys, final String[] senderKeys,
        final int expectedExit) throws Exception
    {
        final Path destination = Files.createDirectories(temp.resolve("dst-" + name));
        final String[] receive = concat(new String[]{ "receive", "--listen", "127.0.0.1:0", "--dir",
            destination.toString(), "-1", "--json" }, receiverKeys);
        try (ChildCommand receiver = ChildCommand.start(receive))
        {
            final String port = receiver.await("\"address\":\"127\\.0\\.0\\.1:(\\d+)\"", 30_000);
            final ChildCommand sender = ChildCommand.start(concat(new String[]{ "send", source.toString(),
                "127.0.0.1:" + port }, senderKeys));
            assertEquals(expectedExit, sender.waitFor(90), name + ": " + sender.out() + sender.err());
            if (0 == expectedExit)
            {
                assertEquals(0, receiver.waitFor(30), receiver.out());
                assertEquals(-1, Files.mismatch(source, destination.resolve(source.getFileName())));
            }
        }
    }

    private static String[] concat(final String[] first, final String[] second)
    {
        final String[] all = new String[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    private static void assertUsage(final CommandRun run, final String message)
    {
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains(message), run.err());
    }
}
