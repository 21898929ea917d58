package io.pacelink.transport.secure;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;

/**
 * The cheap MAC over a secure hello (WireGuard's mac1, "Cookie MACs" in the WireGuard paper, section 5.4.4):
 * HMAC-SHA-256 truncated to 16 bytes over every byte of the packet before the MAC, keyed with
 * {@code SHA-256("pacelink mac1" | K)}, where K is what a client must know to talk to this server — its static public
 * key (NK) or the pre-shared key (NNpsk0). A server checks it before any Diffie-Hellman: a flood of hellos, or a
 * client with the wrong key, costs one HMAC, never public-key work. The MAC is compared in constant time
 * ({@link MessageDigest#isEqual}). It authenticates nothing — the server's public key is public — it only proves the
 * sender knows whom it talks to. Allocation free after construction. Not thread safe: one per agent.
 */
public final class HelloMac
{
    /**
     * Bytes of the MAC on the wire.
     */
    public static final int MAC_LENGTH = 16;

    private static final byte[] LABEL = "pacelink mac1".getBytes(StandardCharsets.US_ASCII);

    private final HmacSha256 hmac;
    private final byte[] scratch = new byte[2048];
    private final byte[] mac = new byte[HmacSha256.MAC_LENGTH];
    private final byte[] received = new byte[MAC_LENGTH];
    private final byte[] expected = new byte[MAC_LENGTH];

    /**
     * @param keyMaterial the server's static public key, or the pre-shared key.
     */
    public HelloMac(final byte[] keyMaterial)
    {
        try
        {
            final MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(LABEL);
            sha256.update(keyMaterial);
            hmac = new HmacSha256(sha256.digest());
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("every Java platform has SHA-256", ex);
        }
    }

    /**
     * Write the MAC of the bytes before {@code macOffset}.
     *
     * @param buffer    holding the packet.
     * @param offset    of the packet.
     * @param macOffset where the MAC goes; it covers {@code [offset, macOffset)}.
     */
    public void write(final MutableDirectBuffer buffer, final int offset, final int macOffset)
    {
        compute(buffer, offset, macOffset);
        buffer.putBytes(macOffset, mac, 0, MAC_LENGTH);
    }

    /**
     * @param buffer    holding the packet.
     * @param offset    of the packet.
     * @param macOffset of the MAC received; it covers {@code [offset, macOffset)}.
     * @return true if the MAC is right.
     */
    public boolean isValid(final DirectBuffer buffer, final int offset, final int macOffset)
    {
        if (macOffset - offset > scratch.length)
        {
            return false;
        }
        compute(buffer, offset, macOffset);
        buffer.getBytes(macOffset, received, 0, MAC_LENGTH);
        System.arraycopy(mac, 0, expected, 0, MAC_LENGTH);
        return MessageDigest.isEqual(expected, received);
    }

    private void compute(final DirectBuffer buffer, final int offset, final int macOffset)
    {
        final int length = macOffset - offset;
        buffer.getBytes(offset, scratch, 0, length);
        hmac.compute(scratch, 0, length, mac, 0);
    }
}
