package io.pacelink.perf.soak;

import io.pacelink.transport.secure.Crc32cPacketCheck;
import io.pacelink.transport.wire.PacketHeaderFlyweight;
import io.pacelink.transport.wire.PacketType;
import io.pacelink.transport.wire.RetryPacketFlyweight;
import org.agrona.DirectBuffer;

/**
 * Reads what an attacker wants from a server's RETRY (docs/wire-format.md, "RETRY"): the token it may echo once, the
 * client id the token is bound to, and the server's static public key a RETRY to a Noise NK hello carries.
 */
final class RetryAnswer
{
    private RetryAnswer()
    {
    }

    /**
     * @param datagram a datagram received, at offset 0.
     * @param length   its length.
     * @return true if it is a RETRY long enough to hold its token length.
     */
    static boolean isRetry(final DirectBuffer datagram, final int length)
    {
        return length >= RetryPacketFlyweight.TOKEN_OFFSET &&
            PacketType.RETRY == (datagram.getByte(PacketHeaderFlyweight.PACKET_TYPE_OFFSET) & 0xFF);
    }

    /**
     * @param retry  a RETRY ({@link #isRetry}).
     * @param length its length.
     * @return its token's length, or -1 if the token is empty, too long or beyond the datagram; the token starts at
     * {@link RetryPacketFlyweight#TOKEN_OFFSET}.
     */
    static int tokenLength(final DirectBuffer retry, final int length)
    {
        final int tokenLength = retry.getInt(
            RetryPacketFlyweight.TOKEN_LENGTH_OFFSET, PacketHeaderFlyweight.BYTE_ORDER);
        return tokenLength > 0 && tokenLength <= RetryPacketFlyweight.MAX_TOKEN_LENGTH &&
            RetryPacketFlyweight.TOKEN_OFFSET + tokenLength <= length ? tokenLength : -1;
    }

    /**
     * @param retry a RETRY.
     * @return the client id it answers, which its token is bound to.
     */
    static long clientId(final DirectBuffer retry)
    {
        return retry.getLong(PacketHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET, PacketHeaderFlyweight.BYTE_ORDER);
    }

    /**
     * @param retry  a RETRY with a token ({@link #tokenLength} above 0).
     * @param length its length, integrity trailer included.
     * @return the server's static public key it carries after its token, or null if it carries none.
     */
    static byte[] serverKey(final DirectBuffer retry, final int length)
    {
        final int keyOffset = RetryPacketFlyweight.TOKEN_OFFSET + tokenLength(retry, length);
        if (keyOffset + RetryPacketFlyweight.SERVER_KEY_LENGTH > length - Crc32cPacketCheck.TRAILER_LENGTH)
        {
            return null;
        }
        final byte[] key = new byte[RetryPacketFlyweight.SERVER_KEY_LENGTH];
        retry.getBytes(keyOffset, key);
        return key;
    }
}
