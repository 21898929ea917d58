package io.pacelink.cli.trust;

import io.pacelink.transport.keys.KeyFiles;
import io.pacelink.transport.secure.X25519;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;

/**
 * A server's host key in the tools' configuration directory, as sshd keeps {@code /etc/ssh/ssh_host_*_key}: loaded if
 * it is there, else created once — an X25519 pair from the JDK's {@code SecureRandom}, {@value #PRIVATE_NAME}
 * (PKCS #8 PEM, mode 600) and {@value #PUBLIC_NAME} (PEM, for clients' {@code --peer-key}). Two servers starting at
 * once on the same host end up with the same key: each writes its pair under a temporary name and links it into
 * place, which fails if the other got there first, and then reads the winner's. A private key readable by others is
 * refused with the {@code chmod 600} that fixes it ({@link KeyFiles#readPrivateKey}).
 */
public final class HostKeyStore
{
    /**
     * File of the private key in the configuration directory.
     */
    public static final String PRIVATE_NAME = "host.key";

    /**
     * File of the public key in the configuration directory.
     */
    public static final String PUBLIC_NAME = "host.pub";

    private HostKeyStore()
    {
    }

    /**
     * @param directory the configuration directory ({@link ConfigDirectory}); created if missing.
     * @return the host key, loaded or created.
     * @throws IOException if it can be neither read nor written.
     * @throws IllegalArgumentException if the file there is not a private key, or is readable by others.
     */
    public static HostKey loadOrCreate(final Path directory) throws IOException
    {
        ConfigDirectory.ensure(directory);
        final Path privateFile = directory.resolve(PRIVATE_NAME);
        final Path publicFile = directory.resolve(PUBLIC_NAME);
        boolean created = false;
        if (!Files.exists(privateFile))
        {
            final String suffix = ".tmp-" + UUID.randomUUID();
            final Path newPrivate = directory.resolve(PRIVATE_NAME + suffix);
            final Path newPublic = directory.resolve(PUBLIC_NAME + suffix);
            try
            {
                KeyFiles.writeKeyPair(newPrivate, newPublic);
                created = linkIfAbsent(newPrivate, privateFile);
                if (created)
                {
                    Files.deleteIfExists(publicFile); // a stale one of an earlier key would mislead
                    linkIfAbsent(newPublic, publicFile);
                }
            }
            finally
            {
                Files.deleteIfExists(newPrivate);
                Files.deleteIfExists(newPublic);
            }
        }
        final byte[] privateKey = KeyFiles.readPrivateKey(privateFile);
        final byte[] publicKey = new X25519().publicKey(privateKey);
        if (!Files.exists(publicFile))
        {
            writePublic(publicFile, publicKey);
        }
        return new HostKey(privateKey, publicKey, privateFile, publicFile, created);
    }

    /**
     * @return true if the link was made; false if the target already existed (another process made it first).
     */
    private static boolean linkIfAbsent(final Path source, final Path target) throws IOException
    {
        try
        {
            Files.createLink(target, source);
            return true;
        }
        catch (final FileAlreadyExistsException ex)
        {
            return false;
        }
        catch (final UnsupportedOperationException ex)
        {
            // No hard links here: a move that refuses to replace is the next best (not atomic with the check).
            try
            {
                Files.move(source, target);
                return true;
            }
            catch (final FileAlreadyExistsException exists)
            {
                return false;
            }
        }
    }

    private static void writePublic(final Path publicFile, final byte[] publicKey) throws IOException
    {
        final Path temporary = publicFile.resolveSibling(PUBLIC_NAME + ".tmp-" + UUID.randomUUID());
        try
        {
            Files.writeString(temporary, KeyFiles.publicKeyPem(publicKey), StandardOpenOption.CREATE_NEW);
            try
            {
                Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-r--r--"));
            }
            catch (final UnsupportedOperationException ignore)
            {
                // No POSIX permissions on this file system: the default ones stand.
            }
            linkIfAbsent(temporary, publicFile);
        }
        finally
        {
            Files.deleteIfExists(temporary);
        }
    }
}
