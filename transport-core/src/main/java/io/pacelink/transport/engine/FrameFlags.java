package io.pacelink.transport.engine;

/**
 * What a sent packet carried besides stream data, recorded in the sent-packet ring so that the right frames are re-sent
 * when the packet is lost (docs/wire-format.md: MAX_DATA and CONSUMED only at their newest value, PING never).
 */
final class FrameFlags
{
    static final int ACK = 1;
    static final int MAX_DATA = 1 << 1;
    static final int PING = 1 << 2;
    static final int CLOSE = 1 << 3;
    static final int CONSUMED = 1 << 4;

    private FrameFlags()
    {
    }
}
