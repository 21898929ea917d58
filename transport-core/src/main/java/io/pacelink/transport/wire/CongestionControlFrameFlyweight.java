package io.pacelink.transport.wire;

/**
 * Flyweight over a CONGESTION_CONTROL frame (type {@link FrameType#CONGESTION_CONTROL}): the congestion controller
 * the client asked for, sent beside the HANDSHAKE frame of its handshake packets so the server runs the same
 * algorithm for its side of the connection (as a TCP server given {@code TCP_CONGESTION} per socket). A receiver that
 * does not know the frame skips it by its length, so older servers simply use their own controller.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 8    |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |                 Body Length = 4 + Name Length                 |
 * +---------------------------------------------------------------+
 * |                        Name Length (32)                       |
 * +---------------------------------------------------------------+
 * |                  Name, printable ASCII ...                    |
 * </pre>
 */
public final class CongestionControlFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Longest controller name the frame carries; longer names are malformed. Registered names are short
     * ({@code cubic}, {@code bbr3}); the bound keeps a hostile frame from costing more than a glance.
     */
    public static final int MAX_NAME_LENGTH = 32;

    /**
     * Offset of the name length in bytes (32 bits).
     */
    public static final int NAME_LENGTH_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * Offset of the name bytes.
     */
    public static final int NAME_OFFSET = NAME_LENGTH_OFFSET + 4;

    /**
     * Body length of a frame with an empty name.
     */
    public static final int FIXED_BODY_LENGTH = NAME_OFFSET - FRAME_HEADER_LENGTH;

    /**
     * @return the name length in bytes.
     */
    public int nameLength()
    {
        return buffer().getInt(offset() + NAME_LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * Decode the name; allocates, so only when a connection is created, never per packet.
     *
     * @return the controller's name.
     */
    public String name()
    {
        return buffer().getStringWithoutLengthAscii(offset() + NAME_OFFSET, nameLength());
    }

    /**
     * Write the name length and bytes; the frame's body length must already account for them.
     *
     * @param name the controller's name, ASCII.
     * @return this.
     */
    public CongestionControlFrameFlyweight name(final String name)
    {
        mutableBuffer().putInt(offset() + NAME_LENGTH_OFFSET, name.length(), BYTE_ORDER);
        mutableBuffer().putStringWithoutLengthAscii(offset() + NAME_OFFSET, name);
        return this;
    }

    /**
     * @param name a controller name.
     * @return true if the frame can carry it: 1 to {@link #MAX_NAME_LENGTH} printable ASCII characters, no space.
     */
    public static boolean isValidName(final CharSequence name)
    {
        final int length = name.length();
        if (length < 1 || length > MAX_NAME_LENGTH)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (!isNameByte(name.charAt(i)))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return true if the name in the buffer (its length already checked against the body) is valid.
     */
    boolean hasValidNameBytes()
    {
        final int length = nameLength();
        if (length < 1 || length > MAX_NAME_LENGTH)
        {
            return false;
        }
        final int nameOffset = offset() + NAME_OFFSET;
        for (int i = 0; i < length; i++)
        {
            if (!isNameByte((char)buffer().getByte(nameOffset + i)))
            {
                return false;
            }
        }
        return true;
    }

    private static boolean isNameByte(final char c)
    {
        return c > ' ' && c < 0x7f;
    }
}
