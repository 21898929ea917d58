package io.pacelink.transport.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Flyweight over a CLOSE frame (type {@link FrameType#CLOSE}): why the sender closes the connection (RFC 9000
 * section 19.19 semantics). Not ack-eliciting.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 7    |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |                 Body Length = 8 + Reason Length               |
 * +---------------------------------------------------------------+
 * |                        Error Code (32)                        |
 * +---------------------------------------------------------------+
 * |                       Reason Length (32)                      |
 * +---------------------------------------------------------------+
 * |                      Reason, UTF-8 ...                        |
 * </pre>
 */
public final class CloseFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Offset of the error code (32 bits).
     */
    public static final int ERROR_CODE_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * Offset of the reason length in bytes (32 bits).
     */
    public static final int REASON_LENGTH_OFFSET = ERROR_CODE_OFFSET + 4;

    /**
     * Offset of the reason bytes (UTF-8).
     */
    public static final int REASON_OFFSET = REASON_LENGTH_OFFSET + 4;

    /**
     * Body length of a CLOSE frame with an empty reason.
     */
    public static final int FIXED_BODY_LENGTH = REASON_OFFSET - FRAME_HEADER_LENGTH;

    /**
     * @return the error code.
     */
    public int errorCode()
    {
        return buffer().getInt(offset() + ERROR_CODE_OFFSET, BYTE_ORDER);
    }

    /**
     * @param errorCode the error code.
     * @return this.
     */
    public CloseFrameFlyweight errorCode(final int errorCode)
    {
        mutableBuffer().putInt(offset() + ERROR_CODE_OFFSET, errorCode, BYTE_ORDER);
        return this;
    }

    /**
     * @return the reason length in bytes.
     */
    public int reasonLength()
    {
        return buffer().getInt(offset() + REASON_LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * @return absolute offset of the reason bytes in {@link #buffer()}.
     */
    public int reasonOffset()
    {
        return offset() + REASON_OFFSET;
    }

    /**
     * Copy the reason bytes out.
     *
     * @param destination       to copy into.
     * @param destinationOffset where the first reason byte goes.
     * @return the reason length.
     */
    public int getReason(final MutableDirectBuffer destination, final int destinationOffset)
    {
        final int reasonLength = reasonLength();
        destination.putBytes(destinationOffset, buffer(), reasonOffset(), reasonLength);
        return reasonLength;
    }

    /**
     * Decode the reason; allocates, so for logging and error reports only, never on the data path. Malformed UTF-8
     * is replaced, never rejected.
     *
     * @return the reason text.
     */
    public String reason()
    {
        final int reasonLength = reasonLength();
        final byte[] bytes = new byte[reasonLength];
        buffer().getBytes(reasonOffset(), bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Write the reason length and bytes; the frame's body length must already account for them.
     *
     * @param source       holding the reason (UTF-8); may be null when the length is 0.
     * @param sourceOffset of the first reason byte.
     * @param reasonLength number of reason bytes.
     * @return this.
     */
    public CloseFrameFlyweight putReason(final DirectBuffer source, final int sourceOffset, final int reasonLength)
    {
        mutableBuffer().putInt(offset() + REASON_LENGTH_OFFSET, reasonLength, BYTE_ORDER);
        if (reasonLength > 0)
        {
            mutableBuffer().putBytes(reasonOffset(), source, sourceOffset, reasonLength);
        }
        return this;
    }
}
