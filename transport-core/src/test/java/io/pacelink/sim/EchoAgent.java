package io.pacelink.sim;

import io.pacelink.transport.port.DatagramHandler;
import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * Sends every datagram back to where it came from.
 */
final class EchoAgent implements SimulatedAgent, DatagramHandler
{
    private final SimDatagramPort port;

    EchoAgent(final SimDatagramPort port)
    {
        this.port = port;
    }

    public int doWork(final long nowNs)
    {
        return port.receive(this, 16, nowNs);
    }

    public long nextDeadlineNs()
    {
        return Long.MAX_VALUE;
    }

    public void onDatagram(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source, final long nowNs)
    {
        port.send(buffer, offset, length, source);
    }
}
