package io.pacelink.transport.secure;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;
import java.security.GeneralSecurityException;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * The two AEADs of the secure mode, both in the JDK: AES-256-GCM where the CPU has AES instructions, and
 * ChaCha20-Poly1305 (RFC 8439) where it has not. Names follow the Noise specification (section 12), which also fixes
 * how a 64-bit counter becomes the 96-bit nonce of a handshake message (section 5.1: big-endian for AESGCM,
 * little-endian for ChaChaPoly).
 */
public enum AeadAlgorithm
{
    /**
     * AES-256-GCM, a 16-byte tag. RFC 9001 section 6.6 limits one key to 2^23 packets of up to 2^11 16-byte blocks
     * for confidentiality, 2^52 forgery attempts for integrity.
     */
    AES_GCM("AESGCM", "AES/GCM/NoPadding", "AES", 1L << 23, 1L << 52),

    /**
     * ChaCha20-Poly1305, a 16-byte tag; RFC 9001 section 6.6: no practical confidentiality limit (2^62 is the packet
     * number space), 2^36 forgery attempts.
     */
    CHACHA20_POLY1305("ChaChaPoly", "ChaCha20-Poly1305", "ChaCha20", 1L << 62, 1L << 36);

    /**
     * Bytes of every tag.
     */
    public static final int TAG_LENGTH = 16;

    /**
     * Bytes of every nonce.
     */
    public static final int NONCE_LENGTH = 12;

    /**
     * Bytes of every key.
     */
    public static final int KEY_LENGTH = 32;

    private final String noiseName;
    private final String transformation;
    private final String keyAlgorithm;
    private final long confidentialityLimitPackets;
    private final long integrityLimitPackets;
    private final ThreadLocal<ThreadCipher> cipherOfThread =
        ThreadLocal.withInitial(() -> new ThreadCipher(newCipher()));

    AeadAlgorithm(
        final String noiseName,
        final String transformation,
        final String keyAlgorithm,
        final long confidentialityLimitPackets,
        final long integrityLimitPackets)
    {
        this.noiseName = noiseName;
        this.transformation = transformation;
        this.keyAlgorithm = keyAlgorithm;
        this.confidentialityLimitPackets = confidentialityLimitPackets;
        this.integrityLimitPackets = integrityLimitPackets;
    }

    /**
     * @return the AEAD's number in the NOISE frame: 1 AES-GCM, 2 ChaCha20-Poly1305.
     */
    public int wireId()
    {
        return ordinal() + 1;
    }

    /**
     * @param wireId a NOISE frame's AEAD number.
     * @return the algorithm, or null if unknown.
     */
    public static AeadAlgorithm fromWireId(final int wireId)
    {
        return wireId >= 1 && wireId <= values().length ? values()[wireId - 1] : null;
    }

    /**
     * @return the name in a Noise protocol name, e.g. {@code AESGCM}.
     */
    public String noiseName()
    {
        return noiseName;
    }

    /**
     * @return the JCA key algorithm.
     */
    public String keyAlgorithm()
    {
        return keyAlgorithm;
    }

    /**
     * @return packets one key may seal before it must be updated.
     */
    public long confidentialityLimitPackets()
    {
        return confidentialityLimitPackets;
    }

    /**
     * @return packets that may fail to open under one key before the connection must close.
     */
    public long integrityLimitPackets()
    {
        return integrityLimitPackets;
    }

    /**
     * @return a new JCA cipher of this algorithm.
     */
    public Cipher newCipher()
    {
        try
        {
            return Cipher.getInstance(transformation);
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("Java 17 has " + transformation, ex);
        }
    }

    /**
     * @return the calling thread's cipher of this algorithm that handshake keys share.
     */
    ThreadCipher cipherOfThisThread()
    {
        return cipherOfThread.get();
    }

    /**
     * @param nonce {@link #NONCE_LENGTH} bytes; copied by the JDK.
     * @return the parameters for {@link Cipher#init}.
     */
    public AlgorithmParameterSpec parameters(final byte[] nonce)
    {
        return this == AES_GCM ? new GCMParameterSpec(TAG_LENGTH * Byte.SIZE, nonce) : new IvParameterSpec(nonce);
    }

    /**
     * Write a Noise handshake nonce: 32 zero bits then the counter (Noise section 12).
     *
     * @param counter the cipher state's counter.
     * @param nonce   receives {@link #NONCE_LENGTH} bytes.
     */
    public void noiseNonce(final long counter, final byte[] nonce)
    {
        for (int i = 0; i < 4; i++)
        {
            nonce[i] = 0;
        }
        for (int i = 0; i < Long.BYTES; i++)
        {
            final int shift = this == AES_GCM ? (Long.BYTES - 1 - i) * Byte.SIZE : i * Byte.SIZE;
            nonce[4 + i] = (byte)(counter >>> shift);
        }
    }

    /**
     * @return true if HotSpot uses the CPU's AES instructions ({@code -XX:+UseAES}, on by default exactly when the CPU
     * has them; its AES-GCM intrinsics follow it): the secure mode then defaults to AES-GCM, else to
     * ChaCha20-Poly1305. Java 17 has no ChaCha20 intrinsic: measured, its ChaCha20-Poly1305 costs about nine times
     * AES-GCM's time per packet on an AES-capable CPU (docs/security.md, "Cost"). Asked once per JVM (a VM option
     * does not change while it runs): every endpoint's context asks, and the management bean's look-up took about
     * 0.1 ms each time, 7 % of a simulated endpoint's construction (perf/FINDINGS.md, "Simulator speed, round 13").
     */
    public static boolean hasAesInstructions()
    {
        return AesInstructions.PRESENT;
    }

    /**
     * Holds the answer, found the first time it is asked (class initialisation is lazy and thread-safe: JLS 12.4.2).
     */
    private static final class AesInstructions
    {
        static final boolean PRESENT = askHotSpot();
    }

    private static boolean askHotSpot()
    {
        try
        {
            final HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return null != hotSpot && Boolean.parseBoolean(hotSpot.getVMOption("UseAES").getValue());
        }
        catch (final RuntimeException ex)
        {
            return false; // not HotSpot, or no such flag: ChaCha20-Poly1305 needs no special instructions
        }
    }

    /**
     * @param name {@code AESGCM} or {@code ChaChaPoly} (case-insensitive).
     * @return the algorithm.
     * @throws IllegalArgumentException naming the choices.
     */
    public static AeadAlgorithm fromNoiseName(final String name)
    {
        for (final AeadAlgorithm algorithm : values())
        {
            if (algorithm.noiseName.equalsIgnoreCase(name))
            {
                return algorithm;
            }
        }
        throw new IllegalArgumentException("unknown AEAD '" + name + "': use AESGCM or ChaChaPoly");
    }
}
