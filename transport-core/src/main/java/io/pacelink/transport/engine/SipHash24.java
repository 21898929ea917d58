package io.pacelink.transport.engine;

/**
 * SipHash-2-4 of one 64-bit message (J.-P. Aumasson and D. J. Bernstein, "SipHash: a fast short-input PRF",
 * INDOCRYPT 2012): a pseudorandom function of a 128-bit secret key, so that without the key its outputs cannot be
 * told from random ones nor one predicted from others. Linux keys its network hashes with it ({@code lib/siphash.c}).
 * Allocation-free: a few dozen additions, rotations and XORs. One thread only (the state is held in fields).
 */
final class SipHash24
{
    private final long k0;
    private final long k1;
    private long v0;
    private long v1;
    private long v2;
    private long v3;

    /**
     * @param k0 the key's first 8 bytes, little-endian.
     * @param k1 its last 8 bytes, little-endian.
     */
    SipHash24(final long k0, final long k1)
    {
        this.k0 = k0;
        this.k1 = k1;
    }

    /**
     * @param message the 8-byte message, little-endian.
     * @return its 64-bit SipHash-2-4, little-endian.
     */
    long hash(final long message)
    {
        v0 = k0 ^ 0x736f6d6570736575L;
        v1 = k1 ^ 0x646f72616e646f6dL;
        v2 = k0 ^ 0x6c7967656e657261L;
        v3 = k1 ^ 0x7465646279746573L;
        compress(message);
        // The last block: no message bytes left, the message's length (8) in its top byte.
        compress(8L << 56);
        v2 ^= 0xff;
        rounds(4);
        return v0 ^ v1 ^ v2 ^ v3;
    }

    private void compress(final long block)
    {
        v3 ^= block;
        rounds(2);
        v0 ^= block;
    }

    private void rounds(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13);
            v1 ^= v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16);
            v3 ^= v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21);
            v3 ^= v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17);
            v1 ^= v2;
            v2 = Long.rotateLeft(v2, 32);
        }
    }
}
