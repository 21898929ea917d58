package io.pacelink.sim;

import io.pacelink.transport.port.DatagramHandler;
import org.agrona.DirectBuffer;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;

/**
 * Sends numbered pings at a fixed interval and records each echo's round-trip time.
 */
final class PingAgent implements SimulatedAgent, DatagramHandler
{
    final LongArrayList rttNs = new LongArrayList();
    private final SimDatagramPort port;
    private final InetSocketAddress peer;
    private final int lengthBytes;
    private final long intervalNs;
    private final int count;
    private final long[] sentAtNs;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private long nextPingNs;
    private int sent;

    PingAgent(final SimDatagramPort port, final InetSocketAddress peer, final int lengthBytes, final long intervalNs,
        final int count)
    {
        this.port = port;
        this.peer = peer;
        this.lengthBytes = lengthBytes;
        this.intervalNs = intervalNs;
        this.count = count;
        this.sentAtNs = new long[count];
    }

    public int doWork(final long nowNs)
    {
        int work = port.receive(this, 16, nowNs);
        if (sent < count && nowNs >= nextPingNs)
        {
            buffer.putInt(0, sent);
            sentAtNs[sent++] = nowNs;
            port.send(buffer, 0, lengthBytes, peer);
            nextPingNs += intervalNs;
            work++;
        }
        return work;
    }

    public long nextDeadlineNs()
    {
        return sent < count ? nextPingNs : Long.MAX_VALUE;
    }

    public void onDatagram(
        final DirectBuffer buffer, final int offset, final int length, final InetSocketAddress source, final long nowNs)
    {
        rttNs.addLong(nowNs - sentAtNs[buffer.getInt(offset)]);
    }
}
