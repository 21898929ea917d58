package io.pacelink.transport.secure;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF (RFC 5869) over the JDK's {@code HmacSHA256}: Java 17 has no HKDF class. Used when keys are made — the Noise
 * handshake's chaining key (the Noise specification section 4.3 defines its {@code HKDF} as exactly RFC 5869 with an
 * empty info) and the packet keys derived from the handshake's output — never per packet, so it may allocate.
 * Not thread safe: each thread takes its own ({@link #ofThisThread()}).
 */
public final class Hkdf
{
    /**
     * One HKDF per thread, for every handshake and every key a thread makes: an HKDF keeps nothing from one call to
     * the next ({@code Mac.init} rekeys it and {@code doFinal} resets it), and a {@code Mac.getInstance} for each
     * handshake — the JCA's provider lookup, its service objects and the HMAC's pads, ~3 KB — was a tenth of what a
     * half-open connection of a flood allocated (perf/FINDINGS.md, "The server's first seconds under a flood").
     */
    private static final ThreadLocal<Hkdf> OF_THREAD = ThreadLocal.withInitial(Hkdf::new);

    /**
     * Bytes of a SHA-256 output, and of the pseudorandom key.
     */
    public static final int HASH_LENGTH = 32;

    private static final String ALGORITHM = "HmacSHA256";

    private final Mac mac;

    /**
     * @return this thread's HKDF; it must not be handed to another thread.
     */
    public static Hkdf ofThisThread()
    {
        return OF_THREAD.get();
    }

    /**
     * A new HKDF.
     */
    public Hkdf()
    {
        try
        {
            mac = Mac.getInstance(ALGORITHM);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("every Java platform has " + ALGORITHM, ex);
        }
    }

    /**
     * HKDF-Extract (RFC 5869 section 2.2).
     *
     * @param salt the salt; an empty one stands for {@link #HASH_LENGTH} zero bytes.
     * @param ikm  the input keying material.
     * @return the pseudorandom key, {@link #HASH_LENGTH} bytes.
     */
    public byte[] extract(final byte[] salt, final byte[] ikm)
    {
        init(0 == salt.length ? new byte[HASH_LENGTH] : salt);
        return mac.doFinal(ikm);
    }

    /**
     * HKDF-Expand (RFC 5869 section 2.3): {@code T(i) = HMAC(prk, T(i-1) | info | i)}.
     *
     * @param prk    the pseudorandom key, at least {@link #HASH_LENGTH} bytes.
     * @param info   context and application-specific information, may be empty.
     * @param length bytes of output, at most 255 x {@link #HASH_LENGTH}.
     * @return the output keying material.
     */
    public byte[] expand(final byte[] prk, final byte[] info, final int length)
    {
        if (length < 0 || length > 255 * HASH_LENGTH)
        {
            throw new IllegalArgumentException("HKDF-Expand length must be 0.." + 255 * HASH_LENGTH + ": " + length);
        }
        init(prk);
        final byte[] okm = new byte[length];
        byte[] previous = new byte[0];
        for (int i = 1, written = 0; written < length; i++)
        {
            mac.update(previous);
            mac.update(info);
            mac.update((byte)i);
            previous = mac.doFinal();
            final int chunk = Math.min(HASH_LENGTH, length - written);
            System.arraycopy(previous, 0, okm, written, chunk);
            written += chunk;
        }
        return okm;
    }

    /**
     * HKDF as the Noise specification (section 4.3) uses it: extract with the chaining key as the salt, then expand
     * with an empty info into {@code outputs} keys of {@link #HASH_LENGTH} bytes.
     *
     * @param chainingKey the salt.
     * @param ikm         the input keying material, empty or 32 bytes.
     * @param outputs     2 or 3.
     * @return the outputs, each {@link #HASH_LENGTH} bytes.
     */
    public byte[][] noiseHkdf(final byte[] chainingKey, final byte[] ikm, final int outputs)
    {
        final byte[] okm = expand(extract(chainingKey, ikm), new byte[0], outputs * HASH_LENGTH);
        final byte[][] result = new byte[outputs][HASH_LENGTH];
        for (int i = 0; i < outputs; i++)
        {
            System.arraycopy(okm, i * HASH_LENGTH, result[i], 0, HASH_LENGTH);
        }
        return result;
    }

    private void init(final byte[] key)
    {
        try
        {
            mac.init(new SecretKeySpec(key, ALGORITHM));
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 takes a key of any length", ex);
        }
    }
}
