package io.pacelink.transport.keys;

import io.pacelink.transport.secure.X25519;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyFilesTest
{
    @TempDir
    Path temp;

    @Test
    void aWrittenKeyPairReadsBackAsAMatchingPairWithPrivatePermissions() throws IOException
    {
        final Path privateFile = temp.resolve("server.key");
        final Path publicFile = temp.resolve("server.pub");
        final byte[] publicKey = KeyFiles.writeKeyPair(privateFile, publicFile);

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(privateFile)));
        assertTrue(Files.readString(privateFile).startsWith("-----BEGIN PRIVATE KEY-----"));
        assertTrue(Files.readString(publicFile).startsWith("-----BEGIN PUBLIC KEY-----"));
        final byte[] privateKey = KeyFiles.readPrivateKey(privateFile);
        assertArrayEquals(publicKey, KeyFiles.readPublicKey(publicFile));
        assertArrayEquals(publicKey, new X25519().publicKey(privateKey));
        assertEquals(Files.readString(privateFile), KeyFiles.privateKeyPem(privateKey));
        assertEquals(Files.readString(publicFile), KeyFiles.publicKeyPem(publicKey));
    }

    @Test
    void rawThirtyTwoByteFormsAreAccepted() throws IOException
    {
        final byte[] key = new byte[32];
        key[0] = 7;
        final Path raw = Files.write(temp.resolve("raw.key"), key);
        Files.setPosixFilePermissions(raw, PosixFilePermissions.fromString("rw-------"));
        assertArrayEquals(key, KeyFiles.readPrivateKey(raw));
        assertArrayEquals(key, KeyFiles.readPublicKey(raw));
        assertArrayEquals(key, KeyFiles.readPreSharedKey(raw));
    }

    @Test
    void unprotectedSecretsAreRefusedSayingHowToFixThem() throws IOException
    {
        final Path privateFile = temp.resolve("a.key");
        KeyFiles.writeKeyPair(privateFile, temp.resolve("a.pub"));
        Files.setPosixFilePermissions(privateFile, PosixFilePermissions.fromString("rw-r--r--"));
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> KeyFiles.readPrivateKey(privateFile));
        assertTrue(ex.getMessage().contains("chmod 600"), ex.getMessage());

        final Path psk = temp.resolve("shared.psk");
        KeyFiles.writePreSharedKey(psk);
        assertEquals(32, KeyFiles.readPreSharedKey(psk).length);
        Files.setPosixFilePermissions(psk, PosixFilePermissions.fromString("rw-rw----"));
        assertThrows(IllegalArgumentException.class, () -> KeyFiles.readPreSharedKey(psk));
    }

    @Test
    void aPublicKeyGivenAsThePrivateOneIsNamedSoAndAMissingDirectoryToo() throws IOException
    {
        final Path publicFile = temp.resolve("d.pub");
        KeyFiles.writeKeyPair(temp.resolve("d.key"), publicFile);
        final IllegalArgumentException mixUp =
            assertThrows(IllegalArgumentException.class, () -> KeyFiles.readPrivateKey(publicFile));
        assertTrue(mixUp.getMessage().contains("holds a public key, where a private key is needed") &&
            !mixUp.getMessage().contains("chmod"), mixUp.getMessage());

        final Path missing = temp.resolve("missing");
        final IllegalArgumentException noDirectory = assertThrows(IllegalArgumentException.class,
            () -> KeyFiles.writeKeyPair(missing.resolve("e.key"), missing.resolve("e.pub")));
        assertTrue(noDirectory.getMessage().contains("the directory " + missing + " does not exist") &&
            noDirectory.getMessage().contains("mkdir -p"), noDirectory.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KeyFiles.writePreSharedKey(missing.resolve("f.psk")));
    }

    @Test
    void keysAreNeverOverwrittenAndGarbageIsNamed() throws IOException
    {
        final Path privateFile = temp.resolve("b.key");
        KeyFiles.writeKeyPair(privateFile, temp.resolve("b.pub"));
        assertThrows(IllegalArgumentException.class, () -> KeyFiles.writeKeyPair(privateFile, temp.resolve("c.pub")));
        final Path garbage = Files.writeString(temp.resolve("garbage.pub"), "hello");
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> KeyFiles.readPublicKey(garbage));
        assertTrue(ex.getMessage().contains("pacelink keygen"), ex.getMessage());
    }
}
