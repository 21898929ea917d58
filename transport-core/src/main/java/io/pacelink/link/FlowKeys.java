package io.pacelink.link;

import java.net.InetSocketAddress;

/**
 * The flow key a fair queue classifies by: a well-mixed 64-bit hash of a datagram's source and destination
 * addresses (for UDP the 5-tuple less the constant protocol).
 */
public final class FlowKeys
{
    private FlowKeys()
    {
    }

    /**
     * @param source      the sender.
     * @param destination the receiver.
     * @return the flow key; equal for equal address pairs, independent of object identity.
     */
    public static long of(final InetSocketAddress source, final InetSocketAddress destination)
    {
        return mix(((long)source.hashCode() << 32) ^ (destination.hashCode() & 0xFFFF_FFFFL));
    }

    /**
     * The SplitMix64 finalizer: spreads every input bit over the whole word.
     *
     * @param value the value to mix.
     * @return the mixed value.
     */
    public static long mix(final long value)
    {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
