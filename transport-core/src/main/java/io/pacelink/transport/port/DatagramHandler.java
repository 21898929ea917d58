package io.pacelink.transport.port;

import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * Receives datagrams from a {@link DatagramPort}.
 */
@FunctionalInterface
public interface DatagramHandler
{
    /**
     * @param buffer holding the datagram, valid only during the call.
     * @param offset of the datagram in the buffer.
     * @param length of the datagram.
     * @param source the sender; may be a cached instance, do not rely on its identity.
     * @param nowNs  the time the receiving duty cycle runs at, as given to {@link DatagramPort#receive}.
     */
    void onDatagram(DirectBuffer buffer, int offset, int length, InetSocketAddress source, long nowNs);

    /**
     * The operating system reported that a datagram sent to {@code peer} found nothing listening (ICMP port
     * unreachable). Only a port restricted to one peer can tell ({@link DatagramPort#restrictTo}); others never
     * call this.
     *
     * @param peer  the peer whose port is unreachable.
     * @param nowNs as for {@link #onDatagram}.
     */
    default void onPortUnreachable(final InetSocketAddress peer, final long nowNs)
    {
    }
}
