package io.pacelink.transport.keys;

import io.pacelink.transport.SecurityConfig;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.XECPrivateKey;
import java.security.interfaces.XECPublicKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.security.spec.XECPrivateKeySpec;
import java.security.spec.XECPublicKeySpec;
import java.util.Base64;
import java.util.Set;

/**
 * The secure mode's key files (docs/security.md, "Keys"). A key is read from either form:
 * <ul>
 * <li>PEM, as {@code pacelink keygen} and {@code openssl genpkey -algorithm X25519} write them: a private key in
 * PKCS #8 ({@code BEGIN PRIVATE KEY}), a public key in X.509 SubjectPublicKeyInfo ({@code BEGIN PUBLIC KEY});</li>
 * <li>raw: a file of exactly 32 bytes (an X25519 key in RFC 7748's encoding, or a pre-shared key).</li>
 * </ul>
 * A private key or pre-shared key file must not be readable by group or others (as OpenSSH refuses an unprotected
 * private key): the error says so and how to fix it. Files are written with those permissions from the start.
 */
public final class KeyFiles
{
    private static final String PRIVATE_LABEL = "PRIVATE KEY";
    private static final String PUBLIC_LABEL = "PUBLIC KEY";
    private static final Set<PosixFilePermission> PRIVATE_PERMISSIONS = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> PUBLIC_PERMISSIONS = PosixFilePermissions.fromString("rw-r--r--");
    private static final int KEY_LENGTH = SecurityConfig.KEY_LENGTH;

    private KeyFiles()
    {
    }

    /**
     * @param file a private key, PEM (PKCS #8) or raw.
     * @return its 32 bytes.
     * @throws IllegalArgumentException if the file is unprotected or holds no X25519 private key, saying how to fix it.
     */
    public static byte[] readPrivateKey(final Path file) throws IOException
    {
        // A public key where a private one belongs is a mix-up, not a permission problem: say so before any chmod.
        if (Files.isReadable(file) && new String(Files.readAllBytes(file), StandardCharsets.US_ASCII)
            .contains("-----BEGIN " + PUBLIC_LABEL + "-----"))
        {
            throw new IllegalArgumentException("key file " + file + " holds a public key, where a private key is " +
                "needed: give the private one ('pacelink keygen NAME' writes it as NAME.key beside NAME.pub); the " +
                "public key is for the other end");
        }
        requireProtected(file);
        final byte[] content = Files.readAllBytes(file);
        if (KEY_LENGTH == content.length)
        {
            return content;
        }
        final byte[] der = pemBody(file, content, PRIVATE_LABEL);
        try
        {
            final XECPrivateKey key = (XECPrivateKey)keyFactory().generatePrivate(new PKCS8EncodedKeySpec(der));
            return key.getScalar().orElseThrow(() -> notAKey(file, "X25519 private key", null));
        }
        catch (final GeneralSecurityException | ClassCastException ex)
        {
            throw notAKey(file, "X25519 private key", ex);
        }
    }

    /**
     * @param file a public key, PEM (SubjectPublicKeyInfo) or raw.
     * @return its 32 bytes.
     */
    public static byte[] readPublicKey(final Path file) throws IOException
    {
        final byte[] content = Files.readAllBytes(file);
        if (KEY_LENGTH == content.length)
        {
            return content;
        }
        final byte[] der = pemBody(file, content, PUBLIC_LABEL);
        try
        {
            final XECPublicKey key = (XECPublicKey)keyFactory().generatePublic(new X509EncodedKeySpec(der));
            return toLittleEndian(key.getU());
        }
        catch (final GeneralSecurityException | ClassCastException ex)
        {
            throw notAKey(file, "X25519 public key", ex);
        }
    }

    /**
     * @param file exactly 32 secret bytes.
     * @return them.
     */
    public static byte[] readPreSharedKey(final Path file) throws IOException
    {
        requireProtected(file);
        final byte[] content = Files.readAllBytes(file);
        if (KEY_LENGTH != content.length)
        {
            throw new IllegalArgumentException(file + " holds " + content.length + " bytes, not a " + KEY_LENGTH +
                "-byte pre-shared key: write one with 'pacelink keygen --psk " + file + "'");
        }
        return content;
    }

    /**
     * Generate an X25519 key pair from the JDK's {@code SecureRandom} and write it: the private key readable by its
     * owner only, the public key by all. Existing files are never overwritten.
     *
     * @param privateFile where the private key goes (PEM).
     * @param publicFile  where the public key goes (PEM).
     * @return the public key's 32 bytes.
     */
    public static byte[] writeKeyPair(final Path privateFile, final Path publicFile) throws IOException
    {
        requireAbsent(privateFile);
        requireAbsent(publicFile);
        final KeyPair pair;
        try
        {
            pair = KeyPairGenerator.getInstance("X25519").generateKeyPair();
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("Java 11 and later have X25519", ex);
        }
        write(privateFile, pem(PRIVATE_LABEL, pair.getPrivate().getEncoded()), PRIVATE_PERMISSIONS);
        write(publicFile, pem(PUBLIC_LABEL, pair.getPublic().getEncoded()), PUBLIC_PERMISSIONS);
        return toLittleEndian(((XECPublicKey)pair.getPublic()).getU());
    }

    /**
     * Write 32 random bytes from the JDK's {@code SecureRandom}, readable by the owner only.
     *
     * @param file where the key goes; never overwritten.
     */
    public static void writePreSharedKey(final Path file) throws IOException
    {
        requireAbsent(file);
        final byte[] key = new byte[KEY_LENGTH];
        new SecureRandom().nextBytes(key);
        write(file, key, PRIVATE_PERMISSIONS);
    }

    /**
     * @param privateKey a raw 32-byte private key.
     * @return its PEM (PKCS #8) form.
     */
    public static String privateKeyPem(final byte[] privateKey)
    {
        try
        {
            return new String(pem(PRIVATE_LABEL, keyFactory().generatePrivate(
                new XECPrivateKeySpec(NamedParameterSpec.X25519, privateKey.clone())).getEncoded()),
                StandardCharsets.US_ASCII);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalArgumentException("not an X25519 private key", ex);
        }
    }

    /**
     * @param publicKey a raw 32-byte public key.
     * @return its PEM (SubjectPublicKeyInfo) form.
     */
    public static String publicKeyPem(final byte[] publicKey)
    {
        final byte[] bigEndian = new byte[KEY_LENGTH];
        for (int i = 0; i < KEY_LENGTH; i++)
        {
            bigEndian[i] = publicKey[KEY_LENGTH - 1 - i];
        }
        bigEndian[0] &= 0x7F;
        try
        {
            return new String(pem(PUBLIC_LABEL, keyFactory().generatePublic(
                new XECPublicKeySpec(NamedParameterSpec.X25519, new BigInteger(1, bigEndian))).getEncoded()),
                StandardCharsets.US_ASCII);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalArgumentException("not an X25519 public key", ex);
        }
    }

    /**
     * @param publicKey a raw 32-byte key.
     * @return its base64 form, the way to show it to an operator.
     */
    public static String display(final byte[] publicKey)
    {
        return Base64.getEncoder().encodeToString(publicKey);
    }

    private static void requireProtected(final Path file) throws IOException
    {
        if (!Files.isReadable(file))
        {
            throw new IllegalArgumentException("cannot read key file " + file + ": it does not exist or is not " +
                "readable; write one with 'pacelink keygen'");
        }
        final PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (null == view)
        {
            return; // no POSIX permissions to check on this file system
        }
        final Set<PosixFilePermission> permissions = view.readAttributes().permissions();
        if (permissions.contains(PosixFilePermission.GROUP_READ) ||
            permissions.contains(PosixFilePermission.OTHERS_READ) ||
            permissions.contains(PosixFilePermission.GROUP_WRITE) ||
            permissions.contains(PosixFilePermission.OTHERS_WRITE))
        {
            throw new IllegalArgumentException("key file " + file + " is accessible by others (" +
                PosixFilePermissions.toString(permissions) + "): a secret key must be private; run chmod 600 " + file);
        }
    }

    private static void requireAbsent(final Path file)
    {
        if (Files.exists(file))
        {
            throw new IllegalArgumentException(file + " exists: keygen never overwrites a key; move it away or " +
                "choose another name");
        }
    }

    private static void write(final Path file, final byte[] content, final Set<PosixFilePermission> permissions)
        throws IOException
    {
        final Path directory = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(directory))
        {
            throw new IllegalArgumentException("cannot write " + file + ": the directory " + directory + " does not " +
                "exist; create it first (mkdir -p " + directory + ") or choose another name");
        }
        try
        {
            if (Files.getFileStore(file.toAbsolutePath().getParent()).supportsFileAttributeView("posix"))
            {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(permissions));
            }
            else
            {
                Files.createFile(file);
            }
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new IllegalArgumentException(file + " exists: keygen never overwrites a key", ex);
        }
        Files.write(file, content, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private static byte[] pem(final String label, final byte[] der)
    {
        final String body = Base64.getMimeEncoder(64, new byte[]{ '\n' }).encodeToString(der);
        return ("-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n")
            .getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] pemBody(final Path file, final byte[] content, final String label)
    {
        final String text = new String(content, StandardCharsets.US_ASCII);
        final String begin = "-----BEGIN " + label + "-----";
        final String end = "-----END " + label + "-----";
        final int from = text.indexOf(begin);
        final int to = text.indexOf(end);
        if (from < 0 || to < from)
        {
            throw notAKey(file, "PEM '" + label + "' or a raw " + KEY_LENGTH + "-byte key", null);
        }
        try
        {
            return Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to));
        }
        catch (final IllegalArgumentException ex)
        {
            throw notAKey(file, "PEM '" + label + "'", ex);
        }
    }

    private static IllegalArgumentException notAKey(final Path file, final String what, final Exception cause)
    {
        return new IllegalArgumentException(file + " holds no " + what + ": give a file written by " +
            "'pacelink keygen' (or openssl genpkey -algorithm X25519), or the raw " + KEY_LENGTH + " bytes", cause);
    }

    private static KeyFactory keyFactory() throws GeneralSecurityException
    {
        return KeyFactory.getInstance("X25519");
    }

    private static byte[] toLittleEndian(final BigInteger u)
    {
        final byte[] bigEndian = u.toByteArray();
        final byte[] key = new byte[KEY_LENGTH];
        for (int i = 0; i < KEY_LENGTH && i < bigEndian.length; i++)
        {
            key[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return key;
    }
}
