package io.pacelink.transport.secure;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Known answers of the secure mode's primitives from their RFCs: HKDF (RFC 5869 appendix A.1), X25519 (RFC 7748
 * section 6.1) and its small-order refusal, ChaCha20-Poly1305 (RFC 8439 section 2.8.2) and AES-256-GCM (the GCM
 * specification's test cases 13 and 14, McGrew and Viega).
 */
class PrimitivesKnownAnswerTest
{
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void hkdfRfc5869TestCase1()
    {
        final Hkdf hkdf = new Hkdf();
        final byte[] prk = hkdf.extract(
            HEX.parseHex("000102030405060708090a0b0c"), HEX.parseHex("0b".repeat(22)));
        assertEquals("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5", HEX.formatHex(prk));
        assertEquals(
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
            HEX.formatHex(hkdf.expand(prk, HEX.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42)));
    }

    @Test
    void x25519Rfc7748DiffieHellman()
    {
        final X25519 x25519 = new X25519();
        final byte[] alice = HEX.parseHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
        final byte[] bob = HEX.parseHex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
        assertEquals("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
            HEX.formatHex(x25519.publicKey(alice)));
        assertEquals("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
            HEX.formatHex(x25519.publicKey(bob)));
        assertEquals("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
            HEX.formatHex(x25519.agree(alice, x25519.publicKey(bob))));
    }

    @Test
    void x25519FailsClosedOnSmallOrderPoints()
    {
        final X25519 x25519 = new X25519();
        final byte[] alice = HEX.parseHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
        final byte[] one = new byte[32];
        one[0] = 1;
        final String[] smallOrder = {
            "0000000000000000000000000000000000000000000000000000000000000000",
            HEX.formatHex(one),
            "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800" };
        for (final String point : smallOrder)
        {
            assertThrows(IllegalArgumentException.class, () -> x25519.agree(alice, HEX.parseHex(point)), point);
        }
    }

    @Test
    void chaCha20Poly1305Rfc8439Section282()
    {
        final byte[] plaintext = ("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for " +
            "the future, sunscreen would be it.").getBytes(StandardCharsets.US_ASCII);
        final byte[] aad = HEX.parseHex("50515253c0c1c2c3c4c5c6c7");
        final AeadCipher cipher = new AeadCipher(AeadAlgorithm.CHACHA20_POLY1305,
            HEX.parseHex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"));
        final byte[] nonce = HEX.parseHex("070000004041424344454647");
        final byte[] sealed = new byte[plaintext.length + 16];
        cipher.seal(nonce, aad, 0, aad.length, plaintext, 0, plaintext.length, sealed, 0);
        assertEquals("d31a8d34648e60db7b86afbc53ef7ec2",
            HEX.formatHex(Arrays.copyOfRange(sealed, 0, 16)));
        assertEquals("1ae10b594f09e26a7e902ecbd0600691",
            HEX.formatHex(Arrays.copyOfRange(sealed, plaintext.length, sealed.length)));

        final byte[] opened = new byte[plaintext.length];
        assertEquals(plaintext.length, cipher.open(nonce, aad, 0, aad.length, sealed, 0, sealed.length, opened, 0));
        // A forged copy, then the genuine one with the same nonce: the JDK's ChaCha20 refuses a second
        // initialisation with the same key and nonce, which AeadCipher steps around.
        sealed[0] ^= 1;
        assertEquals(-1, cipher.open(nonce, aad, 0, aad.length, sealed, 0, sealed.length, opened, 0));
        sealed[0] ^= 1;
        assertEquals(plaintext.length, cipher.open(nonce, aad, 0, aad.length, sealed, 0, sealed.length, opened, 0));
    }

    @Test
    void aes256GcmTestCases13And14()
    {
        final AeadCipher cipher = new AeadCipher(AeadAlgorithm.AES_GCM, new byte[32]);
        final byte[] empty = new byte[16];
        cipher.seal(new byte[12], null, 0, 0, new byte[0], 0, 0, empty, 0);
        assertEquals("530f8afbc74536b9a963b4f1c4cb738b", HEX.formatHex(empty));

        final AeadCipher again = new AeadCipher(AeadAlgorithm.AES_GCM, new byte[32]);
        final byte[] block = new byte[32];
        again.seal(new byte[12], null, 0, 0, new byte[16], 0, 16, block, 0);
        assertEquals("cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919", HEX.formatHex(block));
    }
}
