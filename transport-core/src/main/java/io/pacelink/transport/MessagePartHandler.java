package io.pacelink.transport;

import org.agrona.DirectBuffer;

/**
 * A {@link MessageHandler} that also takes a message in parts where it lies in parts. The receive side keeps a
 * connection's stream in segments of a fixed size (64 KiB by default); a message that lies in one segment is handed to
 * {@link #onMessage} in place, and one that spans segments would otherwise be copied whole into a scratch buffer
 * first, so that {@code onMessage} sees it contiguous. A handler that implements this interface is instead handed such
 * a message as its parts, in order and in place, with no copy: an application that streams what it receives (a file,
 * a checksum, a parser that takes bytes as they come) need not pay for a contiguous view it does not use. Messages of
 * up to a segment's size that happen to lie in one segment still arrive through {@link #onMessage}.
 * <p>
 * Aeron's {@code FragmentHandler} and its {@code FragmentAssembler} make the same split between parts handed over in
 * place and an assembled copy; here the copy is the default and the parts are asked for.
 */
public interface MessagePartHandler extends MessageHandler
{
    /**
     * Called once for each part of a message that spans segments, in order, every part non-empty; the message's last
     * part is the one for which {@code messageOffset + length == messageLength}. The region is valid only during the
     * call, as {@link #onMessage}'s.
     *
     * @param buffer        holding the part.
     * @param offset        of the part's first byte in the buffer.
     * @param length        of the part in bytes, at least 1.
     * @param messageOffset of the part's first byte in the message.
     * @param messageLength of the whole message in bytes.
     */
    void onMessagePart(DirectBuffer buffer, int offset, int length, int messageOffset, int messageLength);
}
