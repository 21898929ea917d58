package io.pacelink.transport.port;

import org.agrona.concurrent.UnsafeBuffer;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/**
 * Linux {@code sockaddr_in} / {@code sockaddr_in6} to and from {@link InetSocketAddress}, without garbage once the
 * peers are known: an IPv4 address is encoded from {@link Inet4Address#hashCode()} (which is the address), an IPv6
 * one from a copy of its bytes kept per destination instance; a received address is looked up in a fixed-size
 * set-associative table of the addresses decoded before, so a datagram from a known peer creates nothing.
 * <p>
 * The table never grows: a flood from many (spoofed) sources replaces entries, each new source costing one
 * {@link InetSocketAddress} as it does on the NIO port. An IPv4-mapped IPv6 source ({@code ::ffff:a.b.c.d}, what
 * a dual-stack socket reports for an IPv4 peer) decodes to an {@link Inet4Address}, as the JDK's own sockets do, so it
 * equals the address an application gave. Agent thread only.
 */
final class SocketAddressCodec
{
    /**
     * Bytes of a {@code sockaddr_in}.
     */
    static final int SOCKADDR_IN_LENGTH = 16;

    /**
     * Bytes of a {@code sockaddr_in6}.
     */
    static final int SOCKADDR_IN6_LENGTH = 28;

    static final short AF_INET = 2;
    static final short AF_INET6 = 10;

    private static final int WAYS = 4;
    private static final int SETS = 256;
    private static final int SEND_CACHE_ENTRIES = 16;

    private final boolean ipv6Socket;

    private final long[] keyHigh = new long[SETS * WAYS];
    private final long[] keyLow = new long[SETS * WAYS];
    private final long[] keyPortScope = new long[SETS * WAYS];
    private final InetSocketAddress[] decoded = new InetSocketAddress[SETS * WAYS];
    private final byte[] victims = new byte[SETS];

    private final InetSocketAddress[] encodedFor = new InetSocketAddress[SEND_CACHE_ENTRIES];
    private final byte[][] encoded = new byte[SEND_CACHE_ENTRIES][];
    private int nextEncoded;

    /**
     * @param ipv6Socket true if the socket is AF_INET6 (dual-stack): IPv4 peers are then written IPv4-mapped.
     */
    SocketAddressCodec(final boolean ipv6Socket)
    {
        this.ipv6Socket = ipv6Socket;
    }

    /**
     * Write an address as this socket's family expects it.
     *
     * @param address where to.
     * @param buffer  to write into.
     * @param offset  where the sockaddr starts (28 bytes of room).
     * @return its length, or −1 if this socket cannot reach that family (an IPv6 address on an IPv4 socket).
     */
    int encode(final InetSocketAddress address, final UnsafeBuffer buffer, final int offset)
    {
        final InetAddress ip = address.getAddress();
        if (ip instanceof Inet4Address)
        {
            // Inet4Address.hashCode() is the address itself, in host order: no byte[] copy.
            final int ipv4 = ip.hashCode();
            if (!ipv6Socket)
            {
                buffer.putShort(offset, AF_INET, ByteOrder.nativeOrder());
                buffer.putShort(offset + 2, (short)address.getPort(), ByteOrder.BIG_ENDIAN);
                buffer.putInt(offset + 4, ipv4, ByteOrder.BIG_ENDIAN);
                buffer.putLong(offset + 8, 0);
                return SOCKADDR_IN_LENGTH;
            }
            putIn6Header(buffer, offset, address.getPort());
            buffer.putLong(offset + 8, 0);
            buffer.putInt(offset + 16, 0x0000ffff, ByteOrder.BIG_ENDIAN);
            buffer.putInt(offset + 20, ipv4, ByteOrder.BIG_ENDIAN);
            buffer.putInt(offset + 24, 0);
            return SOCKADDR_IN6_LENGTH;
        }
        if (!ipv6Socket || !(ip instanceof Inet6Address))
        {
            return -1;
        }
        putIn6Header(buffer, offset, address.getPort());
        buffer.putBytes(offset + 8, ipv6Bytes(address));
        buffer.putInt(offset + 24, ((Inet6Address)ip).getScopeId(), ByteOrder.nativeOrder());
        return SOCKADDR_IN6_LENGTH;
    }

    /**
     * Read a received address.
     *
     * @param buffer holding it.
     * @param offset where the sockaddr starts.
     * @param length its length as the kernel reported it.
     * @return the address (a cached instance for a known peer), or null if it is neither IPv4 nor IPv6.
     */
    InetSocketAddress decode(final UnsafeBuffer buffer, final int offset, final int length)
    {
        final short family = buffer.getShort(offset, ByteOrder.nativeOrder());
        final int port = buffer.getShort(offset + 2, ByteOrder.BIG_ENDIAN) & 0xffff;
        if (AF_INET == family && length >= SOCKADDR_IN_LENGTH)
        {
            return lookup(false, 0, buffer.getInt(offset + 4, ByteOrder.BIG_ENDIAN) & 0xffff_ffffL, port, 0);
        }
        if (AF_INET6 != family || length < SOCKADDR_IN6_LENGTH)
        {
            return null;
        }
        final long high = buffer.getLong(offset + 8, ByteOrder.BIG_ENDIAN);
        final long low = buffer.getLong(offset + 16, ByteOrder.BIG_ENDIAN);
        if (0 == high && 0x0000_ffffL == low >>> 32)
        {
            return lookup(false, 0, low & 0xffff_ffffL, port, 0);
        }
        return lookup(true, high, low, port, buffer.getInt(offset + 24, ByteOrder.nativeOrder()));
    }

    private InetSocketAddress lookup(
        final boolean isIpv6, final long high, final long low, final int port, final int scopeId)
    {
        // Bit 16 of the key tells IPv6 from IPv4, so ::a.b.c.d and a.b.c.d never share an entry.
        final long portScope = ((long)scopeId << 17) | (isIpv6 ? 1L << 16 : 0) | port;
        final int set = Long.hashCode((high * 31 + low) * 31 + portScope) * 0x9E3779B9 >>> 24 & (SETS - 1);
        final int first = set * WAYS;
        for (int i = first; i < first + WAYS; i++)
        {
            final InetSocketAddress cached = decoded[i];
            if (null != cached && keyLow[i] == low && keyHigh[i] == high && keyPortScope[i] == portScope)
            {
                return cached;
            }
        }
        final InetSocketAddress address = new InetSocketAddress(toInetAddress(isIpv6, high, low, scopeId), port);
        final int victim = first + (victims[set]++ & (WAYS - 1));
        keyHigh[victim] = high;
        keyLow[victim] = low;
        keyPortScope[victim] = portScope;
        decoded[victim] = address;
        return address;
    }

    private static InetAddress toInetAddress(final boolean isIpv6, final long high, final long low, final int scope)
    {
        try
        {
            if (!isIpv6)
            {
                final int ipv4 = (int)low;
                return InetAddress.getByAddress(new byte[]{
                    (byte)(ipv4 >>> 24), (byte)(ipv4 >>> 16), (byte)(ipv4 >>> 8), (byte)ipv4 });
            }
            final byte[] bytes = new byte[16];
            for (int i = 0; i < 8; i++)
            {
                bytes[i] = (byte)(high >>> (56 - 8 * i));
                bytes[8 + i] = (byte)(low >>> (56 - 8 * i));
            }
            return 0 == scope ? InetAddress.getByAddress(bytes) : Inet6Address.getByAddress(null, bytes, scope);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("an address of 4 or 16 bytes is always valid", ex);
        }
    }

    private static void putIn6Header(final UnsafeBuffer buffer, final int offset, final int port)
    {
        buffer.putShort(offset, AF_INET6, ByteOrder.nativeOrder());
        buffer.putShort(offset + 2, (short)port, ByteOrder.BIG_ENDIAN);
        buffer.putInt(offset + 4, 0);
    }

    /**
     * @return the 16 bytes of an IPv6 destination, copied once per destination instance (the JDK copies them on
     * every {@link InetAddress#getAddress()}).
     */
    private byte[] ipv6Bytes(final InetSocketAddress address)
    {
        for (int i = 0; i < SEND_CACHE_ENTRIES; i++)
        {
            if (encodedFor[i] == address)
            {
                return encoded[i];
            }
        }
        final int slot = nextEncoded++ & (SEND_CACHE_ENTRIES - 1);
        encodedFor[slot] = address;
        encoded[slot] = address.getAddress().getAddress();
        return encoded[slot];
    }
}
