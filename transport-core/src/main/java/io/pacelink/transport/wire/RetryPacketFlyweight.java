package io.pacelink.transport.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static io.pacelink.transport.wire.PacketHeaderFlyweight.HEADER_LENGTH;

/**
 * Flyweight over the body of a RETRY packet ({@link PacketType#RETRY}): the server's answer to a hello that carried no
 * valid address-validation token (RFC 9000 section 8.1.2). It holds no frames, only the token, which the client
 * echoes in the HANDSHAKE frame of its next hello (docs/wire-format.md), and — answering a Noise NK hello, when the
 * server has a static key — that key, so a client that does not know it yet can learn it (trust on first use) and one
 * that pinned another learns at once that they differ.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |          Packet header (20), type 5, DCID = client's id       |
 * +---------------------------------------------------------------+
 * |                        Token Length (32)                      |
 * +---------------------------------------------------------------+
 * |                          Token ...                            |
 * +---------------------------------------------------------------+
 * |         Server static public key (0 or 32 bytes) ...          |
 * </pre>
 * Wrapped at the start of the packet, like {@link PacketHeaderFlyweight}.
 */
public final class RetryPacketFlyweight extends WireFlyweight
{
    /**
     * Offset of the token length in bytes (32 bits).
     */
    public static final int TOKEN_LENGTH_OFFSET = HEADER_LENGTH;

    /**
     * Offset of the token bytes.
     */
    public static final int TOKEN_OFFSET = TOKEN_LENGTH_OFFSET + 4;

    /**
     * Longest token a RETRY packet or a HANDSHAKE frame may carry; longer ones are malformed.
     */
    public static final int MAX_TOKEN_LENGTH = 128;

    /**
     * Bytes of the server key a RETRY may carry after its token: an X25519 public key.
     */
    public static final int SERVER_KEY_LENGTH = 32;

    /**
     * @return the token length in bytes.
     */
    public int tokenLength()
    {
        return buffer().getInt(offset() + TOKEN_LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * @return absolute offset of the token bytes in {@link #buffer()}.
     */
    public int tokenOffset()
    {
        return offset() + TOKEN_OFFSET;
    }

    /**
     * @return absolute offset of the server key, right after the token; the packet's length says whether it is there.
     */
    public int serverKeyOffset()
    {
        return tokenOffset() + tokenLength();
    }

    /**
     * Write the token length and bytes after the header.
     *
     * @param source       holding the token.
     * @param sourceOffset of the first token byte.
     * @param tokenLength  number of token bytes.
     * @return this.
     */
    public RetryPacketFlyweight putToken(final DirectBuffer source, final int sourceOffset, final int tokenLength)
    {
        final MutableDirectBuffer buffer = mutableBuffer();
        buffer.putInt(offset() + TOKEN_LENGTH_OFFSET, tokenLength, BYTE_ORDER);
        buffer.putBytes(tokenOffset(), source, sourceOffset, tokenLength);
        return this;
    }
}
