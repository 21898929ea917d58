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
     */
    void onDatagram(DirectBuffer buffer, int offset, int length, InetSocketAddress source);
}
