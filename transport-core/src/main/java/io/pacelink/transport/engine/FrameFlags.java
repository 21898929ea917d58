package io.pacelink.transport.engine;

/**
 * What a sent packet carried besides stream data, recorded in the sent-packet ring so that the right frames are re-sent
 * when the packet is lost (docs/wire-format.md: MAX_DATA, CONSUMED and ACK_FREQUENCY only at their newest value, PING
 * never, NEW_TOKEN as it was).
 */
final class FrameFlags
{
    static final int ACK = 1;
    static final int MAX_DATA = 1 << 1;
    static final int PING = 1 << 2;
    static final int CLOSE = 1 << 3;
    static final int CONSUMED = 1 << 4;
    static final int ACK_FREQUENCY = 1 << 5;
    static final int NEW_TOKEN = 1 << 6;

    private FrameFlags()
    {
    }
}
