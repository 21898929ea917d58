package io.pacelink.transport.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over a HANDSHAKE frame (type {@link FrameType#HANDSHAKE}): the connection parameters each side announces
 * and the address-validation token (docs/wire-format.md).
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+-------------+-+-------------------------------+
 * |   Type = 6    |   Flags     |R|           Reserved            |
 * +---------------+-------------+-+-------------------------------+
 * |                 Body Length = 44 + Token Length               |
 * +---------------------------------------------------------------+
 * |                   Source Connection Id (64)                   |
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                          Version (32)                         |
 * +---------------------------------------------------------------+
 * |                    Max Datagram Size (32)                     |
 * +---------------------------------------------------------------+
 * |                     Max ACK Delay, us (32)                    |
 * +---------------------------------------------------------------+
 * |                      Idle Timeout, ms (32)                    |
 * +---------------------------------------------------------------+
 * |                      Initial Max Data (64)                    |
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                  Initial Max Stream Data (64)                 |
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                        Token Length (32)                      |
 * +---------------------------------------------------------------+
 * |                          Token ...                            |
 * </pre>
 * Flag {@code R} ({@link #FLAG_RESPONSE}): sent by the server.
 */
public final class HandshakeFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Frame flag: this frame is the server's response.
     */
    public static final int FLAG_RESPONSE = 0x1;

    /**
     * Offset of the sender's own connection id, which the peer puts in its packet headers (64 bits).
     */
    public static final int SOURCE_CONNECTION_ID_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * Offset of the wire format version the sender speaks (32 bits).
     */
    public static final int VERSION_OFFSET = SOURCE_CONNECTION_ID_OFFSET + 8;

    /**
     * Offset of the largest datagram the sender accepts, in bytes (32 bits).
     */
    public static final int MAX_DATAGRAM_SIZE_OFFSET = VERSION_OFFSET + 4;

    /**
     * Offset of the longest time the sender delays an ACK, in microseconds (32 bits, RFC 9000 section 18.2
     * max_ack_delay).
     */
    public static final int MAX_ACK_DELAY_OFFSET = MAX_DATAGRAM_SIZE_OFFSET + 4;

    /**
     * Offset of the sender's idle timeout in milliseconds (32 bits).
     */
    public static final int IDLE_TIMEOUT_OFFSET = MAX_ACK_DELAY_OFFSET + 4;

    /**
     * Offset of the initial connection-level credit in bytes (64 bits).
     */
    public static final int INITIAL_MAX_DATA_OFFSET = IDLE_TIMEOUT_OFFSET + 4;

    /**
     * Offset of the initial stream-level credit in bytes (64 bits).
     */
    public static final int INITIAL_MAX_STREAM_DATA_OFFSET = INITIAL_MAX_DATA_OFFSET + 8;

    /**
     * Offset of the token length in bytes (32 bits).
     */
    public static final int TOKEN_LENGTH_OFFSET = INITIAL_MAX_STREAM_DATA_OFFSET + 8;

    /**
     * Offset of the token bytes.
     */
    public static final int TOKEN_OFFSET = TOKEN_LENGTH_OFFSET + 4;

    /**
     * Body length of a HANDSHAKE frame with an empty token.
     */
    public static final int FIXED_BODY_LENGTH = TOKEN_OFFSET - FRAME_HEADER_LENGTH;

    /**
     * @return true if this frame is the server's response.
     */
    public boolean isResponse()
    {
        return (frameFlags() & FLAG_RESPONSE) != 0;
    }

    /**
     * @return the sender's own connection id.
     */
    public long sourceConnectionId()
    {
        return buffer().getLong(offset() + SOURCE_CONNECTION_ID_OFFSET, BYTE_ORDER);
    }

    /**
     * @param connectionId the sender's own connection id.
     * @return this.
     */
    public HandshakeFrameFlyweight sourceConnectionId(final long connectionId)
    {
        mutableBuffer().putLong(offset() + SOURCE_CONNECTION_ID_OFFSET, connectionId, BYTE_ORDER);
        return this;
    }

    /**
     * @return the wire format version the sender speaks.
     */
    public int version()
    {
        return buffer().getInt(offset() + VERSION_OFFSET, BYTE_ORDER);
    }

    /**
     * @param version the wire format version the sender speaks.
     * @return this.
     */
    public HandshakeFrameFlyweight version(final int version)
    {
        mutableBuffer().putInt(offset() + VERSION_OFFSET, version, BYTE_ORDER);
        return this;
    }

    /**
     * @return the largest datagram the sender accepts, in bytes.
     */
    public int maxDatagramSize()
    {
        return buffer().getInt(offset() + MAX_DATAGRAM_SIZE_OFFSET, BYTE_ORDER);
    }

    /**
     * @param maxDatagramSize the largest datagram the sender accepts.
     * @return this.
     */
    public HandshakeFrameFlyweight maxDatagramSize(final int maxDatagramSize)
    {
        mutableBuffer().putInt(offset() + MAX_DATAGRAM_SIZE_OFFSET, maxDatagramSize, BYTE_ORDER);
        return this;
    }

    /**
     * @return the longest time the sender delays an ACK, in microseconds.
     */
    public int maxAckDelayUs()
    {
        return buffer().getInt(offset() + MAX_ACK_DELAY_OFFSET, BYTE_ORDER);
    }

    /**
     * @param maxAckDelayUs the longest time the sender delays an ACK.
     * @return this.
     */
    public HandshakeFrameFlyweight maxAckDelayUs(final int maxAckDelayUs)
    {
        mutableBuffer().putInt(offset() + MAX_ACK_DELAY_OFFSET, maxAckDelayUs, BYTE_ORDER);
        return this;
    }

    /**
     * @return the sender's idle timeout in milliseconds.
     */
    public int idleTimeoutMs()
    {
        return buffer().getInt(offset() + IDLE_TIMEOUT_OFFSET, BYTE_ORDER);
    }

    /**
     * @param idleTimeoutMs the sender's idle timeout.
     * @return this.
     */
    public HandshakeFrameFlyweight idleTimeoutMs(final int idleTimeoutMs)
    {
        mutableBuffer().putInt(offset() + IDLE_TIMEOUT_OFFSET, idleTimeoutMs, BYTE_ORDER);
        return this;
    }

    /**
     * @return the initial connection-level credit in bytes.
     */
    public long initialMaxData()
    {
        return buffer().getLong(offset() + INITIAL_MAX_DATA_OFFSET, BYTE_ORDER);
    }

    /**
     * @param initialMaxData the initial connection-level credit.
     * @return this.
     */
    public HandshakeFrameFlyweight initialMaxData(final long initialMaxData)
    {
        mutableBuffer().putLong(offset() + INITIAL_MAX_DATA_OFFSET, initialMaxData, BYTE_ORDER);
        return this;
    }

    /**
     * @return the initial stream-level credit in bytes.
     */
    public long initialMaxStreamData()
    {
        return buffer().getLong(offset() + INITIAL_MAX_STREAM_DATA_OFFSET, BYTE_ORDER);
    }

    /**
     * @param initialMaxStreamData the initial stream-level credit.
     * @return this.
     */
    public HandshakeFrameFlyweight initialMaxStreamData(final long initialMaxStreamData)
    {
        mutableBuffer().putLong(offset() + INITIAL_MAX_STREAM_DATA_OFFSET, initialMaxStreamData, BYTE_ORDER);
        return this;
    }

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
     * Copy the token out.
     *
     * @param destination       to copy into.
     * @param destinationOffset where the first token byte goes.
     * @return the token length.
     */
    public int getToken(final MutableDirectBuffer destination, final int destinationOffset)
    {
        final int tokenLength = tokenLength();
        destination.putBytes(destinationOffset, buffer(), tokenOffset(), tokenLength);
        return tokenLength;
    }

    /**
     * Write the token length and bytes; the frame's body length must already account for them.
     *
     * @param source       holding the token (may be null when the length is 0).
     * @param sourceOffset of the first token byte.
     * @param tokenLength  number of token bytes.
     * @return this.
     */
    public HandshakeFrameFlyweight putToken(final DirectBuffer source, final int sourceOffset, final int tokenLength)
    {
        mutableBuffer().putInt(offset() + TOKEN_LENGTH_OFFSET, tokenLength, BYTE_ORDER);
        if (tokenLength > 0)
        {
            mutableBuffer().putBytes(tokenOffset(), source, sourceOffset, tokenLength);
        }
        return this;
    }
}
