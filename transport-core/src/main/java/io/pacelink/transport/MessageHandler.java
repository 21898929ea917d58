package io.pacelink.transport;

import org.agrona.DirectBuffer;

/**
 * Receives the messages of a connection, in order, from {@code Connection.poll}.
 */
@FunctionalInterface
public interface MessageHandler
{
    /**
     * Called once per complete message. The region is contiguous and valid only during the call: copy what must be
     * kept, the space is reused for new data as soon as the poll returns.
     *
     * @param buffer holding the message.
     * @param offset of the message's first byte in the buffer.
     * @param length of the message in bytes, possibly 0.
     */
    void onMessage(DirectBuffer buffer, int offset, int length);
}
