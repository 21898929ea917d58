package io.pacelink.cli.trust;

import io.pacelink.transport.keys.KeyFingerprint;

import java.nio.file.Path;

/**
 * A server's host key as {@link HostKeyStore} found or made it.
 */
public final class HostKey
{
    private final byte[] privateKey;
    private final byte[] publicKey;
    private final Path privateFile;
    private final Path publicFile;
    private final boolean created;

    HostKey(
        final byte[] privateKey,
        final byte[] publicKey,
        final Path privateFile,
        final Path publicFile,
        final boolean created)
    {
        this.privateKey = privateKey;
        this.publicKey = publicKey;
        this.privateFile = privateFile;
        this.publicFile = publicFile;
        this.created = created;
    }

    /**
     * @return the raw 32-byte private key.
     */
    public byte[] privateKey()
    {
        return privateKey.clone();
    }

    /**
     * @return the raw 32-byte public key.
     */
    public byte[] publicKey()
    {
        return publicKey.clone();
    }

    /**
     * @return the private key's file (PKCS #8 PEM, mode 600).
     */
    public Path privateFile()
    {
        return privateFile;
    }

    /**
     * @return the public key's file (PEM), to hand to clients that pin it with {@code --peer-key}.
     */
    public Path publicFile()
    {
        return publicFile;
    }

    /**
     * @return true if this run created it.
     */
    public boolean isCreated()
    {
        return created;
    }

    /**
     * @return its fingerprint, e.g. {@code SHA256:47DEQpj8...}.
     */
    public String fingerprint()
    {
        return KeyFingerprint.of(publicKey);
    }

    /**
     * @return the line a server prints when it starts, for its operator to compare with what clients print.
     */
    public String describe()
    {
        return "host key " + fingerprint() + " (" + privateFile + (created ? ", created now" : "") + "; clients " +
            "trust it on first use, or pin " + publicFile + " with --peer-key)";
    }
}
