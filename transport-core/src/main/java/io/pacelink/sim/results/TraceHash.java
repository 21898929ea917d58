package io.pacelink.sim.results;

/**
 * A running 64-bit FNV-1a hash over trace rows (numbers and names), to compare two runs for determinism without
 * keeping their traces.
 */
public final class TraceHash
{
    private static final long OFFSET_BASIS = 0xCBF29CE484222325L;
    private static final long PRIME = 0x100000001B3L;

    private long value = OFFSET_BASIS;

    /**
     * @param number a value to fold in, byte by byte (little-endian).
     * @return this.
     */
    public TraceHash update(final long number)
    {
        long hash = value;
        for (int shift = 0; shift < Long.SIZE; shift += Byte.SIZE)
        {
            hash = (hash ^ ((number >>> shift) & 0xFF)) * PRIME;
        }
        value = hash;
        return this;
    }

    /**
     * @param text a name to fold in, char by char, followed by a terminator so that "ab","c" differs from "a","bc".
     * @return this.
     */
    public TraceHash update(final CharSequence text)
    {
        long hash = value;
        for (int i = 0; i < text.length(); i++)
        {
            hash = (hash ^ text.charAt(i)) * PRIME;
        }
        value = (hash ^ 0xFFFF) * PRIME;
        return this;
    }

    /**
     * @return the hash so far.
     */
    public long value()
    {
        return value;
    }
}
