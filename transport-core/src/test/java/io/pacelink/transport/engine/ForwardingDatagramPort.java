package io.pacelink.transport.engine;

import io.pacelink.transport.port.DatagramHandler;
import io.pacelink.transport.port.DatagramPort;
import io.pacelink.transport.port.ReceiveBatch;
import io.pacelink.transport.port.SendBatch;
import org.agrona.DirectBuffer;

import java.net.InetSocketAddress;

/**
 * A port that hands every call to another: tests extend it to watch or change the calls their core makes, overriding
 * only those (the duty-cycle order tests' ports).
 */
abstract class ForwardingDatagramPort implements DatagramPort
{
    protected final DatagramPort port;

    ForwardingDatagramPort(final DatagramPort port)
    {
        this.port = port;
    }

    public int receive(final DatagramHandler handler, final int limit, final long nowNs)
    {
        return port.receive(handler, limit, nowNs);
    }

    public ReceiveBatch newReceiveBatch(final int maxDatagrams)
    {
        return port.newReceiveBatch(maxDatagrams);
    }

    public int receive(final ReceiveBatch batch, final int limit)
    {
        return port.receive(batch, limit);
    }

    public int send(final SendBatch batch)
    {
        return port.send(batch);
    }

    public boolean send(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress destination)
    {
        return port.send(buffer, offset, length, destination);
    }

    public InetSocketAddress localAddress()
    {
        return port.localAddress();
    }

    public void close()
    {
        port.close();
    }
}
