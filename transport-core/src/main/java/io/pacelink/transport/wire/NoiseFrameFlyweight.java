package io.pacelink.transport.wire;

/**
 * Flyweight over a NOISE frame (type {@link FrameType#NOISE}, wire version 3): one message of the secure mode's Noise
 * handshake, beside the HANDSHAKE frame of a handshake packet (docs/wire-format.md, "Secure mode"). The client's
 * hello carries the first message, the server's answer the second. The MAC ends the frame: HMAC-SHA-256, truncated to
 * 16 bytes, over every byte of the packet before it, keyed with a hash of what the client must know to talk to the
 * server (its static public key, or the pre-shared key): a server checks it before any Diffie-Hellman, so a flood of
 * hellos costs it no public-key work (WireGuard's mac1). An NK hello with an empty message is a <em>key request</em>:
 * a client that does not know the server's static key yet asks for it, and the server's RETRY carries it.
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |   Type = 10   |   Flags = 0   |           Reserved            |
 * +---------------+---------------+-------------------------------+
 * |            Body Length = 4 + Message Length + 16              |
 * +---------------+---------------+-------------------------------+
 * |    Profile    |     AEAD      |          Reserved             |
 * +---------------+---------------+-------------------------------+
 * |                     Noise message ...                         |
 * +---------------------------------------------------------------+
 * |                          MAC (128)                            |
 * </pre>
 */
public final class NoiseFrameFlyweight extends FrameHeaderFlyweight
{
    /**
     * Offset of the profile: 1 NK, 2 NNpsk0.
     */
    public static final int PROFILE_OFFSET = FRAME_HEADER_LENGTH;

    /**
     * Offset of the AEAD: 1 AES-256-GCM, 2 ChaCha20-Poly1305.
     */
    public static final int AEAD_OFFSET = PROFILE_OFFSET + 1;

    /**
     * Offset of the Noise message.
     */
    public static final int MESSAGE_OFFSET = PROFILE_OFFSET + 4;

    /**
     * Bytes of the MAC.
     */
    public static final int MAC_LENGTH = 16;

    /**
     * Body length of a frame with an empty message.
     */
    public static final int FIXED_BODY_LENGTH = MESSAGE_OFFSET - FRAME_HEADER_LENGTH + MAC_LENGTH;

    /**
     * Shortest message but the key request's empty one: an ephemeral key and a tag.
     */
    public static final int MIN_MESSAGE_LENGTH = 48;

    /**
     * The profile number of Noise NK, the only profile whose client may send a key request.
     */
    public static final int PROFILE_NK = 1;

    /**
     * Length of a key request's message (an NK hello only).
     */
    public static final int KEY_REQUEST_LENGTH = 0;

    /**
     * Longest message accepted: the handshake's own are 80 bytes; the bound keeps a hostile frame cheap.
     */
    public static final int MAX_MESSAGE_LENGTH = 256;

    /**
     * @return the profile number.
     */
    public int profile()
    {
        return buffer().getByte(offset() + PROFILE_OFFSET) & 0xFF;
    }

    /**
     * @return the AEAD number.
     */
    public int aead()
    {
        return buffer().getByte(offset() + AEAD_OFFSET) & 0xFF;
    }

    /**
     * @return bytes of the Noise message.
     */
    public int messageLength()
    {
        return bodyLength() - FIXED_BODY_LENGTH;
    }

    /**
     * @return offset of the Noise message within the buffer.
     */
    public int messageOffset()
    {
        return offset() + MESSAGE_OFFSET;
    }

    /**
     * @return offset of the MAC within the buffer: the MAC covers every byte of the packet before it.
     */
    public int macOffset()
    {
        return messageOffset() + messageLength();
    }

    /**
     * Copy the Noise message out; allocates, at handshakes only.
     *
     * @return the message bytes.
     */
    public byte[] message()
    {
        final byte[] message = new byte[messageLength()];
        buffer().getBytes(messageOffset(), message);
        return message;
    }

    /**
     * Write the profile, AEAD and message; the frame's body length must already account for them.
     *
     * @return this.
     */
    public NoiseFrameFlyweight noise(final int profile, final int aead, final byte[] message)
    {
        mutableBuffer().putByte(offset() + PROFILE_OFFSET, (byte)profile);
        mutableBuffer().putByte(offset() + AEAD_OFFSET, (byte)aead);
        mutableBuffer().putShort(offset() + AEAD_OFFSET + 1, (short)0, BYTE_ORDER);
        mutableBuffer().putBytes(messageOffset(), message);
        return this;
    }
}
