package io.pacelink.transport.port;

import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * Copies what a handler-style receive hands over into a {@link ReceiveBatch}: the bridge behind
 * {@link DatagramPort#receive(ReceiveBatch, int)} for ports that implement only the handler-style receive.
 */
final class CopyingReceive implements DatagramHandler
{
    /**
     * Room per datagram in a default batch: larger than any UDP payload.
     */
    static final int MAX_DATAGRAM_BYTES = 64 * 1024;

    private final ReceiveBatch batch;
    private int nextOffset;

    CopyingReceive(final ReceiveBatch batch)
    {
        this.batch = batch;
    }

    public void onDatagram(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source, final long nowNs)
    {
        if (batch.isFull() || length > batch.buffer().capacity() - nextOffset)
        {
            return;
        }
        batch.buffer().putBytes(nextOffset, buffer, offset, length);
        batch.add(nextOffset, length, source, ReceiveBatch.NOT_ECT);
        nextOffset += length;
    }

    public void onPortUnreachable(final InetSocketAddress peer, final long nowNs)
    {
        batch.portUnreachable(peer);
    }
}
