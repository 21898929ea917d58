package io.pacelink.transport.secure;

import io.pacelink.transport.testing.AllocationMeter;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Noise states and packet keys of a thread share its HKDF and SHA-256 ({@link Hkdf#ofThisThread()}), and its
 * handshake keys its JCA cipher ({@link AeadCipher#sharingThreadCipher}): one per thread, never another's; states and
 * keys that interleave on one thread give what each gives alone; what the JDK refuses of a cipher of one key's own
 * (a second GCM seal with the same nonce) it still refuses, and what it would not refuse (two equal keys sealing the
 * same nonce one after the other, a ChaCha20 open of a forged packet before the genuine one) still works; and a new
 * handshake state no longer pays a JCA {@code Mac}, {@code MessageDigest} and {@code Cipher} of its own.
 */
class ThreadSharedCryptoTest
{
    private static final String PROTOCOL = "Noise_NK_25519_AESGCM_SHA256";
    private static final byte[] PLAINTEXT = "a handshake message".getBytes(StandardCharsets.US_ASCII);

    @Test
    void eachThreadHasItsOwnHkdf() throws InterruptedException
    {
        final Hkdf mine = Hkdf.ofThisThread();
        assertSame(mine, Hkdf.ofThisThread());
        final AtomicReference<Hkdf> other = new AtomicReference<>();
        final Thread thread = new Thread(() -> other.set(Hkdf.ofThisThread()));
        thread.start();
        thread.join();
        assertNotSame(mine, other.get());
    }

    @Test
    void statesThatInterleaveOnOneThreadGiveWhatEachGivesAlone()
    {
        final byte[][] aloneA = run(new NoiseSymmetricState(PROTOCOL, AeadAlgorithm.AES_GCM), 1);
        final byte[][] aloneB = run(new NoiseSymmetricState(PROTOCOL, AeadAlgorithm.AES_GCM), 2);

        final NoiseSymmetricState a = new NoiseSymmetricState(PROTOCOL, AeadAlgorithm.AES_GCM);
        final NoiseSymmetricState b = new NoiseSymmetricState(PROTOCOL, AeadAlgorithm.AES_GCM);
        for (int step = 0; step < 3; step++)
        {
            step(a, 1, step);
            step(b, 2, step);
        }
        assertArrayEquals(aloneA, result(a));
        assertArrayEquals(aloneB, result(b));
    }

    @Test
    void aNewHandshakeStateAllocatesNoJcaEngineOfItsOwn()
    {
        for (int i = 0; i < 2_000; i++)
        {
            run(new NoiseSymmetricState(PROTOCOL, AeadAlgorithm.AES_GCM), i);
        }
        final long before = AllocationMeter.allocatedBytes();
        final int states = 100;
        for (int i = 0; i < states; i++)
        {
            run(new NoiseSymmetricState(PROTOCOL, AeadAlgorithm.AES_GCM), i);
        }
        final long perStateBytes = (AllocationMeter.allocatedBytes() - before) / states;
        // Three keys mixed, each sealing a message, and the split: ~12.8 KB on JDK 17 (each key's AES schedule, the
        // outputs). With a JCA Mac, MessageDigest and Cipher of its own per state and key (as before): ~24 KB.
        assertTrue(perStateBytes < 16_000, perStateBytes + " bytes a state");
    }

    private static byte[][] run(final NoiseSymmetricState state, final int seed)
    {
        for (int step = 0; step < 3; step++)
        {
            step(state, seed, step);
        }
        return result(state);
    }

    private static void step(final NoiseSymmetricState state, final int seed, final int step)
    {
        final byte[] input = new byte[32];
        input[0] = (byte)seed;
        input[1] = (byte)step;
        state.mixHash(input);
        state.mixKey(input);
        state.encryptAndHash(input);
    }

    private static byte[][] result(final NoiseSymmetricState state)
    {
        final byte[][] split = state.split();
        return new byte[][] {split[0], split[1], state.handshakeHash()};
    }

    @Test
    void keysSharingTheThreadsCipherSealAndOpenAsKeysWithCiphersOfTheirOwn()
    {
        for (final AeadAlgorithm algorithm : AeadAlgorithm.values())
        {
            final AeadCipher ownA = new AeadCipher(algorithm, key(1));
            final AeadCipher ownB = new AeadCipher(algorithm, key(2));
            final AeadCipher sharedA = AeadCipher.sharingThreadCipher(algorithm, key(1));
            final AeadCipher sharedB = AeadCipher.sharingThreadCipher(algorithm, key(2));
            for (int i = 0; i < 4; i++)
            {
                final byte[] nonce = nonce(i);
                final byte[] sealedA = seal(ownA, nonce);
                final byte[] sealedB = seal(ownB, nonce);
                assertArrayEquals(sealedA, seal(sharedA, nonce), algorithm + " key 1, nonce " + i);
                assertArrayEquals(sealedB, seal(sharedB, nonce), algorithm + " key 2, nonce " + i);
                assertArrayEquals(PLAINTEXT, open(sharedA, nonce, sealedA));
                assertArrayEquals(PLAINTEXT, open(sharedB, nonce, sealedB));
            }
        }
    }

    @Test
    void twoEqualKeysSealTheSameNonceOneAfterTheOther()
    {
        for (final AeadAlgorithm algorithm : AeadAlgorithm.values())
        {
            final byte[] expected = seal(new AeadCipher(algorithm, key(3)), nonce(7));
            assertArrayEquals(expected, seal(AeadCipher.sharingThreadCipher(algorithm, key(3)), nonce(7)));
            assertArrayEquals(expected, seal(AeadCipher.sharingThreadCipher(algorithm, key(3)), nonce(7)),
                algorithm + ": a cipher of its own would not have refused it");
        }
    }

    @Test
    void aGcmKeySealingItsLastNonceAgainIsStillRefused()
    {
        final AeadCipher own = new AeadCipher(AeadAlgorithm.AES_GCM, key(4));
        seal(own, nonce(1));
        assertThrows(IllegalStateException.class, () -> seal(own, nonce(1)), "as the JDK refuses it");
        final AeadCipher shared = AeadCipher.sharingThreadCipher(AeadAlgorithm.AES_GCM, key(4));
        seal(shared, nonce(1));
        assertThrows(IllegalStateException.class, () -> seal(shared, nonce(1)), "shared alike");
    }

    @Test
    void aChaChaKeyOpensTheGenuinePacketAfterAForgedOneOfTheSameNonce()
    {
        final AeadCipher sealer = new AeadCipher(AeadAlgorithm.CHACHA20_POLY1305, key(5));
        final AeadCipher opener = AeadCipher.sharingThreadCipher(AeadAlgorithm.CHACHA20_POLY1305, key(5));
        final byte[] genuine = seal(sealer, nonce(2));
        final byte[] forged = genuine.clone();
        forged[0] ^= 1;
        final byte[] out = new byte[PLAINTEXT.length];
        assertEquals(-1, opener.open(nonce(2), new byte[0], 0, 0, forged, 0, forged.length, out, 0));
        assertArrayEquals(PLAINTEXT, open(opener, nonce(2), genuine));
    }

    private static byte[] seal(final AeadCipher cipher, final byte[] nonce)
    {
        final byte[] out = new byte[PLAINTEXT.length + AeadAlgorithm.TAG_LENGTH];
        cipher.seal(nonce, new byte[0], 0, 0, PLAINTEXT, 0, PLAINTEXT.length, out, 0);
        return out;
    }

    private static byte[] open(final AeadCipher cipher, final byte[] nonce, final byte[] sealed)
    {
        final byte[] out = new byte[sealed.length - AeadAlgorithm.TAG_LENGTH];
        assertEquals(out.length, cipher.open(nonce, new byte[0], 0, 0, sealed, 0, sealed.length, out, 0));
        return out;
    }

    private static byte[] key(final int seed)
    {
        final byte[] key = new byte[AeadAlgorithm.KEY_LENGTH];
        key[0] = (byte)seed;
        return key;
    }

    private static byte[] nonce(final int counter)
    {
        final byte[] nonce = new byte[AeadAlgorithm.NONCE_LENGTH];
        nonce[nonce.length - 1] = (byte)counter;
        return nonce;
    }
}
