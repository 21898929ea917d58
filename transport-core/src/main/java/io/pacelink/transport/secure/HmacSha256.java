package io.pacelink.transport.secure;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * HMAC-SHA-256 (RFC 2104, RFC 4231) over the JDK's SHA-256 {@link MessageDigest}, computed into a caller's array.
 * The JDK's own {@code javax.crypto.Mac} returns a new array from every {@code doFinal} (and its SHA-256 another for
 * the inner hash), which a flood of hellos would turn into garbage; {@link MessageDigest#digest(byte[], int, int)}
 * writes in place, so this class allocates nothing after construction. Not thread safe: one instance per agent.
 */
public final class HmacSha256
{
    /**
     * Bytes of a MAC.
     */
    public static final int MAC_LENGTH = 32;

    /**
     * SHA-256's block size: the key is padded (or first hashed) to it (RFC 2104 section 2).
     */
    private static final int BLOCK_LENGTH = 64;

    private static final byte INNER_PAD = 0x36;
    private static final byte OUTER_PAD = 0x5c;

    private final MessageDigest sha256;
    private final byte[] innerKey = new byte[BLOCK_LENGTH];
    private final byte[] outerKey = new byte[BLOCK_LENGTH];
    private final byte[] innerHash = new byte[MAC_LENGTH];

    /**
     * @param key the secret key, any length (keys longer than a block are hashed first, as RFC 2104 requires).
     */
    public HmacSha256(final byte[] key)
    {
        try
        {
            sha256 = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("every Java platform has SHA-256", ex);
        }
        final byte[] blockKey = key.length > BLOCK_LENGTH ? sha256.digest(key) : key;
        for (int i = 0; i < BLOCK_LENGTH; i++)
        {
            final byte keyByte = i < blockKey.length ? blockKey[i] : 0;
            innerKey[i] = (byte)(keyByte ^ INNER_PAD);
            outerKey[i] = (byte)(keyByte ^ OUTER_PAD);
        }
    }

    /**
     * {@code H((K ^ opad) || H((K ^ ipad) || message))}.
     *
     * @param message       holding the message.
     * @param messageOffset of the first message byte.
     * @param messageLength number of message bytes.
     * @param mac           receives the {@link #MAC_LENGTH} bytes of the MAC.
     * @param macOffset     where the first MAC byte goes.
     */
    public void compute(
        final byte[] message, final int messageOffset, final int messageLength, final byte[] mac, final int macOffset)
    {
        try
        {
            sha256.update(innerKey, 0, BLOCK_LENGTH);
            sha256.update(message, messageOffset, messageLength);
            sha256.digest(innerHash, 0, MAC_LENGTH);
            sha256.update(outerKey, 0, BLOCK_LENGTH);
            sha256.update(innerHash, 0, MAC_LENGTH);
            sha256.digest(mac, macOffset, MAC_LENGTH);
        }
        catch (final DigestException ex)
        {
            throw new IllegalStateException("SHA-256 output does not fit " + MAC_LENGTH + " bytes", ex);
        }
    }
}
