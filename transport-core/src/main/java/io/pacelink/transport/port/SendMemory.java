package io.pacelink.transport.port;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A port's own memory, lent to a {@link SendBatch} it made ({@link DatagramPort#newSendBatch}) so a datagram is
 * written where the port will hand it on, instead of into the batch's buffer and copied from there at the send. The
 * simulator's port lends the pooled packet that then travels the modelled path; a socket port lends nothing (the
 * kernel copies from the batch's buffer anyway, and GSO needs the datagrams back to back).
 */
@FunctionalInterface
public interface SendMemory
{
    /**
     * Memory for the datagram about to be written as entry {@code index} of the batch. Asked again for the same
     * index before that entry was sent (the datagram was claimed and not committed), the port may give the same
     * memory again.
     *
     * @param index          the entry the datagram will be, from 0 to the batch's most datagrams − 1.
     * @param maxLengthBytes the most the datagram may take.
     * @return a buffer the datagram is written into from its start (offset 0), with room for
     * {@code maxLengthBytes}; or null to write it in the batch's own buffer.
     */
    UnsafeBuffer lend(int index, int maxLengthBytes);

    /**
     * @return true if {@link #lend} never gives null, for any entry and any length up to the largest datagram
     * ({@code 65,507} bytes): a batch made with this memory then keeps none of its own, and every datagram must be
     * {@link SendBatch#claim claimed}. False (the default) if the batch's own buffer may be asked for.
     */
    default boolean lendsEveryDatagram()
    {
        return false;
    }
}
