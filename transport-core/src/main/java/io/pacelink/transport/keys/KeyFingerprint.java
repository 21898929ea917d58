package io.pacelink.transport.keys;

import io.pacelink.transport.SecurityConfig;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * The short form of a public key an operator compares by eye, written as OpenSSH writes its fingerprints
 * ({@code ssh-keygen -l}, OpenSSH 6.8 and later): {@code SHA256:} and the unpadded base64 of the SHA-256 of the key —
 * here the raw 32-byte X25519 key (RFC 7748 section 5's encoding), e.g.
 * {@code SHA256:Zm9vYmFy...} (43 characters after the prefix). Two keys with the same fingerprint are the same key.
 */
public final class KeyFingerprint
{
    /**
     * What every fingerprint starts with: the hash it was made with.
     */
    public static final String PREFIX = "SHA256:";

    private KeyFingerprint()
    {
    }

    /**
     * @param publicKey a raw 32-byte public key.
     * @return its fingerprint, e.g. {@code SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU}.
     * @throws IllegalArgumentException if the key is not 32 bytes.
     */
    public static String of(final byte[] publicKey)
    {
        if (null == publicKey || SecurityConfig.KEY_LENGTH != publicKey.length)
        {
            throw new IllegalArgumentException("a public key is " + SecurityConfig.KEY_LENGTH + " bytes, got " +
                (null == publicKey ? "none" : publicKey.length));
        }
        try
        {
            final byte[] digest = MessageDigest.getInstance("SHA-256").digest(publicKey);
            return PREFIX + Base64.getEncoder().withoutPadding().encodeToString(digest);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("every Java platform has SHA-256", ex);
        }
    }
}
