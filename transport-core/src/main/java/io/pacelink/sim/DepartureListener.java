package io.pacelink.sim;

import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * Hears every datagram a simulated host sends, at the virtual time it leaves the host's socket: the sender-side view
 * a packet capture on the sending host would give, e.g. to measure pacing gaps or how long data waited in the sender
 * before its packet left. Called on the simulation's thread; the buffer is valid only during the call.
 */
@FunctionalInterface
public interface DepartureListener
{
    /**
     * @param buffer      holding the datagram.
     * @param offset      of the datagram in the buffer.
     * @param length      of the datagram.
     * @param destination where it is going.
     * @param nowNs       the virtual time it left.
     */
    void onDeparture(DirectBuffer buffer, int offset, int length, InetSocketAddress destination, long nowNs);
}
