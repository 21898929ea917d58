package io.pacelink.transport.admission;

import io.pacelink.transport.secure.HmacSha256;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;

/**
 * Stateless address validation (RFC 9000 section 8.1.2, the same idea as TCP's SYN cookies of RFC 4987 section 3.6):
 * a hello without a valid token is answered with a RETRY packet carrying a token, and only a hello that echoes a valid
 * token makes the server keep any state for the client. The token proves the client receives datagrams at the address
 * it claims, so a spoofed source can neither make the server hold memory nor turn it into an amplifier.
 * <p>
 * A token is {@code format (1) | issue time ns (8) | HMAC-SHA-256(key, format | issue time | client connection id |
 * port | address) truncated to 16 bytes}: opaque to the client, checked with no lookup. The key is drawn once per
 * endpoint from its random source; a restarted endpoint simply sends a new RETRY. The issue time comes from the
 * endpoint's own clock, so a token expires after its lifetime and a token from the future is invalid.
 * <p>
 * The same construction makes the tokens a server gives a confirmed client for its future connections (RFC 9000
 * sections 8.1.3 and 19.7, {@link #forNewTokens}): {@code format (2) | issue time ns (8) | HMAC-SHA-256(key, format |
 * issue time | address) truncated to 16 bytes}, bound to the client's address only — a returning client comes from a
 * new port with a new connection id — and valid for longer. The format byte leads both the token and the MAC input,
 * so neither kind passes for the other (section 8.1.3: a server must tell them apart).
 * <p>
 * Agent thread only; allocation free for IPv4 clients (an IPv6 address is copied out of its {@link InetAddress},
 * which the JDK does by cloning 16 bytes).
 */
public final class AddressValidator
{
    /**
     * Bytes of a token this validator mints.
     */
    public static final int TOKEN_LENGTH = 1 + Long.BYTES + 16;

    /**
     * {@link #verify}: the token is genuine, minted for this client at this address, and not expired.
     */
    public static final int VALID = 0;

    /**
     * {@link #verify}: the token is malformed, forged, or minted for another address or client.
     */
    public static final int INVALID = 1;

    /**
     * {@link #verify}: the token is genuine but older than its lifetime.
     */
    public static final int EXPIRED = 2;

    /**
     * Bytes of random key material drawn for the MAC.
     */
    public static final int KEY_LENGTH = 32;

    /**
     * The first byte of a RETRY token.
     */
    public static final byte RETRY_FORMAT = 1;

    /**
     * The first byte of a NEW_TOKEN token ({@link #forNewTokens}).
     */
    public static final byte NEW_TOKEN_FORMAT = 2;

    private static final int ISSUE_TIME_OFFSET = 1;
    private static final int MAC_OFFSET = ISSUE_TIME_OFFSET + Long.BYTES;
    private static final int TRUNCATED_MAC_LENGTH = TOKEN_LENGTH - MAC_OFFSET;
    private static final int MAX_ADDRESS_LENGTH = 16;
    private static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;

    private final HmacSha256 hmac;
    private final long lifetimeNs;
    private final byte format;
    private final byte[] macInput = new byte[1 + 2 * Long.BYTES + Short.BYTES + MAX_ADDRESS_LENGTH];
    private final byte[] mac = new byte[HmacSha256.MAC_LENGTH];

    /**
     * A validator of RETRY tokens, bound to the client's address, port and connection id.
     *
     * @param key        {@link #KEY_LENGTH} secret random bytes, never sent anywhere.
     * @param lifetimeNs how long a token is accepted after it was minted.
     */
    public AddressValidator(final byte[] key, final long lifetimeNs)
    {
        this(key, lifetimeNs, RETRY_FORMAT);
    }

    /**
     * A validator of the tokens NEW_TOKEN frames carry: bound to the client's address alone (its port and connection
     * id are ignored), so a client returning from a new port with a new connection id can use one.
     *
     * @param key        {@link #KEY_LENGTH} secret random bytes, never sent anywhere.
     * @param lifetimeNs how long a token is accepted after it was minted.
     * @return the validator.
     */
    public static AddressValidator forNewTokens(final byte[] key, final long lifetimeNs)
    {
        return new AddressValidator(key, lifetimeNs, NEW_TOKEN_FORMAT);
    }

    private AddressValidator(final byte[] key, final long lifetimeNs, final byte format)
    {
        if (key.length < KEY_LENGTH)
        {
            throw new IllegalArgumentException("the key needs " + KEY_LENGTH + " bytes, got " + key.length);
        }
        if (lifetimeNs <= 0)
        {
            throw new IllegalArgumentException("lifetimeNs must be positive: " + lifetimeNs);
        }
        this.hmac = new HmacSha256(key);
        this.lifetimeNs = lifetimeNs;
        this.format = format;
    }

    /**
     * Mint a token for a client.
     *
     * @param client             the address the hello came from.
     * @param clientConnectionId the connection id the client announced in its hello (ignored for a NEW_TOKEN).
     * @param nowNs              the current time.
     * @param token              receives {@link #TOKEN_LENGTH} bytes.
     * @param tokenOffset        where the first token byte goes.
     * @return {@link #TOKEN_LENGTH}.
     */
    public int mint(
        final InetSocketAddress client,
        final long clientConnectionId,
        final long nowNs,
        final MutableDirectBuffer token,
        final int tokenOffset)
    {
        computeMac(client, clientConnectionId, nowNs);
        token.putByte(tokenOffset, format);
        token.putLong(tokenOffset + ISSUE_TIME_OFFSET, nowNs, BYTE_ORDER);
        token.putBytes(tokenOffset + MAC_OFFSET, mac, 0, TRUNCATED_MAC_LENGTH);
        return TOKEN_LENGTH;
    }

    /**
     * Check a token a hello echoed.
     *
     * @param token              holding the token.
     * @param tokenOffset        of the first token byte.
     * @param tokenLength        number of token bytes.
     * @param client             the address the hello came from.
     * @param clientConnectionId the connection id the client announced in the hello (ignored for a NEW_TOKEN).
     * @param nowNs              the current time.
     * @return {@link #VALID}, {@link #INVALID} or {@link #EXPIRED}.
     */
    public int verify(
        final DirectBuffer token,
        final int tokenOffset,
        final int tokenLength,
        final InetSocketAddress client,
        final long clientConnectionId,
        final long nowNs)
    {
        if (TOKEN_LENGTH != tokenLength || format != token.getByte(tokenOffset))
        {
            return INVALID;
        }
        final long issuedNs = token.getLong(tokenOffset + ISSUE_TIME_OFFSET, BYTE_ORDER);
        computeMac(client, clientConnectionId, issuedNs);

        // Constant time: how many leading bytes match must not show in the time the check takes.
        int difference = 0;
        for (int i = 0; i < TRUNCATED_MAC_LENGTH; i++)
        {
            difference |= mac[i] ^ token.getByte(tokenOffset + MAC_OFFSET + i);
        }
        if (0 != difference || nowNs - issuedNs < 0)
        {
            return INVALID;
        }
        return nowNs - issuedNs > lifetimeNs ? EXPIRED : VALID;
    }

    /**
     * @param token       holding a token {@link #verify} found valid.
     * @param tokenOffset of its first byte.
     * @return 64 bits of its MAC: unpredictable without the key, so it names the token among all others.
     */
    public static long fingerprint(final DirectBuffer token, final int tokenOffset)
    {
        return token.getLong(tokenOffset + MAC_OFFSET, BYTE_ORDER);
    }

    /**
     * @param token       holding a token {@link #verify} found valid.
     * @param tokenOffset of its first byte.
     * @return when it was issued.
     */
    public static long issuedNs(final DirectBuffer token, final int tokenOffset)
    {
        return token.getLong(tokenOffset + ISSUE_TIME_OFFSET, BYTE_ORDER);
    }

    private void computeMac(final InetSocketAddress client, final long clientConnectionId, final long issuedNs)
    {
        int length = 0;
        macInput[length++] = format;
        length = putLong(macInput, length, issuedNs);
        if (RETRY_FORMAT == format)
        {
            length = putLong(macInput, length, clientConnectionId);
            final int port = client.getPort();
            macInput[length++] = (byte)port;
            macInput[length++] = (byte)(port >>> 8);
        }

        final InetAddress address = client.getAddress();
        if (address instanceof Inet4Address)
        {
            // An IPv4 address's hash code is its 32-bit value: no copy needed.
            length = putInt(macInput, length, address.hashCode());
        }
        else
        {
            final byte[] bytes = address.getAddress();
            System.arraycopy(bytes, 0, macInput, length, bytes.length);
            length += bytes.length;
        }
        hmac.compute(macInput, 0, length, mac, 0);
    }

    private static int putLong(final byte[] array, final int offset, final long value)
    {
        final int next = putInt(array, offset, (int)value);
        return putInt(array, next, (int)(value >>> Integer.SIZE));
    }

    private static int putInt(final byte[] array, final int offset, final int value)
    {
        array[offset] = (byte)value;
        array[offset + 1] = (byte)(value >>> 8);
        array[offset + 2] = (byte)(value >>> 16);
        array[offset + 3] = (byte)(value >>> 24);
        return offset + Integer.BYTES;
    }
}
