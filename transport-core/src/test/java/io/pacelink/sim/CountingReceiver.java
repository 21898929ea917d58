package io.pacelink.sim;

import io.pacelink.sim.results.FlowResults;
import io.pacelink.transport.port.DatagramHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * Counts what arrives into a {@link FlowResults}, optionally answering each datagram with a small acknowledgement
 * (so a window-based sender is ACK-clocked).
 */
final class CountingReceiver implements SimulatedAgent, DatagramHandler
{
    static final int ACK_BYTES = 40;

    final FlowResults results;
    private final SimDatagramPort port;
    private final boolean acknowledge;
    private final UnsafeBuffer ack = new UnsafeBuffer(new byte[ACK_BYTES]);
    private long received;

    CountingReceiver(final SimDatagramPort port, final boolean acknowledge, final FlowResults results)
    {
        this.port = port;
        this.acknowledge = acknowledge;
        this.results = results;
    }

    public int doWork(final long nowNs)
    {
        return port.receive(this, 64, nowNs);
    }

    public long nextDeadlineNs()
    {
        return Long.MAX_VALUE;
    }

    public void onDatagram(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source, final long nowNs)
    {
        received++;
        results.onDelivered(nowNs, length);
        if (acknowledge)
        {
            ack.putLong(0, buffer.getLong(offset));
            port.send(ack, 0, ACK_BYTES, source);
        }
    }

    long received()
    {
        return received;
    }
}
