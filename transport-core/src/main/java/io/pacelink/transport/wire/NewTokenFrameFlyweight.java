package io.pacelink.transport.wire;

/**
 * Flyweight over a NEW_TOKEN frame (type {@link FrameType#NEW_TOKEN}, RFC 9000 section 19.7 with a fixed-width
 * length): a token the server gives a client whose connection it has confirmed, for the client to put in the hello of
 * a later connection to the same server, so that it is address-validated without a RETRY (section 8.1.3). Sent by
 * servers only, in ONE_RTT packets (sealed in the secure mode); a server that receives one closes the connection with
 * PROTOCOL_VIOLATION, and an endpoint of an earlier build skips it by its length.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 16   |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |                Body Length = 4 + Token Length                 |
 * +---------------------------------------------------------------+
 * |                     Token Length (32), 1..128                 |
 * +---------------------------------------------------------------+
 * |                          Token ...                            |
 * </pre>
 */
public final class NewTokenFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Offset of the token length in bytes (32 bits).
     */
    public static final int TOKEN_LENGTH_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * Offset of the token bytes.
     */
    public static final int TOKEN_OFFSET = TOKEN_LENGTH_OFFSET + 4;

    /**
     * Body length of a frame with an empty token (which is malformed: RFC 9000 section 19.7).
     */
    public static final int FIXED_BODY_LENGTH = TOKEN_OFFSET - FRAME_HEADER_LENGTH;

    /**
     * Longest token the frame carries, the longest a hello's HANDSHAKE frame can echo.
     */
    public static final int MAX_TOKEN_LENGTH = RetryPacketFlyweight.MAX_TOKEN_LENGTH;

    /**
     * @return the token length in bytes.
     */
    public int tokenLength()
    {
        return buffer().getInt(offset() + TOKEN_LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * @return the absolute offset of the first token byte in {@link #buffer()}.
     */
    public int tokenOffset()
    {
        return offset() + TOKEN_OFFSET;
    }

    /**
     * @return true if the token length is 1 to {@link #MAX_TOKEN_LENGTH} and agrees with the body length.
     */
    public boolean isWellFormed()
    {
        final int tokenLength = tokenLength();
        return 0 == frameFlags() && tokenLength > 0 && tokenLength <= MAX_TOKEN_LENGTH &&
            bodyLength() == FIXED_BODY_LENGTH + tokenLength;
    }

    /**
     * Write the token length; the frame's body length must already account for the token.
     *
     * @param tokenLength the token's length in bytes.
     * @return this.
     */
    public NewTokenFrameFlyweight tokenLength(final int tokenLength)
    {
        mutableBuffer().putInt(offset() + TOKEN_LENGTH_OFFSET, tokenLength, BYTE_ORDER);
        return this;
    }
}
